/// What reading an `apple-app-site-association` file gave.
public struct AASAReadResult: Sendable {
    /// The file as a value; `nil` when it is not a JSON object at all.
    public var document: AASADocument?
    /// Problems found, each located in the JSON (in the signed payload for a signed file).
    public var diagnostics: [Diagnostic]
    /// Whether the file was a PKCS#7 signed envelope, whose signature was not verified.
    public var wasSigned: Bool
}

/// Reads an `apple-app-site-association` file as a site serves it, in any of the forms Apple has
/// accepted (https://developer.apple.com/documentation/bundleresources/applinks):
/// - modern `appIDs` + `components` (iOS 13+), with `defaults` and `substitutionVariables`;
/// - legacy `appID` + `paths` with `NOT ` exclusions (iOS 9–12);
/// - the oldest form, `details` as an object keyed by app ID (WWDC15; swcutil still reads it:
///   blazingly-aasa swcutil-corpus.txt, legacy/details-as-dictionary);
/// - a PKCS#7 signed file (iOS 8), whose JSON is read without verifying the signature;
/// - `webcredentials`, `appclips` and `activitycontinuation` app lists.
///
/// It never rejects what Apple would read: unknown keys are warnings (swcutil ignores them:
/// swcutil-gap-probes.tsv, unknown-key group), and a value of the wrong type is an error that
/// leaves the key out, as if absent.
public struct AASAReader: Sendable {
    /// The JSON parser, with its size and depth limits.
    public var parser: JSONParser
    /// Apple's documented limit: "the uncompressed size of the apple-app-site-association file
    /// must be no greater than 128 KB, regardless of whether the file is signed" (App Search
    /// Programming Guide, iOS 9.3.1+).
    public static let appleSizeLimit = 128 * 1024

    /// A reader using `parser`.
    public init(parser: JSONParser = JSONParser()) { self.parser = parser }

    /// Reads `bytes`, the file fetched from (or stored at) `file`.
    public func read(_ bytes: [UInt8], file: String) -> AASAReadResult {
        var diagnostics: [Diagnostic] = []
        if bytes.count > Self.appleSizeLimit {
            diagnostics.append(
                Diagnostic(
                    .aasaTooLarge, .warning,
                    "file is \(bytes.count) bytes; Apple ignores association files over 128 KB", at: .file(file),
                    hint: "merge rules with wildcards or substitution variables"))
        }
        var json = bytes
        let wasSigned = SignedDataEnvelope.looksSigned(bytes)
        if wasSigned {
            switch SignedDataEnvelope.content(of: bytes) {
            case .success(let content):
                json = content
                diagnostics.append(
                    Diagnostic(
                        .signedAASA,
                        "file is PKCS#7 signed; its JSON was read but the signature was not verified "
                            + "(locations below are in the signed JSON)", at: .file(file),
                        hint: "iOS 9 and later read unsigned JSON served over HTTPS; serve the JSON itself"))
            case .failure(let error):
                diagnostics.append(
                    Diagnostic(
                        .invalidSignedFile,
                        "file starts like a PKCS#7 signed file but cannot be read: \(error.reason)", at: .file(file),
                        hint: "serve the association file as plain JSON"))
                return AASAReadResult(document: nil, diagnostics: diagnostics, wasSigned: true)
            }
        }
        let (root, parseDiagnostics) = parser.parse(json, file: file)
        diagnostics += parseDiagnostics
        guard let root else { return AASAReadResult(document: nil, diagnostics: diagnostics, wasSigned: wasSigned) }
        var walker = AASAWalker()
        let document = walker.document(root)
        return AASAReadResult(
            document: document, diagnostics: diagnostics + walker.fields.diagnostics.items, wasSigned: wasSigned)
    }
}

/// Turns the JSON tree into an `AASADocument`, reporting as it goes.
private struct AASAWalker {
    var fields = JSONFieldReader()

