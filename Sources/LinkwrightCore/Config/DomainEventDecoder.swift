/// Builds a domain straight from libyaml's events, without a `YAMLDocument`, for a file that
/// needs no diagnostic: its rules and expectations, most of a large configuration's bytes, are
/// read as libyaml reports them. Anything this reader does not take as it is (an error of any
/// kind, a key it does not read, an anchor, a tag, a second document, a limit reached) declines
/// the whole file, which `ConfigDecoder` then reads from the node tree with every diagnostic,
/// so a broken file reads exactly as before, and a file taken here gives the model the node
/// tree would have. Keys are the schema's (`ConfigSchema`): a key is read here only when the
/// schema declares it, and a required one missing declines the file.
///
/// What declines (read from the node tree): `asset_statements`, which is rare and has checks of
/// its own, and everything the node tree would report.
struct DomainEventDecoder {
    /// The file is not one the events alone decide.
    struct Declined: Error {}

    private let file: String
    private let events: YAMLEventStream
    private let maximumDepth: Int

    /// The domain of `bytes`, or nil when the node tree must read it.
    static func domain(name: String, file: String, bytes: [UInt8], parser: YAMLParser) -> Domain? {
        guard bytes.count <= parser.maximumBytes, YAMLParser.firstInvalidUTF8(bytes) == nil else { return nil }
        return try? YAMLEventStream.reading(bytes) { events in
            try DomainEventDecoder(file: file, events: events, maximumDepth: parser.maximumDepth).domain(name: name)
        }
    }

    // MARK: Events

    /// The next event, declining what only the node tree reports: aliases, anchors, tags and
    /// nesting past the parser's limit.
    private func next() throws -> (YAMLParser.Event, SourceLocation) {
        let (event, mark) = try events.next()
        switch event {
        case .alias:
            throw Declined()
        case .mappingStart(let anchored), .sequenceStart(let anchored):
            if anchored || events.depth > maximumDepth { throw Declined() }
        case .scalar(_, _, let tag, let anchored):
            if anchored || tag != nil { throw Declined() }
        case .documentStart, .mappingEnd, .sequenceEnd, .streamEnd:
            break
        }
        return (event, SourceLocation(file: file, line: mark.0, column: mark.1))
    }

    /// The start of a mapping, where it is.
    private func mappingStart() throws -> SourceLocation {
        let (event, location) = try next()
        guard case .mappingStart = event else { throw Declined() }
        return location
    }

    /// The known keys of the mapping just started, each handed to `value` to read its value;
    /// declines a key the schema does not declare or this reader does not read, a repeated
    /// key and a required key missing.
    private func pairs<Key>(_ keys: SchemaKeys<Key>, _ value: (SchemaKeys<Key>.Entry) throws -> Void) throws {
        var seen: UInt64 = 0
        while true {
            let (event, _) = try next()
            switch event {
            case .mappingEnd:
                guard seen & keys.required == keys.required else { throw Declined() }
                return
            case .scalar(let key, _, _, _):
                guard let number = keys.number(of: key), seen & (1 << number) == 0 else { throw Declined() }
                seen |= 1 << number
                try value(keys.entries[number])
            default:
                throw Declined()
            }
        }
    }

    /// The pairs of a mapping with user-chosen keys, just started; declines a repeated key.
    private func entries<Value>(_ value: () throws -> Value) throws -> [(key: Located<String>, value: Value)] {
        var entries: [(key: Located<String>, value: Value)] = []
        // A hostile file can hold a mapping of many thousand keys: a set, not a scan per key.
        var keys = Set<String>()
        while true {
            let (event, location) = try next()
            switch event {
            case .mappingEnd:
                return entries
            case .scalar(let bytes, _, _, _):
                let key = String(decoding: bytes, as: UTF8.self)
                // Canonically equal keys decline too (`String`'s equality and hash are
                // canonical): the node tree decides what they are.
                guard keys.insert(key).inserted else { throw Declined() }
                entries.append((Located(key, at: location), try value()))
            default:
                throw Declined()
            }
        }
    }

    /// The items of a list, each read by `item` from its first event.
    private func list<Item>(_ item: (YAMLParser.Event, SourceLocation) throws -> Item) throws -> [Item] {
        let (start, _) = try next()
        guard case .sequenceStart = start else { throw Declined() }
        var items: [Item] = []
        while true {
            let (event, location) = try next()
            if case .sequenceEnd = event { return items }
            items.append(try item(event, location))
        }
    }

