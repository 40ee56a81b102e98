/// What reading an `assetlinks.json` file gave.
public struct AssetLinksReadResult: Sendable {
    /// The statement list; `nil` when the file is not a JSON array at all.
    public var document: AssetLinksDocument?
    /// Problems found, each located in the JSON.
    public var diagnostics: [Diagnostic]
}

/// Reads a Digital Asset Links statement list as a site serves it
/// (https://developers.google.com/digital-asset-links/v1/statements): `android_app` and `web`
/// targets, `include` elements, and Android 15 `dynamic_app_link_components` under
/// `relation_extensions` (https://developer.android.com/training/app-links/configure-assetlinks).
///
/// Statements with problems are kept so they can still be evaluated; the diagnostics say what
/// Google's and Android's parsers make of them. Google's compatibility tests reject the whole
/// file for a malformed fingerprint (comptest2311–2314 expect MALFORMED_CONTENT), so those are
/// errors.
public struct AssetLinksReader: Sendable {
    /// The JSON parser, with its size and depth limits.
    public var parser: JSONParser

    /// A reader using `parser`.
    public init(parser: JSONParser = JSONParser()) { self.parser = parser }

    /// Reads `bytes`, the file fetched from (or stored at) `file`.
    public func read(_ bytes: [UInt8], file: String) -> AssetLinksReadResult {
        let (root, diagnostics) = parser.parse(bytes, file: file)
        guard let root else { return AssetLinksReadResult(document: nil, diagnostics: diagnostics) }
        var walker = AssetLinksWalker()
        let document = walker.document(root)
        return AssetLinksReadResult(document: document, diagnostics: diagnostics + walker.fields.diagnostics.items)
    }
}

private struct AssetLinksWalker {
    var fields = JSONFieldReader()
    /// Packages that already have dynamic rules, with where.
    var packagesWithDynamicRules: [String: SourceLocation] = [:]

    /// `delegate_permission/<detail>`, the detail in `[a-z0-9_.]+`
    /// (https://github.com/google/digitalassetlinks/blob/master/well-known/details.md).
    static let relationPrefix = "delegate_permission/"
    static let knownRelations = [AssetStatement.handleAllURLs, AssetStatement.getLoginCreds]

    mutating func document(_ root: JSONNode) -> AssetLinksDocument? {
        guard let elements = fields.array(root, "the statement list") else { return nil }
        var document = AssetLinksDocument(statements: [])
        for element in elements {
            guard let members = fields.object(element, "a statement") else { continue }
            if let include = members[AssetLinksKey.include] {
                fields.unknownKeys(
                    members, known: [AssetLinksKey.include], in: "an include statement", note: "Google ignores it")
                if let url = fields.string(include.value, include.key) {
                    document.includes.append(AssetInclude(url: url, origin: element.location))
                }
            } else if let statement = statement(members, at: element.location) {
                document.statements.append(statement)
            }
        }
        return document
    }

    mutating func statement(_ members: [JSONMember], at location: SourceLocation) -> AssetStatement? {
        fields.unknownKeys(members, known: AssetLinksKey.statement, in: "a statement", note: "Google ignores it")
        guard let relationMember = members[AssetLinksKey.relation], let targetMember = members[AssetLinksKey.target]
        else {
            fields.diagnostics.report(
                .missingKey, "a statement needs both \"relation\" and \"target\"", at: location,
                hint: "write {\"relation\": [...], \"target\": {...}}")
            return nil
        }
        let relations = relationArray(relationMember.value)
        guard let target = target(targetMember.value) else { return nil }
        var statement = AssetStatement(relations: relations, target: target, origin: location)
        if let extensions = members[AssetLinksKey.relationExtensions] {
            statement.dynamicComponents = dynamicRules(extensions.value, relations: relations, target: target)
        }
        return statement
    }

    mutating func relationArray(_ node: JSONNode) -> [String] {
        guard let items = fields.array(node, AssetLinksKey.relation.rawValue) else { return [] }
        return items.compactMap { item in
            guard let relation = fields.string(item, "a relation") else { return nil }
            if !Self.knownRelations.contains(relation) {
                let detail =
                    relation.hasPrefix(Self.relationPrefix) ? relation.dropFirst(Self.relationPrefix.count) : ""
                let wellFormed =
                    !detail.isEmpty
                    && detail.unicodeScalars.allSatisfy {
                        ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "."
                    }
                fields.diagnostics.report(
                    .unknownRelation,
                    wellFormed
                        ? "relation \(PrintableText.quoted(relation)) is not one Android or Chrome acts on"
                        : "relation \(PrintableText.quoted(relation)) is not of the form delegate_permission/<detail>",
                    at: item.location,
                    hint: "App Links use \(AssetStatement.handleAllURLs); "
                        + "shared credentials \(AssetStatement.getLoginCreds)"
                )
            }
            return relation
        }
    }

