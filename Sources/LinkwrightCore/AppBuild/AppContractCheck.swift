/// A built app against one environment's contract and the association files built from it
/// (`verify --app`): the findings the layer "binary" of a failing link shows. Each finding's
/// location is the YAML that declares what the build should carry; its message names the place
/// in the build.
public struct AppContractCheck {
    public static let findingIDs: [DiagnosticID] = [
        .appNotDeclared, .appUnsigned, .appKeyNotListed, .appDomainMissing, .appDomainUnverified, .appDomainExtra,
        .appDomainMode, .appProfileDisallows, .appIDNotServed, .appSchemeMissing, .appSchemeExtra,
    ]

    let configuration: Configuration
    let environment: CompiledEnvironment
    /// The build as the command line named it.
    let file: String
    /// `built` when the environment's association files are the ones linkwright builds, `served`
    /// when `served(_:files:)` put what the hosts serve in their place.
    let source: String

    public init(configuration: Configuration, environment: CompiledEnvironment, file: String, source: String = "built")
    {
        self.configuration = configuration
        self.environment = environment
        self.file = file
        self.source = source
    }

    /// `environment` with each site's association files replaced by what its host serves
    /// (`served[i]` for `environment.sites[i]`, the AASA and then assetlinks.json where the site
    /// has them), and the findings of files that could not be fetched or read: such a site's file
    /// is left out, so a build is never judged against a file nobody could read.
    public static func served(
        _ environment: CompiledEnvironment, files served: [[(AssociationFile, ServedFile)]],
        locations: [String: SourceLocation]
    ) -> (CompiledEnvironment, [Finding]) {
        var replaced = environment
        var findings: [Finding] = []
        for (index, site) in environment.sites.enumerated() where index < served.count {
            for (file, fetched) in served[index] {
                let scope = ServingCheck.Scope(
                    environment: environment.name, host: site.fileHost.name, location: locations[site.fileHost.name])
                let problems = ServingCheck.origin(file, fetched, expected: site, scope: scope).filter {
                    $0.severity == .error && $0.rule != DiagnosticID.originDiffers.rawValue
                }
                findings += problems
                var body: [UInt8]?
                if problems.isEmpty, case .response(let response) = fetched.outcome { body = response.body }
                switch file {
                case .aasa:
                    replaced.sites[index].aasa = body.flatMap { AASAReader().read($0, file: fetched.url).document }
                case .assetLinks:
                    replaced.sites[index].assetLinks = body.flatMap {
                        AssetLinksReader().read($0, file: fetched.url).document
                    }
                }
            }
        }
        return (replaced, findings)
    }

    public func findings(_ build: AppBuildFacts) -> [Finding] {
        switch build {
        case .android(let android): androidFindings(android)
        case .ios(let ios): iosFindings(ios)
        }
    }

    private func finding(
        _ id: DiagnosticID, _ message: String, at location: SourceLocation?, hint: String, app: String? = nil,
        host: String? = nil, platform: Platform = .android, identity: [String]
    ) -> Finding {
        Finding(
            rule: id.rawValue, severity: id.severity, message: "\(file): \(message)", location: location, hint: hint,
            environment: environment.name, host: host, platform: platform, app: app,
            identity: [environment.name, platform.rawValue] + identity)
    }

    /// A finding that the build is not an app of the environment.
    private func notDeclared(_ identity: String, platform: Platform, known: [String]) -> Finding {
        finding(
            .appNotDeclared,
            "\(PrintableText.quoted(identity)) is not an app of environment \(environment.name) on \(platform.rawValue)"
                + (known.isEmpty ? "" : " (it declares \(known.joined(separator: ", ")))"),
            at: declared.map { .file($0.file) },
            hint: "check that this is the build for \(environment.name), or declare the app there", platform: platform,
            identity: [identity])
    }

    private var declared: Environment? { configuration.environment(named: environment.name) }

    // MARK: Android

    private func androidFindings(_ build: AndroidBuild) -> [Finding] {
        let package = build.manifest.package
        guard let compiled = environment.androidApps.first(where: { $0.package == package }),
            let definition = declared?.app(named: compiled.name), let android = definition.android
        else {
            return [notDeclared(package, platform: .android, known: environment.androidApps.map(\.package))]
        }
        var found = keyFindings(build, compiled, android, app: compiled.name)
        found += hostFindings(build, compiled, android, app: compiled.name)
        found += schemeFindings(build, compiled, definition, android)
        return found
    }