    /// A scalar's text and what the core schema makes of a plain one (`nil` for any other style).
    private func scalar(_ event: YAMLParser.Event) throws -> (text: String, plain: YAMLScalar.Resolved?) {
        guard case .scalar(let bytes, let style, _, _) = event else { throw Declined() }
        let text = String(decoding: bytes, as: UTF8.self)
        return (text, style == .plain ? YAMLScalar.resolvePlain(text) : nil)
    }

    /// A string, as `NodeReader.string` takes it: quoted, block, or plain that is no other type.
    private func string(_ event: YAMLParser.Event, _ location: SourceLocation) throws -> Located<String> {
        let (text, plain) = try scalar(event)
        guard plain == nil || plain == .string else { throw Declined() }
        return Located(text, at: location)
    }

    private func string() throws -> Located<String> {
        let (event, location) = try next()
        return try string(event, location)
    }

    private func strings() throws -> [Located<String>] { try list(string) }

    /// `true` or `false`, plain.
    private func bool() throws -> Located<Bool> {
        let (event, location) = try next()
        guard case .bool(let value) = try scalar(event).plain else { throw Declined() }
        return Located(value, at: location)
    }

    // MARK: The domain

    private func domain(name: String) throws -> Domain {
        guard case .documentStart = try next().0 else { throw Declined() }
        _ = try mappingStart()
        var flags = MatchFlags()
        var variables: [SubstitutionVariable] = []
        var applinks: [AppLinksEntry] = []
        var serviceApps: [AssociatedService: [Located<String>]] = [:]
        for service in AssociatedService.appListServices { serviceApps[service] = [] }
        var expectations: [Expectation] = []
        var emit = EmitOptions()
        try pairs(Self.domainKeys) { entry in
            switch entry {
            case .key(.defaults): flags = try matchFlags()
            case .key(.variables):
                _ = try mappingStart()
                variables = try entries(strings).map { SubstitutionVariable(name: $0.key, values: $0.value) }
            case .key(.applinks): applinks = try list(applinksEntry)
            case .key(.expectations): expectations = try list(expectation)
            case .key(.emit): emit = try emitOptions()
            case .service(let service): serviceApps[service] = try strings()
            case .flag, .declined: throw Declined()
            }
        }
        guard case .streamEnd = try next().0 else { throw Declined() }
        return Domain(
            name: name, file: file, flags: flags, variables: variables, applinks: applinks, serviceApps: serviceApps,
            assetStatements: [], emit: emit, expectations: expectations)
    }

    private func emitOptions() throws -> EmitOptions {
        _ = try mappingStart()
        var emit = EmitOptions()
        try pairs(Self.emitKeys) { entry in
            switch entry {
            case .key(.legacyPaths): emit.legacyPaths = try bool().value
            case .key(.androidDynamicRules): emit.androidDynamicRules = try bool().value
            case .key(.sizeBudget):
                let (event, location) = try next()
                guard case .integer(let budget) = try scalar(event).plain, budget >= 1 else { throw Declined() }
                emit.sizeBudget = Located(budget, at: location)
            case .flag, .service, .declined: throw Declined()
            }
        }
        return emit
    }

    private func matchFlags() throws -> MatchFlags {
        _ = try mappingStart()
        var flags = MatchFlags()
        try pairs(Self.flagKeys) { entry in
            guard case .flag(let flag) = entry else { throw Declined() }
            flags[flag] = try bool()
        }
        return flags
    }

    private func applinksEntry(_ start: YAMLParser.Event, _ location: SourceLocation) throws -> AppLinksEntry {
        guard case .mappingStart = start else { throw Declined() }
        var apps: [Located<String>] = []
        var flags = MatchFlags()
        var rules: [Rule] = []
        var androidSemantics: Located<Bool>?
        var environments: [Located<String>]?
        try pairs(Self.applinksEntryKeys) { entry in
            switch entry {
            case .key(.apps):
                apps = try strings()
                if apps.isEmpty { throw Declined() }
            case .key(.defaults): flags = try matchFlags()
            case .key(.rules): rules = try list(rule)
            case .key(.androidSemantics): androidSemantics = try bool()
            case .key(.environments): environments = try strings()
            case .flag, .service, .declined: throw Declined()
            }
        }
        return AppLinksEntry(
            apps: apps, flags: flags, rules: rules, androidSemantics: androidSemantics, environments: environments,
            location: location)
    }