    mutating func target(_ node: JSONNode) -> AssetTarget? {
        guard let members = fields.object(node, AssetLinksKey.target.rawValue) else { return nil }
        guard let namespaceMember = members[AssetLinksKey.namespace],
            let namespace = fields.string(namespaceMember.value, namespaceMember.key)
        else {
            fields.diagnostics.report(
                .missingKey, "the target has no \"namespace\"", at: node.location,
                hint: "write \"namespace\": \"android_app\" or \"web\"")
            return nil
        }
        switch namespace {
        case "android_app":
            fields.unknownKeys(
                members, known: AssetLinksKey.androidAppTarget, in: "an android_app target",
                note: "Google ignores it")
            guard let packageMember = members[AssetLinksKey.packageName],
                let package = fields.string(packageMember.value, packageMember.key),
                let fingerprintsMember = members[AssetLinksKey.sha256CertFingerprints],
                let fingerprints = fields.array(fingerprintsMember.value, fingerprintsMember.key)
            else {
                fields.diagnostics.report(
                    .missingKey,
                    "an android_app target needs \"package_name\" and \"sha256_cert_fingerprints\"", at: node.location,
                    hint: "copy both from the Play Console's App signing page")
                return nil
            }
            if let problem = Identifiers.packageNameProblem(package) {
                fields.diagnostics.report(
                    problem.id, problem.message, at: packageMember.value.location, hint: problem.hint)
            }
            let written = fingerprints.compactMap { item -> String? in
                guard let text = fields.string(item, "a fingerprint") else { return nil }
                checkFingerprint(text, at: item.location)
                return text
            }
            return .androidApp(package: package, fingerprints: written)
        case "web":
            fields.unknownKeys(members, known: AssetLinksKey.webTarget, in: "a web target", note: "Google ignores it")
            guard let siteMember = members[AssetLinksKey.site],
                let site = fields.string(siteMember.value, siteMember.key)
            else {
                fields.diagnostics.report(
                    .missingKey, "a web target needs \"site\"", at: node.location,
                    hint: "write \"site\": \"https://example.com\"")
                return nil
            }
            if !Self.isSite(site) {
                fields.diagnostics.report(
                    .invalidSite,
                    "site \(PrintableText.quoted(site)) is not of the form http[s]://host[:port]",
                    at: siteMember.value.location, hint: "write the scheme and host only, e.g. https://example.com")
            }
            return .web(site: site)
        default:
            fields.diagnostics.report(
                .unknownNamespace,
                "namespace \(PrintableText.quoted(namespace)) is neither android_app nor web; the statement is skipped",
                at: namespaceMember.value.location, hint: "use android_app or web")
            return nil
        }
    }

    /// Google's parser accepts only 32 uppercase hex bytes joined by colons (comptest2311–2314).
    mutating func checkFingerprint(_ text: String, at location: SourceLocation) {
        switch Fingerprint.parse(text) {
        case .failure(let problem):
            fields.diagnostics.report(problem.id, problem.message, at: location, hint: problem.hint)
        case .success(let fingerprint) where fingerprint.value != text:
            fields.diagnostics.report(
                .invalidFingerprint,
                "fingerprint \(PrintableText.quoted(text)) is not uppercase colon-separated hex; "
                    + "Google's parser rejects it (comptest2312)",
                at: location, hint: "write \(PrintableText.quoted(fingerprint.value))")
        case .success(let fingerprint) where fingerprint.value == Fingerprint.publicReactNativeDebugKey:
            fields.diagnostics.report(
                .publicDebugKey,
                "this is the debug key React Native's app template ships publicly: anyone can sign an app with it",
                at: location, hint: "remove it from production files")
        case .success:
            break
        }
    }

    /// `http[s]://host[:port]`, an optional final `/` tolerated.
    static func isSite(_ site: String) -> Bool {
        guard let url = LinkURL(site), url.host != nil, url.query == nil, url.fragment == nil else { return false }
        return url.path.isEmpty || url.path == "/"
    }