    mutating func document(_ root: JSONNode) -> AASADocument? {
        guard let members = fields.object(root, "the file") else { return nil }
        fields.unknownKeys(
            members, known: AssociatedService.allCases, in: "the file", note: "Apple reads only its service keys")
        var document = AASADocument()
        document.unknownKeys = members.filter { member in AssociatedService(rawValue: member.key) == nil }
            .map { Located($0.key, at: $0.keyLocation) }
        if let applinks = members[AssociatedService.applinks] { document.applinks = appLinks(applinks.value) }
        for service in AssociatedService.appListServices {
            document.serviceApps[service] = members[service].flatMap { apps($0.value, service: service) }
        }
        return document
    }

    mutating func appLinks(_ node: JSONNode) -> AppLinksSection? {
        guard let members = fields.object(node, AssociatedService.applinks.rawValue) else { return nil }
        fields.unknownKeys(
            members, known: AASAKey.inAppLinks, in: AssociatedService.applinks.rawValue, note: "Apple ignores it")
        var section = AppLinksSection(details: [])
        section.legacyApps = members[AASAKey.apps].flatMap { fields.strings($0.value, "applinks.apps") }
        section.defaults = members[AASAKey.defaults].flatMap { component($0.value, "applinks.defaults") }
        section.substitutionVariables = members[AASAKey.substitutionVariables].map { variables($0.value) } ?? []
        guard let details = members[AASAKey.details] else {
            fields.diagnostics.report(
                .missingKey, as: .warning, "applinks has no details, so no link opens an app",
                at: node.location,
                hint: "add \"details\": [{\"appIDs\": [...], \"components\": [...]}]")
            return section
        }
        switch details.value.value {
        case .array(let entries):
            section.details = entries.compactMap { self.details($0, appID: nil) }
        case .object(let entries):
            // The oldest form, keyed by app ID. Key order does not matter: every entry names a
            // different app, and each app only ever reads its own entries.
            section.details = entries.compactMap { entry in
                checkAppID(entry.key, at: entry.keyLocation)
                return self.details(entry.value, appID: entry.key)
            }
        default:
            fields.wrongType(details.value, expected: "an array", what: "applinks.details")
        }
        return section
    }

    /// One `details` entry; `appID` is the key of the dictionary form.
    mutating func details(_ node: JSONNode, appID keyedAppID: String?) -> AASADetails? {
        guard let members = fields.object(node, "a details entry") else { return nil }
        fields.unknownKeys(members, known: AASAKey.inDetails, in: "a details entry", note: "Apple ignores it")
        var entry = AASADetails(origin: node.location)
        if let appID = members[AASAKey.appID], let text = fields.string(appID.value, appID.key) {
            entry.appID = text
            checkAppID(text, at: appID.value.location)
        }
        entry.appID = entry.appID ?? keyedAppID
        if let appIDs = members[AASAKey.appIDs], let items = fields.array(appIDs.value, appIDs.key) {
            entry.appIDs = items.compactMap { item in
                let text = fields.string(item, "an element of appIDs")
                if let text { checkAppID(text, at: item.location) }
                return text
            }
        }
        entry.components = members[AASAKey.components].flatMap { components in
            fields.array(components.value, components.key)?.compactMap { component($0, "a component") }
        }
        entry.paths = members[AASAKey.paths].flatMap { fields.strings($0.value, $0.key) }
        entry.defaults = members[AASAKey.defaults].flatMap { component($0.value, "details.defaults") }
        if let appID = members[AASAKey.appID], members[AASAKey.appIDs] != nil {
            fields.diagnostics.report(
                .appIDAndAppIDs,
                "the entry has both appID and appIDs; Apple uses appIDs (even when empty) and ignores appID",
                at: appID.keyLocation, hint: "keep appIDs only")
        }
        if members[AASAKey.appID] == nil, members[AASAKey.appIDs] == nil, keyedAppID == nil {
            fields.diagnostics.report(
                .missingKey, as: .warning, "the entry names no app, so it applies to none", at: node.location,
                hint: "add \"appIDs\": [\"TEAMID.bundle.id\"]")
        }
        checkMixing(members, entry: node)
        return entry
    }