    private func rule(_ start: YAMLParser.Event, _ location: SourceLocation) throws -> Rule {
        guard case .mappingStart = start else { throw Declined() }
        var path: Located<String>?
        var query: Located<QueryPattern>?
        var fragment: Located<String>?
        var exclude = false
        var comment: String?
        var flags = MatchFlags()
        var environments: [Located<String>]?
        var routeName: Located<String>?
        var reason: Located<String>?
        var parameters: [(key: Located<String>, value: Located<String>)]?
        try pairs(Self.ruleKeys) { entry in
            switch entry {
            case .key(.path): path = try string()
            case .key(.query): query = try queryPattern()
            case .key(.fragment): fragment = try string()
            case .key(.exclude): exclude = try bool().value
            case .key(.comment): comment = try string().value
            case .key(.environments): environments = try strings()
            case .key(.route): routeName = try string()
            case .key(.reason): reason = try string()
            case .key(.params):
                _ = try mappingStart()
                parameters = try entries(string)
            case .flag(let flag): flags[flag] = try bool()
            case .service, .declined: throw Declined()
            }
        }
        guard path != nil || query != nil || fragment != nil else { throw Declined() }
        return Rule(
            path: path, query: query, fragment: fragment, exclude: exclude, comment: comment, flags: flags,
            environments: environments, location: location,
            route: try route(routeName, reason: reason, parameters: parameters))
    }

    /// A rule's route, as `ConfigDecoder.route(in:)` reads it when it has nothing to report.
    private func route(
        _ name: Located<String>?, reason: Located<String>?,
        parameters written: [(key: Located<String>, value: Located<String>)]?
    ) throws -> Route? {
        guard let name else {
            if written != nil || reason != nil { throw Declined() }
            return nil
        }
        if name.value == "none" {
            guard written == nil, let reason else { throw Declined() }
            return Route(target: Located(.none(reason: reason.value), at: name.location), parameters: [])
        }
        guard ConfigDecoder.isIdentifier(name.value), reason == nil else { throw Declined() }
        var parameters: [RouteParameter] = []
        var seen: Set<String> = []
        for (key, text) in written ?? [] {
            guard let (parameter, isOptional) = ConfigDecoder.parameterName(key.value),
                let (source, type) = ConfigDecoder.parameterSource(text.value), seen.insert(parameter).inserted
            else { throw Declined() }
            parameters.append(
                RouteParameter(
                    name: Located(parameter, at: key.location), isOptional: isOptional, source: source, type: type))
        }
        return Route(target: Located(.destination(name.value), at: name.location), parameters: parameters)
    }

    /// A whole-query pattern, or a non-empty mapping of query items.
    private func queryPattern() throws -> Located<QueryPattern> {
        let (event, location) = try next()
        guard case .mappingStart = event else { return try string(event, location).map { .whole($0) } }
        let items = try entries(string).map {
            QueryItemPattern(name: $0.key.value, pattern: $0.value.value, location: $0.key.location)
        }
        if items.isEmpty { throw Declined() }
        return Located(.items(items), at: location)
    }

    private func expectation(_ start: YAMLParser.Event, _ location: SourceLocation) throws -> Expectation {
        guard case .mappingStart = start else { throw Declined() }
        var url: Located<String>?
        var outcome: Expectation.Outcome?
        var platforms = Platform.allCases
        var environments: [Located<String>]?
        var comment: String?
        var route: Located<String>?
        try pairs(Self.expectationKeys) { entry in
            switch entry {
            case .key(.url): url = try string()
            case .key(.opensApp), .key(.opensWeb):
                // Exactly one of the two.
                if outcome != nil { throw Declined() }
                let (event, location) = try next()
                // `true`, as nearly every expectation writes it, is told from its bytes without
                // making a string of them; the core schema reads it so too.
                let (text, plain) = Self.isPlainTrue(event) ? ("true", .bool(true)) : try scalar(event)
                switch (entry, plain) {
                case (.key(.opensApp), .bool(true)?): outcome = .opensApp(nil)
                case (.key(.opensApp), .string?), (.key(.opensApp), nil):
                    outcome = .opensApp(Located(text, at: location))
                case (.key(.opensWeb), .bool(true)?): outcome = .opensWeb
                default: throw Declined()
                }
            case .key(.platforms): platforms = try self.platforms()
            case .key(.environments): environments = try strings()
            case .key(.comment): comment = try string().value
            case .key(.route): route = try string()
            case .flag, .service, .declined: throw Declined()
            }
        }
        guard let url, let outcome else { throw Declined() }
        // A route only where an app opens, and one `RouteValue` reads.
        let value = try route.map { text in
            guard case .opensApp = outcome, let value = RouteValue.parse(text.value) else { throw Declined() }
            return Located(value, at: text.location)
        }
        return Expectation(
            url: url, outcome: outcome, platforms: platforms, environments: environments, comment: comment,
            location: location, route: value)
    }

    /// A plain `true`.
    private static func isPlainTrue(_ event: YAMLParser.Event) -> Bool {
        guard case .scalar(let bytes, .plain, _, _) = event else { return false }
        return spells(trueBytes, bytes)
    }

