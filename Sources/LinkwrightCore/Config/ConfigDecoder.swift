/// Turns parsed YAML into model values, checking every value's type and format and reporting
/// every problem with its location.
struct ConfigDecoder {
    var reader = NodeReader()

    var diagnostics: DiagnosticBag {
        get { reader.diagnostics }
        set { reader.diagnostics = newValue }
    }

    // MARK: Environments

    mutating func environment(name: String, file: String, root: YAMLNode) -> Environment? {
        guard let map = reader.document(root, ConfigSchema.environment) else { return nil }
        let tier = map["tier"].flatMap { reader.choice($0, "tier", Tier.self) }
        let team = map["team_id"].flatMap { teamID($0) }
        let mode = map["entitlements_mode"].flatMap { reader.choice($0, "entitlements mode", EntitlementMode.self) }
        var apps: [AppDefinition] = []
        if let node = map["apps"], let entries = reader.entries(node, of: "apps") {
            apps = entries.compactMap { app($0) }
        }
        var hosts: [HostBinding] = []
        if let node = map["hosts"], let entries = reader.entries(node, of: "hosts") {
            hosts = entries.compactMap { hostBinding($0) }
        }
        guard let tier else { return nil }
        return Environment(name: name, file: file, tier: tier, teamID: team, mode: mode, apps: apps, hosts: hosts)
    }

    mutating func app(_ pair: YAMLPair) -> AppDefinition? {
        let nameOK = checkName(pair.key, what: "app")
        guard let map = reader.mapping(pair.value, ConfigSchema.app) else { return nil }
        let ios = map[Platform.ios.rawValue].flatMap { iosApp($0) }
        let android = map[Platform.android.rawValue].flatMap { androidApp($0) }
        if map[Platform.ios.rawValue] == nil && map[Platform.android.rawValue] == nil {
            diagnostics.report(
                .missingKey, "app \(PrintableText.quoted(pair.key.value)) has neither ios nor android",
                at: pair.key.location,
                hint: "add an ios: or android: block, or remove the app")
        }
        var schemes: [CustomScheme] = []
        if let node = map["schemes"], let entries = reader.entries(node, of: "schemes") {
            schemes = entries.compactMap { customScheme($0) }
        }
        return nameOK ? AppDefinition(name: pair.key, ios: ios, android: android, schemes: schemes) : nil
    }

    mutating func customScheme(_ pair: YAMLPair) -> CustomScheme? {
        report(Identifiers.schemeProblem(pair.key.value), at: pair.key.location)
        guard let map = reader.mapping(pair.value, ConfigSchema.customScheme),
            let purpose = map["purpose"].flatMap({ reader.choice($0, "scheme purpose", SchemePurpose.self) })
        else { return nil }
        let callback = map["callback"].flatMap { reader.string($0, "callback path") }
        if let callback, callback.value.unicodeScalars.first != "/" || !LinkURL.parses(callback.value) {
            diagnostics.report(
                .invalidValue, "callback \(PrintableText.quoted(callback.value)) is not a path such as /oauth/callback",
                at: callback.location, hint: "write the redirect URI's path alone, starting with /")
        }
        switch (purpose.value, callback) {
        case (.oauthCallback, nil):
            diagnostics.report(
                .missingKey, "an oauth-callback scheme needs the key \"callback\"", at: pair.value.location,
                hint: "add callback: with the redirect URI's path, e.g. /oauth/callback")
        case (.deepLinks, let callback?), (.appCallback, let callback?):
            diagnostics.report(
                .conflictingKeys, "callback is only for oauth-callback schemes, not \(purpose.value.rawValue)",
                at: callback.location, hint: "remove callback:, or set purpose: oauth-callback")
        default:
            break
        }
        let routes = map["routes"].flatMap { reader.list($0, of: "scheme routes") }?.compactMap { schemeRoute($0) }
        let expectations = map["expectations"].flatMap { reader.list($0, of: "expectations") }?.compactMap {
            schemeExpectation($0, scheme: pair.key.value)
        }
        var routesFrom = map["routes_from"].flatMap { reader.string($0, "environment name") }
        if let both = routesFrom, map["routes"] != nil {
            diagnostics.report(
                .conflictingKeys, "a scheme takes routes or routes_from, not both", at: both.location,
                hint: "keep routes: to write this environment's own, or routes_from: to take another's")
            // Reported once: the other environment is not looked up for a scheme that errs already.
            routesFrom = nil
        }
        return CustomScheme(
            name: pair.key, purpose: purpose, callbackPath: callback, routes: routes ?? [], routesFrom: routesFrom,
            expectations: expectations ?? [])
    }

