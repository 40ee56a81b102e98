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

    private mutating func app(_ pair: YAMLPair) -> AppDefinition? {
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

    private mutating func customScheme(_ pair: YAMLPair) -> CustomScheme? {
        report(Identifiers.schemeProblem(pair.key.value), at: pair.key.location)
        guard let map = reader.mapping(pair.value, ConfigSchema.customScheme),
            let purpose = map["purpose"].flatMap({ reader.choice($0, "scheme purpose", SchemePurpose.self) })
        else { return nil }
        let callback = map["callback"].flatMap { reader.string($0, "callback path") }
        if let callback, callback.value.unicodeScalars.first != "/" || LinkURL(callback.value) == nil {
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
    private mutating func schemeRoute(_ node: YAMLNode) -> Rule? {
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
    private mutating func schemeExpectation(_ node: YAMLNode, scheme: String) -> Expectation? {
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

    private mutating func iosApp(_ node: YAMLNode) -> IOSApp? {
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

    private mutating func androidApp(_ node: YAMLNode) -> AndroidApp? {
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
    private mutating func appFilePath(_ node: YAMLNode, _ what: String) -> Located<String>? {
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

    private mutating func hostBinding(_ pair: YAMLPair) -> HostBinding? {
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
    private mutating func teamID(_ node: YAMLNode) -> Located<String>? {
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

    // MARK: Domains

    mutating func domain(name: String, file: String, root: YAMLNode) -> Domain? {
        guard let map = reader.document(root, ConfigSchema.domain) else { return nil }
        let flags = map["defaults"].map { matchFlags($0) } ?? MatchFlags()
        var variables: [SubstitutionVariable] = []
        if let node = map["variables"], let entries = reader.entries(node, of: "variables") {
            for entry in entries {
                guard let values = reader.strings(entry.value, "variable value") else { continue }
                variables.append(SubstitutionVariable(name: entry.key, values: values))
            }
        }
        var applinks: [AppLinksEntry] = []
        if let node = map["applinks"], let items = reader.list(node, of: "applinks entries") {
            applinks = items.compactMap { applinksEntry($0) }
        }
        var serviceApps: [AssociatedService: [Located<String>]] = [:]
        for service in AssociatedService.appListServices {
            serviceApps[service] = map[service.rawValue].flatMap { reader.strings($0, "app name") } ?? []
        }
        var assetStatements: [DeclaredAssetStatement] = []
        if let node = map["asset_statements"], let items = reader.list(node, of: "asset statements") {
            assetStatements = items.compactMap { assetStatement($0) }
        }
        var emit = EmitOptions()
        if let node = map["emit"], let options = reader.mapping(node, ConfigSchema.emit) {
            emit.legacyPaths = options["legacy_paths"].flatMap { reader.bool($0, "legacy_paths") }?.value ?? false
            emit.androidDynamicRules =
                options["android_dynamic_rules"].flatMap { reader.bool($0, "android_dynamic_rules") }?.value ?? false
            emit.sizeBudget = options["size_budget"].flatMap { reader.integer($0, "size_budget", minimum: 1) }
        }
        var expectations: [Expectation] = []
        if let node = map["expectations"], let items = reader.list(node, of: "expectations") {
            expectations = items.compactMap { expectation($0) }
        }
        return Domain(
            name: name, file: file, flags: flags, variables: variables, applinks: applinks, serviceApps: serviceApps,
            assetStatements: assetStatements, emit: emit, expectations: expectations)
    }

    /// One `asset_statements` entry: relations, and the site or the app granted them.
    private mutating func assetStatement(_ node: YAMLNode) -> DeclaredAssetStatement? {
        guard let map = reader.mapping(node, ConfigSchema.assetStatement) else { return nil }
        let relations = map["relation"].flatMap { reader.strings($0, "relation") } ?? []
        for relation in relations where !Self.isRelation(relation.value) {
            diagnostics.report(
                .invalidValue, "\(PrintableText.quoted(relation.value)) is not a Digital Asset Links relation",
                at: relation.location,
                hint: "write delegate_permission/<detail>, e.g. \(AssetStatement.getLoginCreds)")
        }
        let site = map["site"].flatMap { reader.string($0, "site") }
        let app = map["app"].flatMap { reader.string($0, "app name") }
        switch (site, app) {
        case (let site?, nil):
            if !Self.isSiteOrigin(site.value) {
                diagnostics.report(
                    .invalidValue, "\(PrintableText.quoted(site.value)) is not a web site's origin", at: site.location,
                    hint: "write the scheme and host (and port) only, e.g. https://example.com")
            }
            return DeclaredAssetStatement(relations: relations, target: .site(site), location: node.location)
        case (nil, let app?):
            return DeclaredAssetStatement(relations: relations, target: .app(app), location: node.location)
        case (.some, .some):
            diagnostics.report(
                .conflictingKeys, "a statement grants its relations to a site or to an app, not both",
                at: map.keyLocation("app"), hint: "write one statement for the site and one for the app")
        case (nil, nil):
            diagnostics.report(
                .missingKey, "a statement needs site: or app:", at: node.location,
                hint: "name the web site (https://example.com) or the app granted the relations")
        }
        return nil
    }

    /// `delegate_permission/<detail>`, the detail in `[a-z0-9_.]+` (Digital Asset Links'
    /// details.md), as `ConfigSchema.relationPattern` says.
    static func isRelation(_ text: String) -> Bool {
        let prefix = "delegate_permission/"
        guard text.hasPrefix(prefix), text.count > prefix.count else { return false }
        return text.dropFirst(prefix.count).unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "."
        }
    }

    /// `https://host` or `http://host:port`: an origin, as a `web` target's `site` is written.
    static func isSiteOrigin(_ text: String) -> Bool {
        guard let rest = ["https://", "http://"].first(where: text.hasPrefix).map({ text.dropFirst($0.count) }),
            !rest.isEmpty
        else { return false }
        return !rest.contains { "/?#\\ ".contains($0) || $0.isWhitespace }
    }

    private mutating func matchFlags(_ node: YAMLNode) -> MatchFlags {
        guard let map = reader.mapping(node, ConfigSchema.flags) else { return MatchFlags() }
        return flags(in: map)
    }

    private mutating func flags(in map: NodeReader.Mapping) -> MatchFlags {
        var flags = MatchFlags()
        for flag in ComponentFlag.allCases {
            flags[flag] = map[flag.configurationKey].flatMap { reader.bool($0, flag.configurationKey) }
        }
        return flags
    }

    private mutating func applinksEntry(_ node: YAMLNode) -> AppLinksEntry? {
        guard let map = reader.mapping(node, ConfigSchema.applinksEntry) else { return nil }
        let apps = map["apps"].flatMap { reader.strings($0, "app name") } ?? []
        if let list = map["apps"], apps.isEmpty, case .sequence = list.content {
            diagnostics.report(
                .missingValue, "an applinks entry needs at least one app", at: list.location,
                hint: "name the apps these rules open")
        }
        let flags = map["defaults"].map { matchFlags($0) } ?? MatchFlags()
        let rules = map["rules"].flatMap { reader.list($0, of: "rules") }?.compactMap { rule($0) } ?? []
        let environments = map["environments"].flatMap { reader.strings($0, "environment name") }
        let androidSemantics = map["android_semantics"].flatMap { reader.bool($0, "android_semantics") }
        return AppLinksEntry(
            apps: apps, flags: flags, rules: rules, androidSemantics: androidSemantics, environments: environments,
            location: node.location)
    }

    private mutating func rule(_ node: YAMLNode) -> Rule? {
        guard let map = reader.mapping(node, ConfigSchema.rule) else { return nil }
        let path = map["path"].flatMap { reader.string($0, "path pattern") }
        let fragment = map["fragment"].flatMap { reader.string($0, "fragment pattern") }
        let query = map["query"].flatMap { queryPattern($0) }
        if map["path"] == nil && map["query"] == nil && map["fragment"] == nil {
            diagnostics.report(
                .emptyRule, "a rule needs a path, query or fragment", at: node.location,
                hint: "write path: \"*\" to match every URL")
        }
        let exclude = map["exclude"].flatMap { reader.bool($0, "exclude") }?.value ?? false
        let comment = map["comment"].flatMap { reader.string($0, "comment") }?.value
        let environments = map["environments"].flatMap { reader.strings($0, "environment name") }
        return Rule(
            path: path, query: query, fragment: fragment, exclude: exclude, comment: comment, flags: flags(in: map),
            environments: environments, location: node.location, route: route(in: map))
    }

    private mutating func route(in map: NodeReader.Mapping) -> Route? {
        guard let node = map["route"] else {
            for key in ["params", "reason"] where map[key] != nil {
                diagnostics.report(
                    .conflictingKeys, "\(key) without route", at: map.keyLocation(key),
                    hint: "add route: with the destination, or remove \(key):")
            }
            return nil
        }
        guard let name = reader.string(node, "route") else { return nil }
        let reason = map["reason"].flatMap { reader.string($0, "reason") }
        var parameters: [RouteParameter] = []
        if let params = map["params"], let entries = reader.entries(params, of: "route parameters") {
            parameters = entries.compactMap { routeParameter($0) }
        }
        if name.value == "none" {
            if map["params"] != nil {
                diagnostics.report(
                    .conflictingKeys, "route: none has no parameters", at: map.keyLocation("params"),
                    hint: "remove params:, or name the destination")
            }
            if reason == nil {
                diagnostics.report(
                    .missingKey, "route: none needs a reason", at: name.location,
                    hint: "add reason: saying why these URLs open the app without a destination")
            }
            // Kept after an error, so the rule is not also reported as having no route.
            return Route(target: Located(.none(reason: reason?.value ?? ""), at: name.location), parameters: [])
        }
        if !Self.isIdentifier(name.value) {
            diagnostics.report(
                .invalidValue, "\(PrintableText.quoted(name.value)) is not a route name", at: name.location,
                hint: "name the destination in lowerCamelCase (exhibition, resetPassword), or write none")
        }
        if let reason {
            diagnostics.report(
                .conflictingKeys, "reason is only for route: none", at: reason.location,
                hint: "remove reason:, or write it as the rule's comment:")
        }
        var seen: Set<String> = []
        for parameter in parameters where !seen.insert(parameter.name.value).inserted {
            diagnostics.report(
                .conflictingKeys, "route parameter \(parameter.name.value) is written twice",
                at: parameter.name.location,
                hint: "keep one of \(parameter.name.value) and \(parameter.name.value)?")
        }
        return Route(target: Located(.destination(name.value), at: name.location), parameters: parameters)
    }

    /// `slug: segment 2`, `source?: query source`, `id: segment 2 as int`.
    private mutating func routeParameter(_ pair: YAMLPair) -> RouteParameter? {
        let optional = pair.key.value.hasSuffix("?")
        let name = optional ? String(pair.key.value.dropLast()) : pair.key.value
        guard Self.isIdentifier(name) else {
            diagnostics.report(
                .invalidValue, "\(PrintableText.quoted(pair.key.value)) is not a parameter name", at: pair.key.location,
                hint: "write a lowerCamelCase name, with ? at the end when the value may be absent (source?)")
            return nil
        }
        guard let text = reader.string(pair.value, "parameter source") else { return nil }
        var words = text.value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var type = RouteParameter.ValueType.string
        if words.count == 4, words[2] == "as", let written = RouteParameter.ValueType(rawValue: words[3]) {
            type = written
            words.removeLast(2)
        }
        var source: RouteParameter.Source?
        // Digits only, no leading zero, as the schema's pattern says: `Int` alone takes `+2` and `02`.
        if words.count == 2, words[0] == "segment", words[1].first != "0",
            words[1].allSatisfy({ ("0"..."9").contains($0) }), let position = Int(words[1])
        {
            source = .pathSegment(position)
        } else if words.count == 2, words[0] == "query", !words[1].isEmpty {
            source = .queryItem(words[1])
        }
        guard let source else {
            diagnostics.report(
                .invalidValue, "\(PrintableText.quoted(text.value)) is not a parameter source", at: text.location,
                hint: "write segment N (counting from 1) or query NAME, optionally followed by as int")
            return nil
        }
        return RouteParameter(
            name: Located(name, at: pair.key.location), isOptional: optional, source: source, type: type)
    }

    /// A name the generated Swift and Kotlin can use as it is: ASCII, lowerCamelCase.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        }
    }

    private mutating func queryPattern(_ node: YAMLNode) -> Located<QueryPattern>? {
        if case .mapping = node.content {
            guard let entries = reader.entries(node, of: "query items") else { return nil }
            if entries.isEmpty {
                diagnostics.report(
                    .missingValue, "query dictionary is empty", at: node.location,
                    hint: "name at least one query item, or remove query:")
            }
            let items = entries.compactMap { entry in
                reader.string(entry.value, "query item pattern").map {
                    QueryItemPattern(name: entry.key.value, pattern: $0.value, location: entry.key.location)
                }
            }
            return Located(.items(items), at: node.location)
        }
        return reader.string(node, "query pattern").map { $0.map { .whole($0) } }
    }

    private mutating func expectation(_ node: YAMLNode) -> Expectation? {
        guard let map = reader.mapping(node, ConfigSchema.expectation) else { return nil }
        let url = map["url"].flatMap { reader.string($0, "URL") }
        var outcome: Expectation.Outcome?
        switch (map["opens_app"], map["opens_web"]) {
        case (let app?, nil):
            if case .scalar(let scalar) = app.content, case .bool(true) = scalar.resolved {
                outcome = .opensApp(nil)
            } else if let name = reader.string(app, "app name") {
                outcome = .opensApp(name)
            }
        case (nil, let web?):
            if let value = reader.bool(web, "opens_web") {
                if value.value {
                    outcome = .opensWeb
                } else {
                    diagnostics.report(
                        .invalidValue, "opens_web: false says nothing", at: value.location,
                        hint: "write opens_app: true (any app) or opens_app: <app>")
                }
            }
        case (nil, nil):
            diagnostics.report(
                .missingKey, "an expectation needs opens_app or opens_web", at: node.location,
                hint: "add opens_app: <app> or opens_web: true")
        case (.some, .some):
            diagnostics.report(
                .conflictingKeys, "an expectation has both opens_app and opens_web", at: map.keyLocation("opens_web"),
                hint: "keep the one that is true")
        }
        let platforms = platforms(in: map)
        let environments = map["environments"].flatMap { reader.strings($0, "environment name") }
        let comment = map["comment"].flatMap { reader.string($0, "comment") }?.value
        var route: Located<RouteValue>?
        if let node = map["route"] {
            if case .opensWeb = outcome {
                diagnostics.report(
                    .conflictingKeys, "a URL that stays on the web reaches no route", at: node.location,
                    hint: "remove route:, or expect opens_app:")
            } else {
                route = routeValue(node)
            }
        }
        guard let url, let outcome else { return nil }
        return Expectation(
            url: url, outcome: outcome, platforms: platforms, environments: environments, comment: comment,
            location: node.location, route: route)
    }

    /// An expectation's `platforms:`, every platform when absent.
    private mutating func platforms(in map: NodeReader.Mapping) -> [Platform] {
        guard let node = map["platforms"], let items = reader.list(node, of: "platforms") else {
            return Platform.allCases
        }
        return items.compactMap { reader.choice($0, "platform", Platform.self)?.value }
    }

    /// An expectation's `route:`, as `RouteValue.parse` reads it.
    private mutating func routeValue(_ node: YAMLNode) -> Located<RouteValue>? {
        guard let text = reader.string(node, "route") else { return nil }
        guard let value = RouteValue.parse(text.value) else {
            diagnostics.report(
                .invalidValue, "\(PrintableText.quoted(text.value)) is not a route", at: text.location,
                hint: "write the destination and its arguments, e.g. exhibition(slug: monet), ticket(id: nil), or none")
            return nil
        }
        return Located(value, at: text.location)
    }

    // MARK: Policies

    mutating func policy(file: String, root: YAMLNode?) -> PolicyFile? {
        var policy = PolicyFile(file: file)
        guard let root else { return policy }
        guard let map = reader.document(root, ConfigSchema.policy) else { return nil }
        if let node = map["rules"], let rules = reader.mapping(node, ConfigSchema.ruleSelection) {
            if let node = rules["use"], let names = reader.strings(node, "rule ID") {
                policy.usesAllRules = names.contains { $0.value == RuleID.allRulesWord }
                policy.use = names.filter { $0.value != RuleID.allRulesWord }.compactMap { ruleID($0) }
            }
            policy.except = rules["except"].flatMap { reader.strings($0, "rule ID") }?.compactMap { ruleID($0) } ?? []
            if let severities = rules["severity"], let entries = reader.entries(severities, of: "rule severities") {
                for entry in entries {
                    guard let rule = ruleID(entry.key),
                        let severity = reader.choice(entry.value, "severity", Severity.self)
                    else { continue }
                    policy.severities.append((rule, severity))
                }
            }
        }
        for item in map["forbidden_paths"].flatMap({ reader.list($0, of: "forbidden paths") }).map(Array.init) ?? [] {
            guard let entry = reader.mapping(item, ConfigSchema.forbiddenPath),
                let path = entry["path"].flatMap({ reader.string($0, "path") }),
                let reason = entry["reason"].flatMap({ reader.string($0, "reason") })
            else { continue }
            if path.value.unicodeScalars.first != "/" || LinkURL(path.value) == nil {
                diagnostics.report(
                    .invalidValue,
                    "forbidden path \(PrintableText.quoted(path.value)) is not a path such as /oauth/callback",
                    at: path.location, hint: "write the path alone, starting with /")
            }
            policy.forbiddenPaths.append(ForbiddenPath(path: path, reason: reason.value))
        }
        policy.requiredChannels = map["required_fingerprint_channels"].flatMap { reader.strings($0, "channel") } ?? []
        // A channel no environment could declare (`Play-Signing`) would block every production app.
        policy.requiredChannels = policy.requiredChannels.filter { checkName($0, what: "fingerprint channel") }
        if let node = map["proof_budget"], let budget = reader.mapping(node, ConfigSchema.proofBudget) {
            policy.proofRegionSteps = budget["region_steps"].flatMap {
                reader.integer($0, "region_steps", minimum: ProofLimits.minimumSteps)
            }
            policy.proofTotalSteps = budget["total_steps"].flatMap {
                reader.integer($0, "total_steps", minimum: ProofLimits.minimumSteps)
            }
        }
        for item in map["ignore"].flatMap({ reader.list($0, of: "ignores") }).map(Array.init) ?? [] {
            guard let entry = reader.mapping(item, ConfigSchema.ignore),
                let rule = entry["rule"].flatMap({ reader.string($0, "rule ID") }).flatMap({ ruleID($0) }),
                let reason = entry["reason"].flatMap({ reader.string($0, "reason") })
            else { continue }
            policy.ignores.append(
                PolicyIgnore(
                    rule: rule, environment: entry["environment"].flatMap { reader.string($0, "environment") },
                    host: entry["host"].flatMap { reader.string($0, "host") }, reason: reason.value,
                    location: item.location))
        }
        for item in map["approvals"].flatMap({ reader.list($0, of: "approvals") }).map(Array.init) ?? [] {
            guard let entry = reader.mapping(item, ConfigSchema.approval),
                let fingerprint = entry["finding"].flatMap({ reader.string($0, "finding fingerprint") }),
                let reason = entry["reason"].flatMap({ reader.string($0, "reason") })
            else { continue }
            let rule = String(fingerprint.value.prefix { $0 != "/" })
            if !fingerprint.value.contains("/") || RuleID(rawValue: rule) == nil {
                diagnostics.report(
                    .invalidValue, "\(PrintableText.quoted(fingerprint.value)) is not a finding fingerprint",
                    at: fingerprint.location,
                    hint: "copy the fingerprint `linkwright check` prints, e.g. PRODUCTION_APP_REMOVED/5e1c9a0b7d3f2a41"
                )
            }
            if reason.value.allSatisfy(\.isWhitespace) {
                diagnostics.report(
                    .missingValue, "approval of \(PrintableText.quoted(fingerprint.value)) has an empty reason",
                    at: reason.location, hint: "write why the change is deliberate and who approved it")
            }
            policy.approvals.append(PolicyApproval(fingerprint: fingerprint, reason: reason.value))
        }
        for item in map["adopted"].flatMap({ reader.list($0, of: "adoptions") }).map(Array.init) ?? [] {
            guard let entry = reader.mapping(item, ConfigSchema.adoption),
                let environment = entry["environment"].flatMap({ reader.string($0, "environment") }),
                let host = entry["host"].flatMap({ reader.string($0, "host") }),
                let build = entry["build"].flatMap({ reader.string($0, "build digest") })
            else { continue }
            if build.value.count != 64 || !build.value.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) {
                diagnostics.report(
                    .invalidValue, "\(PrintableText.quoted(build.value)) is not a SHA-256 digest", at: build.location,
                    hint: "leave the adoptions linkwright import writes as it wrote them")
            }
            policy.adoptions.append(
                PolicyAdoption(
                    environment: environment, host: host, build: build,
                    from: entry["from"].flatMap { reader.string($0, "from") }?.value))
        }
        return policy
    }

    /// The rule a policy file names, or nil, reported, when no rule has that ID.
    private mutating func ruleID(_ id: Located<String>) -> Located<RuleID>? {
        if let rule = RuleID(rawValue: id.value) { return Located(rule, at: id.location) }
        let known = RuleID.allCases.map(\.rawValue)
        diagnostics.report(
            .unknownRule, "\(PrintableText.quoted(id.value)) is not a policy rule", at: id.location,
            hint: Spelling.closest(to: id.value, among: known).map { "did you mean \(PrintableText.quoted($0))?" }
                ?? "`linkwright rules` lists the rule IDs")
        return nil
    }

    // MARK: Helpers

    private mutating func checkName(_ name: Located<String>, what: String) -> Bool {
        guard let problem = Identifiers.nameProblem(name.value, what: what) else { return true }
        report(problem, at: name.location)
        return false
    }

    mutating func report(_ problem: IdentifierProblem?, at location: SourceLocation) {
        guard let problem else { return }
        diagnostics.report(problem.id, problem.message, at: location, hint: problem.hint)
    }
}
