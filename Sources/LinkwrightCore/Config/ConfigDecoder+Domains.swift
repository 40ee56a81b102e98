/// Decoding a domain file: its rules, routes, flags and expectations.
extension ConfigDecoder {
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
    mutating func assetStatement(_ node: YAMLNode) -> DeclaredAssetStatement? {
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

    mutating func matchFlags(_ node: YAMLNode) -> MatchFlags {
        guard let map = reader.mapping(node, ConfigSchema.flags) else { return MatchFlags() }
        return flags(in: map)
    }

    mutating func flags(in map: NodeReader.Mapping) -> MatchFlags {
        var flags = MatchFlags()
        for flag in ComponentFlag.allCases {
            flags[flag] = map[flag.configurationKey].flatMap { reader.bool($0, flag.configurationKey) }
        }
        return flags
    }

    mutating func applinksEntry(_ node: YAMLNode) -> AppLinksEntry? {
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

    mutating func rule(_ node: YAMLNode) -> Rule? {
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

    mutating func route(in map: NodeReader.Mapping) -> Route? {
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
    mutating func routeParameter(_ pair: YAMLPair) -> RouteParameter? {
        guard let (name, optional) = Self.parameterName(pair.key.value) else {
            diagnostics.report(
                .invalidValue, "\(PrintableText.quoted(pair.key.value)) is not a parameter name", at: pair.key.location,
                hint: "write a lowerCamelCase name, with ? at the end when the value may be absent (source?)")
            return nil
        }
        guard let text = reader.string(pair.value, "parameter source") else { return nil }
        guard let (source, type) = Self.parameterSource(text.value) else {
            diagnostics.report(
                .invalidValue, "\(PrintableText.quoted(text.value)) is not a parameter source", at: text.location,
                hint: "write segment N (counting from 1) or query NAME, optionally followed by as int")
            return nil
        }
        return RouteParameter(
            name: Located(name, at: pair.key.location), isOptional: optional, source: source, type: type)
    }

    /// A route parameter's key (`slug`, `source?`): its name and whether it may be absent, or
    /// nil when it is no parameter name.
    static func parameterName(_ key: String) -> (name: String, isOptional: Bool)? {
        let optional = key.hasSuffix("?")
        let name = optional ? String(key.dropLast()) : key
        return isIdentifier(name) ? (name, optional) : nil
    }

    /// Where a route parameter is read and as what (`segment 2`, `query source`, `segment 2 as
    /// int`), or nil when the text says neither.
    static func parameterSource(_ text: String) -> (RouteParameter.Source, RouteParameter.ValueType)? {
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var type = RouteParameter.ValueType.string
        if words.count == 4, words[2] == "as", let written = RouteParameter.ValueType(rawValue: words[3]) {
            type = written
            words.removeLast(2)
        }
        // Digits only, no leading zero, as the schema's pattern says: `Int` alone takes `+2` and `02`.
        if words.count == 2, words[0] == "segment", words[1].first != "0",
            words[1].allSatisfy({ ("0"..."9").contains($0) }), let position = Int(words[1])
        {
            return (.pathSegment(position), type)
        } else if words.count == 2, words[0] == "query", !words[1].isEmpty {
            return (.queryItem(words[1]), type)
        }
        return nil
    }

    /// A name the generated Swift and Kotlin can use as it is: ASCII, lowerCamelCase.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        }
    }

    mutating func queryPattern(_ node: YAMLNode) -> Located<QueryPattern>? {
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

    mutating func expectation(_ node: YAMLNode) -> Expectation? {
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
    mutating func platforms(in map: NodeReader.Mapping) -> [Platform] {
        guard let node = map["platforms"], let items = reader.list(node, of: "platforms") else {
            return Platform.allCases
        }
        return items.compactMap { reader.choice($0, "platform", Platform.self)?.value }
    }

    /// An expectation's `route:`, as `RouteValue.parse` reads it.
    mutating func routeValue(_ node: YAMLNode) -> Located<RouteValue>? {
        guard let text = reader.string(node, "route") else { return nil }
        guard let value = RouteValue.parse(text.value) else {
            diagnostics.report(
                .invalidValue, "\(PrintableText.quoted(text.value)) is not a route", at: text.location,
                hint: "write the destination and its arguments, e.g. exhibition(slug: monet), ticket(id: nil), or none")
            return nil
        }
        return Located(value, at: text.location)
    }
}