    private func keyFindings(
        _ build: AndroidBuild, _ compiled: CompiledAndroidApp, _ android: AndroidApp, app: String
    ) -> [Finding] {
        guard !build.certificates.isEmpty else {
            return [
                finding(
                    .appUnsigned, "the APK is not signed (no v1, v2 or v3 signature)", at: android.location,
                    hint: "sign the build (apksigner, or the Play Console's app signing)", app: app,
                    identity: [compiled.package])
            ]
        }
        if build.isBundle { return bundleKeyFindings(build, compiled, android, app: app) }
        // Each verified host's built assetlinks.json, and the fingerprints it lists for the package.
        let lookup = SiteLookup(environment)
        var listedBy: [(host: String, fingerprints: Set<String>)] = []
        for host in compiled.intentFilters.flatMap(\.hosts) {
            guard let site = lookup.site(serving: host.name), let document = site.assetLinks else { continue }
            var fingerprints: Set<String> = []
            for statement in document.statements where statement.relations.contains(AssetStatement.handleAllURLs) {
                if case .androidApp(compiled.package, let listed) = statement.target { fingerprints.formUnion(listed) }
            }
            listedBy.append((site.fileHost.name, fingerprints))
        }
        var found: [Finding] = []
        for certificate in build.certificates {
            let fingerprint = certificate.fingerprint.value
            let missingOn = listedBy.filter { !$0.fingerprints.contains(fingerprint) }.map(\.host)
            guard !missingOn.isEmpty else { continue }
            let hosts = Array(Set(missingOn)).sorted()
            let key = android.fingerprints.first { $0.fingerprint.value.value == fingerprint }
            let other = key == nil ? channelElsewhere(fingerprint, package: compiled.package) : nil
            let named =
                key.map { "the `\($0.channel.value)` key" } ?? other.map {
                    "the `\($0.channel)` key of environment \($0.environment)"
                }
                ?? "a key the configuration does not know"
            let listed = android.fingerprints.map { "\($0.channel.value) \($0.fingerprint.value.value)" }
            found.append(
                finding(
                    .appKeyNotListed,
                    "signed (\(certificate.schemes.map(\.rawValue).joined(separator: ", "))) with \(named), SHA-256 "
                        + "\(fingerprint), which the assetlinks.json \(source) for \(hosts.joined(separator: ", ")) does not list for "
                        + "\(compiled.package)"
                        + (listed.isEmpty ? "" : "; it lists \(listed.joined(separator: ", "))"),
                    at: key?.fingerprint.location ?? android.location,
                    hint: key != nil || source == "served"
                        ? "deploy the assetlinks.json linkwright build writes, or sign with a listed key"
                        : other != nil
                            ? "check the build users install (Play re-signs uploads with its play-signing key), or list "
                                + "this key in \(environment.name) too"
                            : "sign with a key the environment lists, or add this one under its channel (play-signing, upload…)",
                    app: app, identity: [compiled.package, fingerprint]))
        }
        return found
    }

    /// An .aab carries the upload key, which Play replaces with its signing key: the key must be
    /// one the contract lists, and assetlinks.json must list the Play-signing key (as built).
    private func bundleKeyFindings(
        _ build: AndroidBuild, _ compiled: CompiledAndroidApp, _ android: AndroidApp, app: String
    ) -> [Finding] {
        let listed = android.fingerprints.map { "\($0.channel.value) \($0.fingerprint.value.value)" }
        return build.certificates.filter { certificate in
            !android.fingerprints.contains { $0.fingerprint.value.value == certificate.fingerprint.value }
        }.map { certificate in
            let other = channelElsewhere(certificate.fingerprint.value, package: compiled.package)
            return finding(
                .appKeyNotListed,
                "the bundle is signed with "
                    + (other.map { "the `\($0.channel)` key of environment \($0.environment)" } ?? "a key")
                    + ", SHA-256 \(certificate.fingerprint.value), which environment \(environment.name) does not list "
                    + "for \(compiled.package)"
                    + (listed.isEmpty ? "" : "; it lists \(listed.joined(separator: ", ")): ")
                    + "Play accepts a bundle signed with the app's upload key only, and signs what it installs with "
                    + "its own key",
                at: android.location,
                hint: "sign the bundle with the upload key, and list it under `upload:`", app: app,
                identity: [compiled.package, certificate.fingerprint.value])
        }
    }