    private static let trueBytes = Array("true".utf8)

    /// An expectation's platforms. A list of one, as most expectations write, is an array
    /// shared by all that write it, not one allocated for each (COW copies it when a second
    /// platform is appended).
    private func platforms() throws -> [Platform] {
        let (start, _) = try next()
        guard case .sequenceStart = start else { throw Declined() }
        var platforms: [Platform] = []
        while true {
            let (event, location) = try next()
            if case .sequenceEnd = event { return platforms }
            let platform = try self.platform(event, location)
            if platforms.isEmpty {
                platforms = Self.listsOfOne[Platform.allCases.firstIndex(of: platform)!]
            } else {
                platforms.append(platform)
            }
        }
    }

    /// A platform's name, told from its bytes when they spell one (a string in any style: no
    /// platform's name reads as another type); else read as a string, as `NodeReader` does.
    private func platform(_ event: YAMLParser.Event, _ location: SourceLocation) throws -> Platform {
        if case .scalar(let bytes, _, _, _) = event,
            let platform = Self.platformNames.first(where: { Self.spells($0.name, bytes) })?.platform
        {
            return platform
        }
        guard let platform = Platform(rawValue: try string(event, location).value) else { throw Declined() }
        return platform
    }

    /// Each platform alone in a list, in the order of `Platform.allCases`.
    private static let listsOfOne = Platform.allCases.map { [$0] }

    private static let platformNames = Platform.allCases.map { (name: Array($0.rawValue.utf8), platform: $0) }

    /// Whether `bytes` are `name`'s, byte for byte.
    fileprivate static func spells(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // By index: `elementsEqual` between an array and a buffer cost ~150 instructions a name.
        name.count == bytes.count
            && name.withUnsafeBufferPointer { name in name.indices.allSatisfy { name[$0] == bytes[$0] } }
    }

    // MARK: Keys

    /// The keys this reader reads, by their names in the schema.
    enum DomainKey: String, CaseIterable { case defaults, variables, applinks, expectations, emit }
    enum EmitKey: String, CaseIterable {
        case legacyPaths = "legacy_paths"
        case androidDynamicRules = "android_dynamic_rules"
        case sizeBudget = "size_budget"
    }
    enum ApplinksEntryKey: String, CaseIterable {
        case apps, defaults, rules, environments
        case androidSemantics = "android_semantics"
    }
    enum RuleKey: String, CaseIterable {
        case path, query, fragment, exclude, comment, environments, route, params, reason
    }
    enum ExpectationKey: String, CaseIterable {
        case url, platforms, environments, comment, route
        case opensApp = "opens_app"
        case opensWeb = "opens_web"
    }
    enum NoKey: String, CaseIterable { case none }

    static let domainKeys = SchemaKeys<DomainKey>(ConfigSchema.domain)
    static let flagKeys = SchemaKeys<NoKey>(ConfigSchema.flags)
    static let emitKeys = SchemaKeys<EmitKey>(ConfigSchema.emit)
    static let applinksEntryKeys = SchemaKeys<ApplinksEntryKey>(ConfigSchema.applinksEntry)
    static let ruleKeys = SchemaKeys<RuleKey>(ConfigSchema.rule)
    static let expectationKeys = SchemaKeys<ExpectationKey>(ConfigSchema.expectation)
}

/// A schema object's keys, numbered as the schema declares them, each with what an event reader
/// does with it: one of its own keys (`Key`), a matching flag, a service's app list, or declining.
struct SchemaKeys<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    enum Entry: Sendable {
        case key(Key)
        case flag(ComponentFlag)
        case service(AssociatedService)
        case declined
    }

    let names: [[UInt8]]
    let entries: [Entry]
    /// A bit per required key.
    let required: UInt64

    init(_ object: SchemaObject) {
        precondition(object.fields.count <= 64, "a mapping's keys are counted in 64 bits")
        names = object.fields.map { Array($0.name.utf8) }
        entries = object.fields.map { field in
            if let key = Key(rawValue: field.name) { return .key(key) }
            if let flag = ComponentFlag.allCases.first(where: { $0.configurationKey == field.name }) {
                return .flag(flag)
            }
            if let service = AssociatedService.appListServices.first(where: { $0.rawValue == field.name }) {
                return .service(service)
            }
            return .declined
        }
        var required: UInt64 = 0
        for (number, field) in object.fields.enumerated() where field.required { required |= 1 << number }
        self.required = required
    }

    /// The number of the key spelt `bytes`, byte for byte.
    func number(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        names.firstIndex { DomainEventDecoder.spells($0, bytes) }
    }
}
