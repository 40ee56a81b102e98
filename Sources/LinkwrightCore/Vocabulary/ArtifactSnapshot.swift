extension PolicySnapshot {
    /// Raw association files served on `host`, seen as a compiled configuration: one production
    /// environment whose apps claim the host for every service the files list them under, and
    /// whose Android apps accept every path (the files alone say nothing of intent filters). The
    /// same diffs, rules and outputs then apply to repositories that keep hand-written files.
    public static func artifacts(
        aasa: AASADocument?, assetLinks: AssetLinksDocument?, host: Host, environment name: String = "artifact"
    ) -> PolicySnapshot {
        let location = SourceLocation.file(name)
        var iosApps: [CompiledIOSApp] = []
        func claim(_ appID: String, _ service: String) {
            let entry = "\(service):\(host.name)"
            if let index = iosApps.firstIndex(where: { $0.appID == appID }) {
                if !iosApps[index].associatedDomains.contains(entry) { iosApps[index].associatedDomains.append(entry) }
            } else {
                iosApps.append(CompiledIOSApp(name: appID, appID: appID, isAppClip: false, associatedDomains: [entry]))
            }
        }
        for details in aasa?.applinks?.details ?? [] {
            for appID in details.effectiveAppIDs { claim(appID, "applinks") }
        }
        let services = [
            ("webcredentials", aasa?.webcredentials), ("appclips", aasa?.appclips),
            ("activitycontinuation", aasa?.activitycontinuation),
        ]
        for (service, apps) in services {
            for appID in apps ?? [] { claim(appID, service) }
        }
        var packages: [String] = []
        for statement in assetLinks?.statements ?? [] {
            if case .androidApp(let package, _) = statement.target, !packages.contains(package) {
                packages.append(package)
            }
        }
        let androidApps = packages.map { package in
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
