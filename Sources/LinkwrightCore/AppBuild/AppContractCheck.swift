/// A built app against one environment's contract and the association files built from it
/// (`verify --app`): the findings the layer "binary" of a failing link shows. Each finding's
/// location is the YAML that declares what the build should carry; its message names the place
/// in the build.
public struct AppContractCheck {
    public static let findingIDs: [DiagnosticID] = [
        .appNotDeclared, .appUnsigned, .appKeyNotListed, .appDomainMissing, .appDomainUnverified, .appDomainExtra,
        .appSchemeMissing, .appSchemeExtra,
    ]

    let configuration: Configuration
    let environment: CompiledEnvironment
    /// The build as the command line named it.
    let file: String

    public init(configuration: Configuration, environment: CompiledEnvironment, file: String) {
        self.configuration = configuration
        self.environment = environment
        self.file = file
    }

    public func findings(_ build: AppBuildFacts) -> [Finding] {
        switch build {
        case .android(let android): findings(android)
        }
    }

    private func finding(
        _ id: DiagnosticID, _ message: String, at location: SourceLocation?, hint: String, app: String? = nil,
        host: String? = nil, identity: [String]
    ) -> Finding {
        Finding(
            rule: id.rawValue, severity: id.severity, message: "\(file): \(message)", location: location, hint: hint,
            environment: environment.name, host: host, platform: .android, app: app,
            identity: [environment.name] + identity)
    }

    private var declared: Environment? { configuration.environment(named: environment.name) }

    // MARK: Android

    private func findings(_ build: AndroidBuild) -> [Finding] {
        let package = build.manifest.package
        guard let compiled = environment.androidApps.first(where: { $0.package == package }),
            let definition = declared?.app(named: compiled.name), let android = definition.android
        else {
            let known = environment.androidApps.map(\.package)
            return [
                finding(
                    .appNotDeclared,
                    "the package \(PrintableText.quoted(package)) is not an Android app of environment \(environment.name)"
                        + (known.isEmpty ? "" : " (it declares \(known.joined(separator: ", ")))"),
                    at: declared.map { .file($0.file) },
                    hint: "check that this is the build for \(environment.name), or declare the app there",
                    identity: [package])
            ]
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
                        + "\(fingerprint), which assetlinks.json on \(hosts.joined(separator: ", ")) does not list for "
                        + "\(compiled.package)"
                        + (listed.isEmpty ? "" : "; it lists \(listed.joined(separator: ", "))"),
                    at: key?.fingerprint.location ?? android.location,
                    hint: key != nil
                        ? "deploy the assetlinks.json linkwright build writes, or sign with a listed key"
                        : other != nil
                            ? "check the build users install (Play re-signs uploads with its play-signing key), or list "
                                + "this key in \(environment.name) too"
                            : "sign with a key the environment lists, or add this one under its channel (play-signing, upload…)",
                    app: app, identity: [compiled.package, fingerprint]))
        }
        return found
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
            "\(file)!/AndroidManifest.xml line \(filter.line) (\(filter.keyPath))"
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
        var declaredByBuild: [String: AndroidManifestFacts.Filter] = [:]
        for filter in build.manifest.filters {
            for scheme in filter.schemes.map({ $0.lowercased() }) where scheme != "http" && scheme != "https" {
                if declaredByBuild[scheme] == nil { declaredByBuild[scheme] = filter }
            }
        }
        let contract = Set(compiled.schemes.map(\.name))
        var found: [Finding] = []
        for scheme in definition.schemes where declaredByBuild[scheme.name.value] == nil {
            found.append(
                finding(
                    .appSchemeMissing,
                    "\(compiled.package) declares no intent filter for the scheme \(scheme.name.value):",
                    at: scheme.name.location,
                    hint: "add an <intent-filter> with <data android:scheme=\"\(scheme.name.value)\"/>",
                    app: compiled.name, identity: [compiled.package, scheme.name.value]))
        }
        for (scheme, filter) in declaredByBuild.sorted(by: { $0.key < $1.key }) where !contract.contains(scheme) {
            found.append(
                finding(
                    .appSchemeExtra,
                    "\(file)!/AndroidManifest.xml line \(filter.line) (\(filter.keyPath)) declares the scheme \(scheme):,"
                        + " which the contract does not",
                    at: android.location, hint: "declare the scheme under the app's schemes:, or remove the filter",
                    app: compiled.name, identity: [compiled.package, scheme]))
        }
        return found
    }
}