    /// The channel another environment gives a fingerprint for the same package.
    private func channelElsewhere(_ fingerprint: String, package: String) -> (channel: String, environment: String)? {
        for other in configuration.environments where other.name != environment.name {
            for app in other.apps where app.android?.package.value == package {
                if let key = app.android?.fingerprints.first(where: { $0.fingerprint.value.value == fingerprint }) {
                    return (key.channel.value, other.name)
                }
            }
        }
        return nil
    }

    private func hostFindings(
        _ build: AndroidBuild, _ compiled: CompiledAndroidApp, _ android: AndroidApp, app: String
    ) -> [Finding] {
        let web = build.manifest.filters.filter(\.isWebLink)
        func place(_ filter: AndroidManifestFacts.Filter) -> String {
            "\(file)!/\(build.manifestPath) line \(filter.line) (\(filter.keyPath))"
        }
        func hostName(_ written: String) -> String {
            String(written.split(separator: ":", maxSplits: 1).first ?? Substring(written)).lowercased()
        }
        let verified = Set(web.filter(\.autoVerify).flatMap(\.hosts).map(hostName))
        let contract = compiled.intentFilters.flatMap(\.hosts).map(\.name)
        let bindings = declared?.hosts ?? []
        var found: [Finding] = []
        for host in contract where !verified.contains(host) {
            let binding = bindings.first { $0.host.value.name == host }
            if let unverified = web.first(where: { !$0.autoVerify && $0.hosts.map(hostName).contains(host) }) {
                found.append(
                    finding(
                        .appDomainUnverified,
                        "\(host) is only in an intent filter without android:autoVerify=\"true\" at \(place(unverified))",
                        at: binding?.host.location ?? android.location,
                        hint: "add android:autoVerify=\"true\" to that <intent-filter> (check the merged manifest)",
                        app: app, host: host, identity: [compiled.package, host]))
            } else {
                let apex = host.hasPrefix("*.") ? nil : "*." + host
                let coveredOnlyByWildcard = apex.map(verified.contains) ?? false
                found.append(
                    finding(
                        .appDomainMissing,
                        "no verified intent filter of \(compiled.package) names \(host)"
                            + (coveredOnlyByWildcard ? " (\(apex!) does not cover \(host))" : ""),
                        at: binding?.host.location ?? android.location,
                        hint: "add <data android:host=\"\(host)\"/> to the app's autoVerify intent filter",
                        app: app, host: host, identity: [compiled.package, host]))
            }
        }
        let contractHosts = Set(contract)
        for filter in web where filter.autoVerify {
            for host in filter.hosts.map(hostName) where !contractHosts.contains(host) {
                found.append(
                    finding(
                        .appDomainExtra,
                        "\(place(filter)) verifies \(host), which environment \(environment.name) does not serve for "
                            + compiled.package,
                        at: android.location,
                        hint: "remove the host from the filter, or bind it in the environment",
                        app: app, host: host, identity: [compiled.package, host, "extra"]))
            }
        }
        return found
    }

    private func schemeFindings(
        _ build: AndroidBuild, _ compiled: CompiledAndroidApp, _ definition: AppDefinition, _ android: AndroidApp
    ) -> [Finding] {
        var declaredByBuild: [String: String] = [:]
        for filter in build.manifest.filters {
            for scheme in filter.schemes.map({ $0.lowercased() }) where scheme != "http" && scheme != "https" {
                if declaredByBuild[scheme] == nil {
                    declaredByBuild[scheme] = "\(file)!/\(build.manifestPath) line \(filter.line) (\(filter.keyPath))"
                }
            }
        }
        return schemeFindings(
            declaredByBuild, contract: definition.schemes, identity: compiled.package, app: compiled.name,
            platform: .android, location: android.location,
            declaration: "an <intent-filter> with <data android:scheme=\"…\"/>")
    }

