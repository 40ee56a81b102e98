/// The state of one import: logical app names and what was found.
struct ImportTranslation {
    let environment: String
    let tier: Tier
    /// The environment the hosts are added to, if it exists: its apps keep their names.
    let existing: Environment?
    /// The apps found that `existing` declares already, by logical name: not written again.
    var existingNames: Set<String> = []
    var diagnostics = DiagnosticBag()
    var notes: [String] = []
    /// `TEAM.bundle` → logical name.
    var iosNames: [String: String] = [:]
    /// package → logical name.
    var androidNames: [String: String] = [:]
    /// logical name → (bundle, team, app clip)
    var iosApps: [String: (bundle: String, team: String, clip: Bool)] = [:]
    /// logical name → (package, fingerprints)
    var androidApps: [String: (package: String, fingerprints: [String])] = [:]
    /// Every logical name, in the order the apps were found.
    var order: [String] = []
    /// bundle → the iOS apps' logical names with that bundle, in `order`.
    var iosNamesByBundle: [String: [String]] = [:]
    /// The numbered names `app-2`, `app-3`, … below this are taken.
    var nextNumberedName = 2
    var team: String?
    /// Where to point a problem found in a list that keeps no position (a service's `apps`).
    var fallbackFile = ""

    let requiredChannels: [String]

    init(environment: String, tier: Tier, existing: Environment?, requiredChannels: [String]) {
        self.environment = environment
        self.tier = tier
        self.existing = existing
        self.requiredChannels = requiredChannels
    }

    // MARK: Apps

    mutating func collectApps(_ sites: [Importer.Site]) {
        fallbackFile = sites.compactMap(\.aasaFile).first ?? environment
        var teams: [String: Int] = [:]
        var appIDs: [(String, SourceLocation?)] = []
        var clips: Set<String> = []
        for site in sites {
            guard let aasa = site.aasa else { continue }
            for details in aasa.applinks?.details ?? [] {
                for appID in details.effectiveAppIDs { appIDs.append((appID, details.origin)) }
            }
            for service in AssociatedService.appListServices where service != .appclips {
                for appID in aasa.serviceApps[service] ?? [] { appIDs.append((appID, nil)) }
            }
            for appID in aasa.serviceApps[.appclips] ?? [] {
                appIDs.append((appID, nil))
                clips.insert(appID)
            }
        }
        for (appID, _) in appIDs {
            if let (team, _) = Self.split(appID) { teams[team, default: 0] += 1 }
        }
        team = teams.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        var refused: Set<String> = []
        for (appID, origin) in appIDs where iosNames[appID] == nil && !refused.contains(appID) {
            guard let (team, bundle) = Self.split(appID) else {
                refused.insert(appID)
                diagnostics.report(
                    .importAppID, "\(appID) cannot be imported: \(Self.appIDProblem(appID))",
                    at: origin ?? .file(fallbackFile),
                    hint: "fix the app ID in the original file: a 10-character team ID, a dot, the bundle ID")
                continue
            }
            let declared = existing?.apps.first {
                $0.ios?.bundleID.value == bundle && ($0.ios?.teamID ?? existing?.teamID)?.value == team
            }
            if let declared { existingNames.insert(declared.name.value) }
            let name = declared?.name.value ?? uniqueName(for: bundle)
            iosNames[appID] = name
            iosApps[name] = (bundle, team, clips.contains(appID))
            iosNamesByBundle[bundle, default: []].append(name)
            order.append(name)
        }
        // Where a site has dynamic rules, the import turns them on for the whole domain, and an
        // app that shared the iOS rules would get those as dynamic rules too: keep Android apps
        // of such sites apart.
        let apart = Set(
            sites.filter { $0.assetLinks?.statements.contains { $0.dynamicComponents != nil } == true }
                .flatMap { $0.assetLinks!.statements }
                .compactMap { statement -> String? in
                    if case .androidApp(let package, _) = statement.target { return package }
                    return nil
                })
        for site in sites {
            for statement in site.assetLinks?.statements ?? [] {
                guard case .androidApp(let package, let fingerprints) = statement.target else { continue }
                if let name = androidNames[package] {
                    androidApps[name]!.fingerprints += fingerprints
                    continue
                }
                if let declared = existing?.apps.first(where: { $0.android?.package.value == package }) {
                    let name = declared.name.value
                    refuseOtherKeys(fingerprints, of: declared, site: site)
                    existingNames.insert(name)
                    androidNames[package] = name
                    androidApps[name] = (package, fingerprints)
                    if iosApps[name] == nil { order.append(name) }
                    continue
                }
                // The same identifier on both platforms is one logical app: the first iOS app
                // found with it that is not a clip, has no Android side yet, and shares
                // credentials with the site on iOS exactly when it does on Android (one
                // webcredentials: list makes both).
                let sharesCredentials = statement.relations.contains(AssetStatement.getLoginCreds)
                let shared =
                    apart.contains(package)
                    ? nil
                    : iosNamesByBundle[package]?.first { name in
                        !iosApps[name]!.clip && androidApps[name] == nil && !existingNames.contains(name)
                            && (site.aasa?.serviceApps[.webcredentials] ?? []).contains { iosNames[$0] == name }
                                == sharesCredentials
                    }
                let name = shared ?? uniqueName(for: package)
                androidNames[package] = name
                androidApps[name] = (package, fingerprints)
                if shared == nil { order.append(name) }
            }
        }
        // A package repeated over many statements adds its keys each time: kept once each.
        for name in androidApps.keys { androidApps[name]!.fingerprints = androidApps[name]!.fingerprints.uniqued() }
    }