    /// The `dynamic_app_link_components` of `handle_all_urls`, or `nil` when absent or discarded:
    /// "If any of the fields in the file are malformed or empty, Android discards the dynamic
    /// rules" (configure-assetlinks).
    mutating func dynamicRules(_ node: JSONNode, relations: [String], target: AssetTarget) -> [DynamicComponent]? {
        guard let extensions = fields.object(node, AssetLinksKey.relationExtensions.rawValue) else { return nil }
        var result: [DynamicComponent]?
        for member in extensions {
            guard let body = fields.object(member.value, "relation extension \(PrintableText.quoted(member.key))")
            else { continue }
            fields.unknownKeys(
                body, known: [AssetLinksKey.dynamicAppLinkComponents],
                in: "relation extension \(PrintableText.quoted(member.key))",
                note: "Android reads only dynamic_app_link_components")
            guard member.key == AssetStatement.handleAllURLs, let rules = body[AssetLinksKey.dynamicAppLinkComponents]
            else {
                continue
            }
            if !relations.contains(AssetStatement.handleAllURLs) {
                fields.diagnostics.report(
                    .unknownRelation,
                    "dynamic rules extend handle_all_urls, which this statement's relation does not list",
                    at: member.keyLocation, hint: "add \(AssetStatement.handleAllURLs) to \"relation\"")
            }
            result = dynamicComponents(rules.value)
            if case .androidApp(let package, _) = target {
                if let earlier = packagesWithDynamicRules[package] {
                    fields.diagnostics.report(
                        .duplicateDynamicRules,
                        "\(package) already has dynamic rules at line \(earlier.line); "
                            + "Android does not guarantee which it uses",
                        at: member.keyLocation, hint: "declare dynamic_app_link_components once per app")
                } else {
                    packagesWithDynamicRules[package] = member.keyLocation
                }
            }
        }
        return result
    }

    mutating func dynamicComponents(_ node: JSONNode) -> [DynamicComponent]? {
        var discarded = false
        func discard(_ walker: inout AssetLinksWalker, _ message: String, at location: SourceLocation) {
            discarded = true
            walker.fields.diagnostics.report(
                .dynamicRulesDiscarded,
                message + "; Android then discards all dynamic rules of this statement",
                at: location, hint: "fix the field; until then Android uses only the manifest's intent filters")
        }
        guard case .array(let items) = node.value else {
            discard(
                &self, "dynamic_app_link_components must be an array, found \(node.kindDescription)", at: node.location)
            return nil
        }
        var components: [DynamicComponent] = []
        for item in items {
            guard case .object(let members) = item.value else {
                discard(&self, "a dynamic rule must be an object, found \(item.kindDescription)", at: item.location)
                continue
            }
            fields.unknownKeys(
                members, known: ComponentKey.android, in: "a dynamic rule",
                note: "Android reads only /, ?, #, exclude and comments (no "
                    + ComponentFlag.allCases.map(\.rawValue).joined(separator: " or ") + ")")
            var component = DynamicComponent(origin: item.location)
            for member in members {
                // Apple's other keys (its flags, …) mean nothing here: reported as unknown above.
                let key = ComponentKey.android.first { $0.rawValue == member.key }
                switch (key, member.value.value) {
                case (.path?, .string(let pattern)) where !pattern.isEmpty: component.path = pattern
                case (.fragment?, .string(let pattern)) where !pattern.isEmpty: component.fragment = pattern
                case (.exclude?, .bool(let flag)): component.exclude = flag
                case (.comments?, .string(let text)): component.comments = text
                case (.query?, .string):
                    // AOSP StatementParser reads "?" with optJSONObject, so a string is dropped.
                    fields.diagnostics.report(
                        .dynamicQueryStringIgnored,
                        "Android dynamic rules take \"?\" as an object of items; this string is dropped",
                        at: member.value.location, hint: "write \"?\": {\"name\": \"pattern\"}")
                case (.query?, .object(let items)) where !items.isEmpty:
                    var query: [AASAQueryItem] = []
                    for queryItem in items {
                        guard case .string(let pattern) = queryItem.value.value else {
                            discard(
                                &self,
                                "query item \(PrintableText.quoted(queryItem.key)) must be a string, "
                                    + "found \(queryItem.value.kindDescription)",
                                at: queryItem.value.location)
                            continue
                        }
                        query.append(AASAQueryItem(name: queryItem.key, pattern: pattern))
                    }
                    component.query = query
                case (.some, _):
                    discard(
                        &self,
                        "\(PrintableText.quoted(member.key)) is empty or of the wrong type (\(member.value.kindDescription))",
                        at: member.value.location)
                case (nil, _):
                    break
                }
            }
            components.append(component)
        }
        return discarded ? nil : components
    }
}