    /// The schemes a build declares (each with its place in the build) against the contract's.
    private func schemeFindings(
        _ declaredByBuild: [String: String], contract: [CustomScheme], identity: String, app: String,
        platform: Platform, location: SourceLocation, declaration: String
    ) -> [Finding] {
        var found: [Finding] = []
        for scheme in contract where declaredByBuild[scheme.name.value] == nil {
            found.append(
                finding(
                    .appSchemeMissing, "\(identity) does not declare the scheme \(scheme.name.value):",
                    at: scheme.name.location, hint: "declare it in the build: \(declaration)", app: app,
                    platform: platform, identity: [identity, scheme.name.value]))
        }
        let names = Set(contract.map(\.name.value))
        for (scheme, place) in declaredByBuild.sorted(by: { $0.key < $1.key }) where !names.contains(scheme) {
            found.append(
                finding(
                    .appSchemeExtra, "\(place) declares the scheme \(scheme):, which the contract does not",
                    at: location, hint: "declare the scheme under the app's schemes:, or remove it from the build",
                    app: app, platform: platform, identity: [identity, scheme]))
        }
        return found
    }

    // MARK: iOS

    private func iosFindings(_ build: IOSBuild) -> [Finding] {
        guard environment.iosApps.contains(where: { $0.appID.hasSuffix("." + build.main.bundleID) }) else {
            return [
                notDeclared(
                    build.main.bundleID, platform: .ios,
                    known: environment.iosApps.map { String($0.appID.drop { $0 != "." }.dropFirst()) })
            ]
        }
        // Nested extensions the contract does not name take no part in links.
        return build.main.all.flatMap { bundle -> [Finding] in
            guard let compiled = environment.iosApps.first(where: { $0.appID.hasSuffix("." + bundle.bundleID) }),
                let definition = declared?.app(named: compiled.name), let ios = definition.ios
            else { return [] }
            return bundleFindings(bundle, compiled, definition, ios)
        }
    }

    private func bundleFindings(
        _ bundle: IOSBuild.Bundle, _ compiled: CompiledIOSApp, _ definition: AppDefinition, _ ios: IOSApp
    ) -> [Finding] {
        let entitlements = "\(file)!/\(bundle.path)/\(bundle.executable) entitlements"
        let key = "com.apple.developer.associated-domains"
        var found: [Finding] = []
        func add(_ id: DiagnosticID, _ message: String, at location: SourceLocation, hint: String, _ identity: String) {
            found.append(
                finding(
                    id, message, at: location, hint: hint, app: compiled.name, platform: .ios,
                    identity: [compiled.appID, identity]))
        }
        guard bundle.signature != nil else {
            add(
                .appUnsigned, "\(bundle.path)/\(bundle.executable) is not signed", at: ios.location,
                hint: "sign the build", "")
            return found
        }
        // Entries by `service:host`, their modes apart (Apple: `applinks:host?mode=developer`).
        func split(_ entry: String) -> (entry: String, mode: String?) {
            let parts = entry.split(separator: "?", maxSplits: 1)
            let mode = parts.count == 2 ? parts[1].split(separator: "=", maxSplits: 1).last.map(String.init) : nil
            return (String(parts.first ?? "").lowercased(), mode)
        }
        let built = bundle.associatedDomains.map(split)
        let contract = compiled.associatedDomains.map(split)
        let builtEntries = Set(built.map(\.entry))
        let contractEntries = Set(contract.map(\.entry))
        let bindings = declared?.hosts ?? []
        for entry in contract.map(\.entry) where !builtEntries.contains(entry) {
            let service = entry.prefix { $0 != ":" }
            let host = String(entry.drop { $0 != ":" }.dropFirst())
            let wildcardOnly = !host.hasPrefix("*.") && builtEntries.contains("\(service):*.\(host)")
            add(
                .appDomainMissing,
                "\(entitlements) (\(key)) lack \(entry)" + (wildcardOnly ? " (*.\(host) does not cover \(host))" : ""),
                at: bindings.first { $0.host.value.name == host }?.host.location ?? ios.location,
                hint: "add \(entry) to the app's entitlements file (linkwright build writes it)", entry)
        }
        for entry in built.map(\.entry) where !contractEntries.contains(entry) {
            add(
                .appDomainExtra,
                "\(entitlements) (\(key)) claim \(entry), which environment \(environment.name) does not serve",
                at: ios.location, hint: "remove it from the entitlements, or bind the host in the environment", entry)
        }
        var contractModes: [String: String?] = [:]
        for (entry, mode) in contract where contractModes[entry] == nil { contractModes[entry] = mode }
        for (entry, mode) in built {
            guard let mode, let expected = contractModes[entry], expected != mode else { continue }
            add(
                .appDomainMode,
                "\(entitlements) (\(key)) claim \(entry)?mode=\(mode), which the \(environment.tier.rawValue) "
                    + "environment \(environment.name) does not use: devices fetch its file "
                    + (mode == "developer" ? "only in developer mode, never from Apple's CDN" : "only under that mode"),
                at: declared?.mode?.location ?? ios.location,
                hint: "sign the build with the entitlements file linkwright build writes for \(environment.name)",
                entry + "?mode")
        }
        found += profileFindings(bundle, compiled, ios)
        found += servedFindings(bundle, compiled, ios)
        var schemes: [String: String] = [:]
        for scheme in bundle.urlSchemes.map({ $0.lowercased() }) where schemes[scheme] == nil {
            schemes[scheme] = "\(file)!/\(bundle.path)/Info.plist (CFBundleURLTypes)"
        }
        found += schemeFindings(
            schemes, contract: definition.schemes, identity: compiled.appID, app: compiled.name, platform: .ios,
            location: ios.location, declaration: "CFBundleURLTypes → CFBundleURLSchemes in Info.plist")
        return found
    }