    /// A scheme's `routes:` entry: a rule of path and query items, read by the generated routers
    /// alone (no device reads it), so without flags, fragment or variables.
    mutating func schemeRoute(_ node: YAMLNode) -> Rule? {
        guard let map = reader.mapping(node, ConfigSchema.schemeRoute) else { return nil }
        let path = map["path"].flatMap { reader.string($0, "path pattern") }
        let query = map["query"].flatMap { queryPattern($0) }
        if let query, case .whole = query.value {
            diagnostics.report(
                .invalidValue, "a scheme route's query names items", at: query.location,
                hint: "write query as items, e.g. query: {code: \"?*\"}")
        }
        var patterns = path.map { [$0] } ?? []
        if case .items(let items)? = query?.value {
            patterns += items.map { Located($0.pattern, at: $0.location) }
        }
        for pattern in patterns where pattern.value.contains("$(") {
            diagnostics.report(
                .invalidValue, "\(PrintableText.quoted(pattern.value)) uses a substitution variable",
                at: pattern.location, hint: "a scheme has no variables: write the values as separate entries")
        }
        let exclude = map["exclude"].flatMap { reader.bool($0, "exclude") }?.value ?? false
        let route = route(in: map)
        if route == nil && !exclude {
            diagnostics.report(
                .missingKey, "a scheme route needs route:", at: node.location,
                hint:
                    "name the destination with route: (and params:), write route: none with a reason:, or exclude: true"
            )
        }
        return Rule(
            path: path, query: query, fragment: nil, exclude: exclude,
            comment: map["comment"].flatMap { reader.string($0, "comment") }?.value, flags: MatchFlags(),
            environments: nil, location: node.location, route: route)
    }

    /// A scheme's `expectations:` entry: a URL of `scheme` and the route it reaches.
    mutating func schemeExpectation(_ node: YAMLNode, scheme: String) -> Expectation? {
        guard let map = reader.mapping(node, ConfigSchema.schemeExpectation) else { return nil }
        let url = map["url"].flatMap { reader.string($0, "URL") }
        if let url {
            if let parsed = LinkURL.customScheme(url.value) {
                if parsed.scheme?.lowercased() != scheme {
                    diagnostics.report(
                        .invalidURL, "\(PrintableText.quoted(url.value)) is not a URL of the scheme \(scheme)",
                        at: url.location, hint: "write \(scheme):/path, or move the expectation under its scheme")
                }
            } else {
                diagnostics.report(
                    .invalidURL, "\(PrintableText.quoted(url.value)) is not a URL of a custom scheme",
                    at: url.location, hint: "write \(scheme):/path?query, percent-encoding spaces")
            }
        }
        let app = map["opens_app"].flatMap { reader.string($0, "app name") }
        let route = map["route"].flatMap { routeValue($0) }
        guard let url, let route else { return nil }
        return Expectation(
            url: url, outcome: .opensApp(app), platforms: platforms(in: map), environments: nil,
            comment: map["comment"].flatMap { reader.string($0, "comment") }?.value, location: node.location,
            route: route)
    }

    mutating func iosApp(_ node: YAMLNode) -> IOSApp? {
        guard let map = reader.mapping(node, ConfigSchema.iosApp) else { return nil }
        let bundle = map["bundle_id"].flatMap { reader.string($0, "bundle ID") }
        if let bundle { report(Identifiers.bundleIDProblem(bundle.value), at: bundle.location) }
        let team = map["team_id"].flatMap { teamID($0) }
        let clip = map["app_clip"].flatMap { reader.bool($0, "app_clip") }?.value ?? false
        let entitlements = map["entitlements"].flatMap { appFilePath($0, "entitlements file") }
        let infoPlist = map["info_plist"].flatMap { appFilePath($0, "Info.plist file") }
        guard let bundle else { return nil }
        return IOSApp(
            bundleID: bundle, teamID: team, isAppClip: clip, location: node.location, entitlementsFile: entitlements,
            infoPlistFile: infoPlist)
    }