    /// Why an app ID cannot be imported, in words.
    static func appIDProblem(_ appID: String) -> String {
        guard let dot = appID.firstIndex(of: ".") else {
            return "it has no team ID prefix, so it matches no installed app"
        }
        let team = String(appID[..<dot])
        if appID.contains("$(") || team.contains("_") && team == team.uppercased() {
            return "it is a build-setting placeholder, not a real app ID"
        }
        if Identifiers.teamIDProblem(team) != nil {
            return "\(team) is not a 10-character team ID, so it matches no installed app"
        }
        let bundle = String(appID[appID.index(after: dot)...])
        return Identifiers.bundleIDProblem(bundle).map { "\($0.message) (\($0.hint))" } ?? "it is not TEAMID.bundle"
    }

    /// `TEAMID.bundle` → (team, bundle) when the prefix is a team ID.
    static func split(_ appID: String) -> (String, String)? {
        guard let dot = appID.firstIndex(of: "."), Identifiers.teamIDProblem(String(appID[..<dot])) == nil else {
            return nil
        }
        let bundle = String(appID[appID.index(after: dot)...])
        return Identifiers.bundleIDProblem(bundle) == nil ? (String(appID[..<dot]), bundle) : nil
    }

    /// A logical name from an identifier's last segments: `com.example.museo` → `museo`,
    /// `es.emergencias.app` → `emergencias` (a generic last word, or a platform's name, says nothing),
    /// `com.example.museo.Clip` → `museo-clip` (a variant keeps its product's name).
    mutating func uniqueName(for identifier: String) -> String {
        var segments = identifier.split(separator: ".").map { segment in
            String(segment.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }).trimmingDashes
        }.filter { !$0.isEmpty }
        let generic = ["app", "mobile", "client"] + Platform.allCases.map(\.rawValue)
        if segments.count > 2, generic.contains(segments.last!) {
            segments.removeLast()
        }
        let first =
            segments.count > 2 && ["clip", "appclip", "staging", "dev", "debug", "beta"].contains(segments.last!)
            ? 2 : 1
        for count in first...max(first, segments.count) {
            let candidate = segments.suffix(count).joined(separator: "-")
            let name =
                candidate.first?.isLetter == true || candidate.first?.isNumber == true ? candidate : "app-" + candidate
            if Identifiers.nameProblem(name, what: "app") == nil && !isTaken(name) { return name }
        }
        // Names are never given back, so the search for a free number goes on from the last one.
        while isTaken("app-\(nextNumberedName)") { nextNumberedName += 1 }
        return "app-\(nextNumberedName)"
    }

    /// Every name in `order` is one of these apps' keys; the existing environment's names are taken too.
    private func isTaken(_ name: String) -> Bool {
        iosApps[name] != nil || androidApps[name] != nil || existing?.apps.contains { $0.name.value == name } == true
    }

    /// An app the environment declares signs with the keys it lists there: a file listing other
    /// keys would change who may open links, so the import stops.
    mutating func refuseOtherKeys(_ fingerprints: [String], of app: AppDefinition, site: Importer.Site) {
        let declared = Set(app.android?.fingerprints.map(\.fingerprint.value) ?? [])
        let others = fingerprints.filter { text in
            guard case .success(let parsed) = Fingerprint.parse(text) else { return true }
            return !declared.contains(parsed)
        }
        guard !others.isEmpty else { return }
        diagnostics.report(
            .importConflict,
            "\(site.host)'s assetlinks.json lists \(others.joined(separator: ", ")) for \(app.name.value), which \(app.name.location.file) does not",
            at: .file(site.assetLinksFile ?? site.host.name),
            hint:
                "add the key under \(app.name.value)'s fingerprints in \(app.name.location.file) first, or import into a new environment"
        )
    }

    /// A host the environment serves already keeps its domain: importing it again would make
    /// two contracts for one host.
    mutating func refuseServedHosts(_ sites: [Importer.Site]) {
        for site in sites {
            guard let binding = existing?.hosts.first(where: { $0.host.value.name == site.host.name }) else { continue }
            diagnostics.report(
                .importConflict,
                "\(site.host) is already served by domain \(binding.domain.value) in environment \(environment)",
                at: binding.host.location,
                hint: "edit domains/\(binding.domain.value).yaml instead, or import into a new environment")
        }
    }

    /// What no configuration key carries is refused, each where it is written: the build would
    /// drop it without a trace.
    mutating func refuseUncarried(_ site: Importer.Site) {
        for key in site.aasa?.unknownKeys ?? [] {
            diagnostics.report(
                .importUncarried,
                "\(PrintableText.quoted(key.value)) is no service of an apple-app-site-association file, and the build writes only "
                    + AssociatedService.listed(AssociatedService.allCases, "and"),
                at: key.location, hint: "remove the key from the original (Apple ignores it), then import again")
        }
        for include in site.assetLinks?.includes ?? [] {
            diagnostics.report(
                .importUncarried,
                "the include of \(PrintableText.quoted(include.url)) cannot be carried: the build writes every statement itself",
                at: include.origin ?? .file(site.assetLinksFile ?? site.host.name),
                hint:
                    "import the included file's statements in its place (--assetlinks with that file), then remove the include"
            )
        }
    }
}

extension String {
    fileprivate var trimmingDashes: String {
        var text = Substring(self)
        while text.first == "-" { text.removeFirst() }
        while text.last == "-" { text.removeLast() }
        return String(text)
    }
}
