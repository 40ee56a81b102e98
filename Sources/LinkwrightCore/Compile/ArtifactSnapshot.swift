extension PolicySnapshot {
    /// Raw association files served on `host`, seen as a compiled configuration: one production
    /// environment whose apps claim the host for every service the files list them under, and
    /// whose Android apps accept every path (the files alone say nothing of intent filters). The
    /// same diffs, rules and outputs then apply to repositories that keep hand-written files.
    /// The environment of a snapshot made from raw files: release notes name their host instead.
    public static let artifactEnvironment = "artifact"

    public static func artifacts(
        aasa: AASADocument?, assetLinks: AssetLinksDocument?, host: Host, environment name: String = artifactEnvironment
    ) -> PolicySnapshot {
        let location = SourceLocation.file(name)
        var iosApps: [CompiledIOSApp] = []
        // Found by app ID without a scan: a served file may list 100,000 of them.
        var positions: [String: Int] = [:]
        func claim(_ appID: String, _ service: AssociatedService) {
            let entry = "\(service.rawValue):\(host.name)"
            if let index = positions[appID] {
                if !iosApps[index].associatedDomains.contains(entry) { iosApps[index].associatedDomains.append(entry) }
            } else {
                positions[appID] = iosApps.count
                iosApps.append(CompiledIOSApp(name: appID, appID: appID, isAppClip: false, associatedDomains: [entry]))
            }
        }
        for details in aasa?.applinks?.details ?? [] {
            for appID in details.effectiveAppIDs { claim(appID, .applinks) }
        }
        for (service, apps) in aasa?.appLists ?? [] {
            for appID in apps ?? [] { claim(appID, service) }
        }
        let packages = (assetLinks?.statements ?? []).compactMap { statement -> String? in
            if case .androidApp(let package, _) = statement.target { return package }
            return nil
        }
        let androidApps = packages.uniqued().map { package in
            CompiledAndroidApp(
                name: package, package: package,
                intentFilters: [IntentFilter(domain: name, hosts: [host], scopes: [.prefix("/")])])
        }
        let site = CompiledSite(
            fileHost: host.fileHost, servedHosts: [host], domain: name, aasa: aasa, assetLinks: assetLinks)
        let compiled = CompiledEnvironment(
            name: name, tier: .production, mode: nil, sites: [site], iosApps: iosApps, androidApps: androidApps)
        let environment = Environment(
            name: name, file: name, tier: Located(.production, at: location), teamID: nil, mode: nil, apps: [],
            hosts: [HostBinding(host: Located(host, at: location), domain: Located(name, at: location))])
        return PolicySnapshot(
            configuration: Configuration(environments: [environment], domains: [], policies: []),
            compiled: CompiledConfiguration(environments: [compiled]), diagnostics: [])
    }
}