    /// What the embedded provisioning profile does not allow: the app ID, or associated domains.
    private func profileFindings(_ bundle: IOSBuild.Bundle, _ compiled: CompiledIOSApp, _ ios: IOSApp) -> [Finding] {
        guard let profile = bundle.profile else { return [] }
        let place = "\(file)!/\(bundle.path)/embedded.mobileprovision"
        var found: [Finding] = []
        func add(_ message: String, hint: String, _ identity: String) {
            found.append(
                finding(
                    .appProfileDisallows, message, at: ios.bundleID.location, hint: hint, app: compiled.name,
                    platform: .ios, identity: [compiled.appID, "profile", identity]))
        }
        if let allowed = profile.applicationIdentifier {
            let matches =
                allowed == compiled.appID
                || (allowed.hasSuffix("*") && compiled.appID.hasPrefix(String(allowed.dropLast())))
            if !matches {
                add(
                    "\(place) is for the app ID \(allowed), not \(compiled.appID)",
                    hint: "embed a profile made for \(compiled.appID)", "app ID")
            }
        }
        guard !bundle.associatedDomains.isEmpty else { return found }
        let allowed = profile.entitlements?["com.apple.developer.associated-domains"]
        let refused =
            allowed?.string == "*"
            ? [] : bundle.associatedDomains.filter { !(allowed?.strings ?? []).contains($0) }
        if allowed == nil {
            add(
                "\(place) (\(profile.name.map(PrintableText.quoted) ?? "unnamed")) does not allow Associated Domains,"
                    + " which the app is signed with: iOS refuses the entitlement",
                hint: "enable Associated Domains for \(compiled.appID) and regenerate the profile", "associated domains"
            )
        } else if !refused.isEmpty {
            add(
                "\(place) does not allow \(refused.joined(separator: ", "))",
                hint: "regenerate the profile with these domains allowed", "associated domains")
        }
        return found
    }

    /// Hosts the build claims with `applinks:` whose built AASA does not name the build's app ID.
    private func servedFindings(_ bundle: IOSBuild.Bundle, _ compiled: CompiledIOSApp, _ ios: IOSApp) -> [Finding] {
        guard let team = bundle.teamID else { return [] }
        let appID = "\(team).\(bundle.bundleID)"
        let lookup = SiteLookup(environment)
        var found: [Finding] = []
        var seen: Set<String> = []
        for entry in bundle.associatedDomains where entry.hasPrefix("applinks:") {
            let host = String(entry.dropFirst("applinks:".count).prefix { $0 != "?" }).lowercased()
            guard let site = lookup.site(serving: host), let aasa = site.aasa, seen.insert(site.fileHost.name).inserted
            else { continue }
            let served = (aasa.applinks?.details ?? []).flatMap(\.effectiveAppIDs) + (aasa.applinks?.legacyApps ?? [])
            guard !served.contains(appID) else { continue }
            found.append(
                finding(
                    .appIDNotServed,
                    "the build is signed as \(appID), which the apple-app-site-association \(source) for "
                        + "\(site.fileHost.name) does not name"
                        + (appID == compiled.appID ? "" : " (the contract's app ID is \(compiled.appID))"),
                    at: ios.teamID?.location ?? declared?.teamID?.location ?? ios.location,
                    hint: "sign with the team the environment declares, or correct team_id", app: compiled.name,
                    host: site.fileHost.name, platform: .ios, identity: [compiled.appID, appID, site.fileHost.name]))
        }
        return found
    }
}