    /// TN3155: "Don't mix and match these formats or universal links won't work"
    /// (https://developer.apple.com/documentation/technotes/tn3155-debugging-universal-links).
    mutating func checkMixing(_ members: [JSONMember], entry: JSONNode) {
        if let paths = members[AASAKey.paths], members[AASAKey.components] != nil {
            fields.diagnostics.report(
                .mixedLegacyModern,
                "the entry has both paths and components; iOS 13 and later ignore paths when components is present",
                at: paths.keyLocation,
                hint: "keep components, and list legacy paths in their own entry if iOS 12 matters")
        } else if let paths = members[AASAKey.paths], members[AASAKey.appIDs] != nil {
            fields.diagnostics.report(
                .mixedLegacyModern, "legacy paths are paired with modern appIDs",
                at: paths.keyLocation,
                hint: "pair appIDs with components, or appID with paths (TN3155)")
        } else if let components = members[AASAKey.components], members[AASAKey.appID] != nil,
            members[AASAKey.appIDs] == nil
        {
            fields.diagnostics.report(
                .mixedLegacyModern, "modern components are paired with legacy appID",
                at: components.keyLocation, hint: "write \"appIDs\": [...] instead of \"appID\" (TN3155)")
        }
    }

    /// A component, or a `defaults` dictionary, which "can contain any of its properties"
    /// (https://developer.apple.com/documentation/bundleresources/applinks/defaults-swift.dictionary).
    mutating func component(_ node: JSONNode, _ what: String) -> AASAComponent? {
        guard let members = fields.object(node, what) else { return nil }
        fields.unknownKeys(members, known: ComponentKey.apple, in: what, note: "Apple ignores it (swcutil)")
        var component = AASAComponent(origin: node.location)
        component.path = members[ComponentKey.path].flatMap { fields.string($0.value, "\"\($0.key)\"") }
        component.fragment = members[ComponentKey.fragment].flatMap { fields.string($0.value, "\"\($0.key)\"") }
        component.exclude = members[ComponentKey.exclude].flatMap { fields.bool($0.value, $0.key) }
        for flag in ComponentFlag.allCases {
            component.flags[flag] = members[flag.key].flatMap { fields.bool($0.value, $0.key) }
        }
        // "Text that the system ignores": a wrong type there changes nothing.
        component.comment = members[ComponentKey.comment].flatMap {
            fields.string($0.value, $0.key, severity: .warning)
        }
        component.query = members[ComponentKey.query].flatMap { query($0.value) }
        return component
    }

    mutating func query(_ node: JSONNode) -> AASAQuery? {
        switch node.value {
        case .string(let pattern):
            return .whole(pattern)
        case .object(let members):
            if let nonString = members.first(where: { if case .string = $0.value.value { false } else { true } }) {
                // swcutil-probes.tsv, query-nonstring and nonstr groups: the whole `?` is ignored.
                fields.diagnostics.report(
                    .queryDictionaryIgnored,
                    "query item \(PrintableText.quoted(nonString.key)) is \(nonString.value.kindDescription), not a string, so Apple "
                        + "ignores the whole query dictionary and every query matches", at: nonString.value.location,
                    hint: "write the pattern as a string, e.g. \"?*\"")
                return .ignoredDictionary
            }
            return .items(
                members.compactMap { member in
                    guard case .string(let pattern) = member.value.value else { return nil }
                    if pattern == "*" {
                        fields.diagnostics.report(
                            .queryStarMatchesAbsent,
                            "\"*\" also matches URLs without a \(PrintableText.quoted(member.key)) item (absent items read as empty)",
                            at: member.value.location, hint: "write \"?*\" to require the item")
                    }
                    return AASAQueryItem(name: member.key, pattern: pattern)
                })
        default:
            fields.wrongType(node, expected: "a string or an object of strings", what: "\"?\"")
            return nil
        }
    }