    mutating func androidApp(_ node: YAMLNode) -> AndroidApp? {
        guard let map = reader.mapping(node, ConfigSchema.androidApp) else { return nil }
        let package = map["package"].flatMap { reader.string($0, "package name") }
        if let package { report(Identifiers.packageNameProblem(package.value), at: package.location) }
        var keys: [SigningKey] = []
        if let fingerprints = map["fingerprints"], let entries = reader.entries(fingerprints, of: "fingerprints") {
            if entries.isEmpty {
                diagnostics.report(
                    .missingValue, "an Android app needs at least one signing fingerprint", at: fingerprints.location,
                    hint: "add play-signing: with the SHA-256 of the Play App Signing key")
            }
            for entry in entries {
                guard checkName(entry.key, what: "fingerprint channel"),
                    let text = reader.string(entry.value, "fingerprint")
                else { continue }
                switch Fingerprint.parse(text.value) {
                case .success(let fingerprint):
                    if fingerprint.value != text.value {
                        diagnostics.report(
                            .fingerprintNormalised,
                            "fingerprint written as \(PrintableText.quoted(text.value)) is emitted as \(fingerprint.value)",
                            at: text.location,
                            hint: "write it in the canonical form: \(PrintableText.quoted(fingerprint.value))")
                    }
                    keys.append(SigningKey(channel: entry.key, fingerprint: Located(fingerprint, at: text.location)))
                case .failure(let problem):
                    report(problem, at: text.location)
                }
            }
        }
        let manifestFile = map["manifest"].flatMap { appFilePath($0, "manifest file") }
        let activity = map["activity"].flatMap { reader.string($0, "activity name") }
        if let activity, !Self.isActivityName(activity.value) {
            diagnostics.report(
                .invalidValue, "\(PrintableText.quoted(activity.value)) is not an activity name", at: activity.location,
                hint:
                    "write the activity as the manifest's android:name does, e.g. .MainActivity or com.example.app.MainActivity"
            )
        }
        for (key, other) in [("manifest", "activity"), ("activity", "manifest")]
        where map[key] != nil && map[other] == nil {
            diagnostics.report(
                .missingKey, "\(key) needs \(other)", at: map.keyLocation(key),
                hint: key == "manifest"
                    ? "add activity: with the activity that opens the links, e.g. .MainActivity"
                    : "add manifest: with the flavor's AndroidManifest.xml, or remove activity:")
        }
        guard let package else { return nil }
        var app = AndroidApp(package: package, fingerprints: keys, location: node.location)
        if let manifestFile, let activity { app.manifest = AppManifest(file: manifestFile, activity: activity) }
        return app
    }

    /// A path to one of the app's own files (`ConfigSchema.appFilePath`): relative to the
    /// configuration folder, `/`-separated, without empty or `.` components. `..` may lead out
    /// of the configuration folder (an app beside it in the repository); `sync` refuses a path
    /// that leaves the repository.
    mutating func appFilePath(_ node: YAMLNode, _ what: String) -> Located<String>? {
        guard let path = reader.string(node, what) else { return nil }
        if let problem = Self.appFilePathProblem(path.value) {
            diagnostics.report(
                .invalidValue, "\(what) \(PrintableText.quoted(path.value)) \(problem)", at: path.location,
                hint: "write the path from the configuration folder with /, e.g. App/Production.entitlements")
            return nil
        }
        return path
    }

    /// Why `path` is not a relative path of plain components, or nil.
    static func appFilePathProblem(_ path: String) -> String? {
        if path.hasPrefix("/") { return "is absolute" }
        if path.contains("\\") || path.contains("\0") { return "holds a backslash or a NUL" }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains(where: { $0.isEmpty || $0 == "." }) { return "has an empty or . component" }
        if components.last == ".." { return "names a folder, not a file" }
        return nil
    }

    /// `.MainActivity` or `com.example.MainActivity`: Java identifiers joined by dots
    /// (`ConfigSchema.activityPattern`).
    static func isActivityName(_ text: String) -> Bool {
        let name = text.hasPrefix(".") ? text.dropFirst() : Substring(text)
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { segment in
            guard let first = segment.first, first.isASCII, first.isLetter || first == "_" || first == "$" else {
                return false
            }
            return segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$") }
        }
    }

    mutating func hostBinding(_ pair: YAMLPair) -> HostBinding? {
        let host: Host?
        switch Host.parse(pair.key.value) {
        case .success(let parsed): host = parsed
        case .failure(let problem):
            report(problem, at: pair.key.location)
            host = nil
        }
        guard let domain = reader.string(pair.value, "domain name"), let host else { return nil }
        return HostBinding(host: Located(host, at: pair.key.location), domain: domain)
    }

    /// The team ID in Apple's uppercase form (one written in lowercase is normalised with a
    /// warning, as fingerprints are); an invalid one is reported and kept, so the configuration
    /// is unusable but no second "missing team ID" follows.
    mutating func teamID(_ node: YAMLNode) -> Located<String>? {
        guard let team = reader.string(node, "team ID") else { return nil }
        if let normalised = Identifiers.normalisedTeamID(team.value), normalised != team.value {
            diagnostics.report(
                .teamIDNormalised,
                "team ID written as \(PrintableText.quoted(team.value)) is emitted as \(normalised)",
                at: team.location, hint: "write it as Apple issues it: \(normalised)")
            return Located(normalised, at: team.location)
        }
        report(Identifiers.teamIDProblem(team.value), at: team.location)
        return team
    }

    // MARK: Helpers

    mutating func checkName(_ name: Located<String>, what: String) -> Bool {
        guard let problem = Identifiers.nameProblem(name.value, what: what) else { return true }
        report(problem, at: name.location)
        return false
    }

    mutating func report(_ problem: IdentifierProblem?, at location: SourceLocation) {
        guard let problem else { return }
        diagnostics.report(problem.id, problem.message, at: location, hint: problem.hint)
    }
}