    /// `substitutionVariables`: name → values. Names "can contain any character except `$`, `(`,
    /// and `)`"; values "can contain the ? and * wildcard characters, but not other substitution
    /// variables" (Apple's substitutionVariables page).
    mutating func variables(_ node: JSONNode) -> [AASAVariable] {
        guard let members = fields.object(node, "substitutionVariables") else { return [] }
        return members.compactMap { member in
            if member.key.contains(where: { "$()".contains($0) }) {
                fields.diagnostics.report(
                    .invalidVariableName, as: .warning,
                    "variable name \(PrintableText.quoted(member.key)) contains $, ( or ), which Apple does not allow",
                    at: member.keyLocation,
                    hint: "rename the variable")
            }
            if PatternSyntax.predefinedVariables.contains(member.key) {
                fields.diagnostics.report(
                    .variableShadowsPredefined, as: .warning,
                    "variable \(PrintableText.quoted(member.key)) has the name of Apple's predefined $(\(member.key)); this reader lets "
                        + "the file's definition win, Apple documents neither", at: member.keyLocation,
                    hint: "rename it")
            }
            guard let values = fields.strings(member.value, "variable \(PrintableText.quoted(member.key))") else {
                return nil
            }
            for value in values where value.contains("$(") {
                fields.diagnostics.report(
                    .variableInVariable, as: .warning,
                    "a value of \(PrintableText.quoted(member.key)) contains $(, which is literal text here: values cannot use variables",
                    at: member.value.location, hint: "write the values out")
            }
            return AASAVariable(name: member.key, values: values)
        }
    }

    /// `{"apps": [...]}` of `webcredentials`, `appclips` and `activitycontinuation`.
    mutating func apps(_ node: JSONNode, service key: AssociatedService) -> [String]? {
        let service = key.rawValue
        guard let members = fields.object(node, service) else { return nil }
        fields.unknownKeys(members, known: [AASAKey.apps], in: service, note: "Apple reads only \"apps\" here")
        guard let apps = members[AASAKey.apps] else {
            fields.diagnostics.report(
                .missingKey, "\(service) has no \"apps\" list", at: node.location,
                hint: "write \(PrintableText.quoted(service)): {\"apps\": [\"TEAMID.bundle.id\"]}")
            return nil
        }
        guard let items = fields.array(apps.value, "\(service).apps") else { return nil }
        return items.compactMap { item in
            let text = fields.string(item, "an element of \(service).apps")
            if let text { checkAppID(text, at: item.location) }
            return text
        }
    }

    /// App IDs are `<Application Identifier Prefix>.<Bundle Identifier>` (Apple's Details page).
    mutating func checkAppID(_ appID: String, at location: SourceLocation) {
        guard let problem = Self.appIDProblem(appID) else { return }
        fields.diagnostics.report(
            .invalidAppID, problem.message, at: location, hint: problem.hint)
    }

    static func appIDProblem(_ appID: String) -> (message: String, hint: String)? {
        if appID.contains("$(") || appID.contains("${") {
            return (
                "app ID \(PrintableText.quoted(appID)) holds an Xcode build-setting placeholder, which no server expands",
                "write the resolved ID, e.g. ABCDE12345.com.example.app"
            )
        }
        guard let dot = appID.firstIndex(of: ".") else {
            return (
                "app ID \(PrintableText.quoted(appID)) has no team prefix, so it matches no app",
                "write TEAMID.bundle.id"
            )
        }
        let team = String(appID[..<dot])
        if let problem = Identifiers.teamIDProblem(team) {
            return (
                "app ID \(PrintableText.quoted(appID)) does not start with a 10-character team ID, so it matches no app",
                problem.hint
            )
        }
        if let problem = Identifiers.bundleIDProblem(String(appID[appID.index(after: dot)...])) {
            return ("app ID \(PrintableText.quoted(appID)): \(problem.message)", problem.hint)
        }
        return nil
    }
}
