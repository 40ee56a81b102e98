/// An `apple-app-site-association` file compiled once for matching any number of URLs.
///
/// Semantics, each from the source named:
/// - `details` entries are tried in array order, and only those whose effective app IDs hold the
///   app (`appIDs` when present, even empty, else `appID`: st-tech/universal-links-test,
///   swcutil-backed "should ignore appID if appIDs provided"). The first entry that decides
///   (match or exclude) decides; an entry that decides nothing passes on to the next
///   (st-tech "should handle multiple details"; Apple's App Search guide on ordering).
/// - Within an entry the first matching component wins, and a match on an `exclude` component
///   stops with `exclude` (Apple's Components page; swcutil order/* captures).
/// - An entry with `components` ignores its `paths`: "iOS 13, tvOS 13 and macOS 10.15 will ignore
///   it if the components key is present" (WWDC19 session 717).
/// - Legacy `paths` compare the path only; `NOT ` excludes; the first match stops (App Search
///   Programming Guide, "Support Universal Links").
/// - Every component key may come from `applinks.defaults` or the entry's `defaults`, the most
///   specific winning (Apple's Defaults page; swcutil-gap-probes.tsv shows `/`, `?` and
///   `exclude` inherited too). A part given nowhere is `*`.
/// - Hosts are the caller's concern: the file does not name its own domain.
public struct CompiledAASA: Sendable {
    /// Every app ID the `applinks` entries name, in file order, each once.
    public private(set) var appIDs: [String]
    /// Patterns that do not compile (they never match), located at their component.
    public let diagnostics: [Diagnostic]
    private(set) var entries: [Entry]
    /// The file's substitution variables, which compiled patterns already hold; kept so two
    /// rules' patterns can be compared with what their variables mean.
    let variables: [String: [String]]
    /// What the rules were compiled from (`rulesKey`): files with equal keys decide alike for
    /// the apps their entries name, so what is made from their rules can be shared.
    let compiledFrom: HashedKey<AppLinksSection>?
    /// Per entry, what each rule tests (`Rule.texts`), kept for the next revision's edit to
    /// compare; apart from `entries`, which every decision reads.
    private let ruleTexts: [[AppleRuleTexts]]

    struct Entry: Sendable {
        var appIDs: Set<String>
        var rules: [Rule]
        var index: LazyRuleIndex
        let decided = DecidedURLs()

        init(appIDs: Set<String>, rules: [Rule], index: LazyRuleIndex? = nil) {
            self.appIDs = appIDs
            self.rules = rules
            self.index = index ?? LazyRuleIndex(rules.map(\.constraints))
        }

        /// Whether the entry holds `appID`: compared with each of the few IDs an entry names,
        /// which costs less than hashing it for every URL decided.
        func holds(_ appID: String) -> Bool {
            appIDs.count > 8 ? appIDs.contains(appID) : appIDs.contains { $0 == appID }
        }

        /// The rule deciding `values`' URL, one by one or through the index, each URL tried
        /// before the index is built decided once (`DecidedURLs`).
        func firstMatch(_ values: inout ComparedValues, entryIndex: Int, trace: inout [RuleTrace]?) -> Rule? {
            // Through a built index nothing is kept: asked here, a key is not copied out of `values`.
            guard trace == nil, !index.isBuilt else {
                return index.firstMatch(among: rules, &values, entryIndex: entryIndex, trace: &trace)
            }
            return decided.position(of: values.url, index: index) {
                index.firstMatch(among: rules, &values, entryIndex: entryIndex, trace: &trace)?.index
            }.map { rules[$0] }
        }
    }

    /// A component or legacy path with everything it inherits resolved. A class: matching
    /// walks thousands of rules per second, and sharing them costs no copies.
    final class Rule: DecidingRule, Sendable {
        let kind: RuleTrace.Kind
        let index: Int
        let origin: SourceLocation?
        let exclude: Bool
        let flags: EffectiveFlags
        /// How the query and fragment are read (`flags` applied).
        let options: PatternOptions
        let path: CompiledPattern
        let query: Query
        /// `nil` for legacy paths, which ignore the fragment.
        let fragment: CompiledPattern?

        init(
            kind: RuleTrace.Kind, index: Int, origin: SourceLocation?, exclude: Bool, flags: EffectiveFlags,
            path: CompiledPattern, query: Query, fragment: CompiledPattern?
        ) {
            self.kind = kind
            self.index = index
            self.origin = origin
            self.exclude = exclude
            self.flags = flags
            options = flags.applied(to: PatternOptions(semantics: .apple))
            self.path = path
            self.query = query
            self.fragment = fragment
        }

        /// A rule at `index`, written at `origin`, testing URLs as `earlier` does (equal
        /// `texts` in a file with the same variables): its compiled patterns are shared.
        init(index: Int, origin: SourceLocation?, testingAs earlier: Rule) {
            (kind, exclude, flags, options) = (earlier.kind, earlier.exclude, earlier.flags, earlier.options)
            (path, query, fragment) = (earlier.path, earlier.query, earlier.fragment)
            self.index = index
            self.origin = origin
        }
    }

    enum Query: Sendable {
        case whole(CompiledPattern)
        case items([(name: String, pattern: CompiledPattern)])
        /// A dictionary swcutil ignores as a whole (a non-string value in it).
        case ignoredDictionary
        /// Legacy paths: the query is not compared.
        case notCompared
    }

    struct CompiledPattern: Sendable {
        var text: String
        /// `nil` when the pattern does not compile; it then matches nothing.
        var matcher: PatternMatcher?
    }

    /// Compiles every pattern of `document` once; those that do not compile are reported in
    /// `diagnostics` and match nothing.
    ///
    /// With `earlier`, an earlier revision of the file, `document` is compiled as an edit of it:
    /// in each entry, the rules the edit keeps (`RuleListEdit.keptInOrder`, against the earlier
    /// file's entry at the same position) share their compiled patterns and decide through that
    /// entry's index; only the others are compiled. An earlier file with other substitution
    /// variables, or one that reported patterns that do not compile, is not edited from: every
    /// pattern reported is then one compiled here, at the first rule using it, as alone.
    public init(_ document: AASADocument, editing earlier: CompiledAASA? = nil) {
        self.init(document, editing: earlier, compiledFrom: Self.rulesKey(document))
    }

    /// `init(_:editing:)`, with the document's `rulesKey` made by the caller, which looked it up.
    init(_ document: AASADocument, editing earlier: CompiledAASA?, compiledFrom: HashedKey<AppLinksSection>?) {
        var compiler = AppleRuleCompiler(variables: document.applinks?.substitutionVariables ?? [])
        let earlier = earlier.flatMap {
            $0.diagnostics.isEmpty && RuleListEdit.sameVariables($0.variables, compiler.variables) ? $0 : nil
        }
        let fileDefaults = document.applinks?.defaults
        var entries: [Entry] = []
        var ruleTexts: [[AppleRuleTexts]] = []
        for (position, details) in (document.applinks?.details ?? []).enumerated() {
            let written =
                details.components.map { components in
                    components.map { compiler.texts($0, defaults: details.defaults, fileDefaults, entry: details) }
                } ?? (details.paths ?? []).map { compiler.legacyTexts($0, entry: details) }
            let texts = written.map(\.texts)
            ruleTexts.append(texts)
            guard let earlier, position < earlier.entries.count else {
                let rules = written.enumerated().map { compiler.rule($1.texts, index: $0, origin: $1.origin) }
                entries.append(Entry(appIDs: Set(details.effectiveAppIDs), rules: rules))
                continue
            }
            let earlierEntry = earlier.entries[position]
            let kept = RuleListEdit.keptInOrder(
                texts, from: earlier.ruleTexts[position], alike: { $0.pointee == $1.pointee }, key: { $0 })
            // By position: a kept rule reads where it is written, not a copy of its texts.
            let earlierRules = earlierEntry.rules
            let rules = RuleListEdit.rules(
                kept, keep: { Rule(index: $0, origin: written[$0].origin, testingAs: earlierRules[$1]) },
                fresh: { compiler.rule(texts[$0], index: $0, origin: written[$0].origin) })
            entries.append(
                Entry(
                    appIDs: Set(details.effectiveAppIDs), rules: rules,
                    index: LazyRuleIndex({ rules[$0].constraints }, editing: earlierEntry.index, kept: kept)))
        }
        self.entries = entries
        self.ruleTexts = ruleTexts
        appIDs = Self.appIDs(of: document)
        diagnostics = compiler.diagnostics
        variables = compiler.variables
        self.compiledFrom = compiledFrom
    }

    /// `document` compiled with the rules of `compiled`, compiled from a document that differs
    /// from it in app IDs only (`rulesKey`): staging's file is production's for other apps.
    public init(_ document: AASADocument, sharingRulesOf compiled: CompiledAASA) {
        self = compiled
        let details = document.applinks?.details ?? []
        precondition(details.count == entries.count, "the documents differ in more than their app IDs")
        for (position, entry) in details.enumerated() { entries[position].appIDs = Set(entry.effectiveAppIDs) }
        appIDs = Self.appIDs(of: document)
    }

    private static func appIDs(of document: AASADocument) -> [String] {
        (document.applinks?.details ?? []).flatMap(\.effectiveAppIDs).uniqued()
    }

    /// What compiling `document` reads apart from app IDs: documents with equal keys compile
    /// to the same rules (`init(_:sharingRulesOf:)`).
    static func rulesKey(_ document: AASADocument) -> HashedKey<AppLinksSection>? {
        rulesKey(document, editing: nil)?.key
    }

    /// A `rulesKey` with each entry's components hashed (`HashedRules`), from which the next
    /// revision's key is hashed as an edit.
    struct RulesKey: Sendable {
        let key: HashedKey<AppLinksSection>
        let components: [HashedRules<AASAComponent>?]
    }

    /// `rulesKey(document)`: `known` itself when it is equal, without hashing the rules again;
    /// else each entry's components hashed as an edit of those of `known`'s entry at the same
    /// position. Every key is hashed here, so equal keys hash alike.
    static func rulesKey(_ document: AASADocument, editing known: RulesKey?) -> RulesKey? {
        document.applinks.map { applinks in
            var section = applinks
            section.details = applinks.details.map { $0.withoutAppIDs }
            if let known, known.key.value == section { return known }
            let earlier = known?.components ?? []
            let components = section.details.indices.map { position in
                section.details[position].components.map {
                    HashedRules($0, editing: position < earlier.count ? earlier[position] : nil)
                }
            }
            // What `==` compares but the entries' app IDs, which are removed.
            var hasher = Hasher()
            hasher.combine(section.legacyApps)
            hasher.combine(section.defaults)
            hasher.combine(section.substitutionVariables)
            hasher.combine(section.details.count)
            for (entry, components) in zip(section.details, components) {
                hasher.combine(entry.defaults)
                hasher.combine(entry.paths)
                hasher.combine(entry.origin)
                hasher.combine(components?.key)
            }
            return RulesKey(key: HashedKey(section, hash: hasher.finalize()), components: components)
        }
    }

    /// Prepares the entries naming `appID` for deciding `urls` distinct URLs
    /// (`LazyRuleIndex.anticipate`).
    func anticipate(urls: Int, appID: String) {
        for entry in entries where entry.holds(appID) { entry.index.anticipate(urls: urls) }
    }

    /// What the file decides for `url` and the app `appID` (`TEAMID.bundle`). With `tracing`,
    /// the decision lists every rule tried and every comparison made.
    public func decision(for url: LinkURL, appID: String, tracing: Bool = false) -> LinkDecision {
        var values = ComparedValues(url)
        var trace: [RuleTrace]? = tracing ? [] : nil
        // By position: a copy of each entry for each URL cost more than deciding most URLs.
        for entryIndex in entries.indices where entries[entryIndex].holds(appID) {
            if let rule = entries[entryIndex].firstMatch(&values, entryIndex: entryIndex, trace: &trace) {
                return LinkDecision(decidedBy: rule, entryIndex: entryIndex, trace: trace)
            }
        }
        return LinkDecision(outcome: .noMatch, trace: trace ?? [])
    }
}

/// What a rule of an AASA file tests, with everything it inherits resolved and its patterns not
/// compiled: in files with the same substitution variables, equal values (texts compared exactly)
/// compile to rules deciding every URL alike.
struct AppleRuleTexts: Hashable {
    let kind: RuleTrace.Kind
    let exclude: Bool
    let flags: EffectiveFlags
    let path: String
    /// `nil` for legacy paths, which do not compare the query.
    let query: AASAQuery?
    /// `nil` for legacy paths, which ignore the fragment.
    let fragment: String?

    /// Texts compare exactly (`ExactText`); the hash stays the synthesized one.
    static func == (left: AppleRuleTexts, right: AppleRuleTexts) -> Bool {
        left.kind == right.kind && left.exclude == right.exclude && left.flags == right.flags
            && ExactText.equal(left.path, right.path) && ExactText.equal(left.fragment, right.fragment)
            && left.query == right.query
    }
}

extension CompiledAASA.Rule {
    /// What the rule tests, as written.
    var texts: AppleRuleTexts {
        let queryTexts: AASAQuery? =
            switch query {
            case .whole(let pattern): .whole(pattern.text)
            case .items(let items): .items(items.map { AASAQueryItem(name: $0.name, pattern: $0.pattern.text) })
            case .ignoredDictionary: .ignoredDictionary
            case .notCompared: nil
            }
        return AppleRuleTexts(
            kind: kind, exclude: exclude, flags: flags, path: path.text, query: queryTexts, fragment: fragment?.text)
    }

    /// How the path is read: the rule's options with Apple's slash rules.
    var pathOptions: PatternOptions {
        var pathOptions = options
        pathOptions.appleSlashRules = true
        return pathOptions
    }

    /// What the rule compares, for `RuleIndex`; `nil` when a pattern of it does not compile.
    var constraints: [RuleIndex.Constraint]? {
        func constraint(_ kind: RuleIndex.Part.Kind, _ pattern: CompiledAASA.CompiledPattern, _ options: PatternOptions)
            -> RuleIndex.Constraint?
        {
            pattern.matcher.map { RuleIndex.Constraint(part: .init(kind: kind, options: options), matcher: $0) }
        }
        var result: [RuleIndex.Constraint?] = [constraint(.path, path, pathOptions)]
        switch query {
        case .whole(let pattern): result.append(constraint(.query, pattern, options))
        case .items(let items): result += items.map { constraint(.item(ExactText($0.name)), $0.pattern, options) }
        case .ignoredDictionary, .notCompared: break
        }
        if let fragment { result.append(constraint(.fragment, fragment, options)) }
        return result.contains { $0 == nil } ? nil : result.compactMap { $0 }
    }

    func matches(_ values: inout ComparedValues, checks: inout [PartCheck]?) -> Bool {
        var matched = compare(path, .path, values.path(options: pathOptions), note: nil, &checks)
        if !matched && checks == nil { return false }
        switch query {
        case .whole(let pattern):
            let note = values.url.query == nil ? "no query: read as empty" : nil
            matched =
                compare(pattern, .query, values.query(options: options), note: note, &checks)
                && matched
        case .items(let items):
            for (name, pattern) in items {
                if !matched && checks == nil { return false }
                let occurrences = values.itemValues(named: name, options: options)
                if occurrences.isEmpty {
                    // WWDC19 session 717: absent items read as the empty string; swcutil agrees.
                    let note = "no item named \(PrintableText.quoted(name)): read as empty"
                    matched = compare(pattern, .queryItem(name), [], note: note, &checks) && matched
                }
                // WWDC19 session 717: "all instances of a given query item name" must match.
                for value in occurrences where matched || checks != nil {
                    matched = compare(pattern, .queryItem(name), value, note: nil, &checks) && matched
                }
            }
        case .ignoredDictionary:
            checks?.append(
                PartCheck(
                    part: .query, pattern: "{…}", comparedValue: nil, matched: true,
                    note: "the dictionary holds a non-string value, so Apple ignores it (swcutil)"))
        case .notCompared:
            break
        }
        if let fragment, matched || checks != nil {
            let value = values.fragment(options: options)
            let note = value == nil ? "no fragment: read as empty" : nil
            matched = compare(fragment, .fragment, value ?? [], note: note, &checks) && matched
        }
        return matched
    }

    private func compare(
        _ pattern: CompiledAASA.CompiledPattern, _ part: URLPart, _ value: [Unicode.Scalar], note: String?,
        _ checks: inout [PartCheck]?
    ) -> Bool {
        guard let matcher = pattern.matcher else {
            checks?.append(
                PartCheck(
                    part: part, pattern: pattern.text, comparedValue: nil, matched: false,
                    note: "the pattern does not compile, so it matches nothing"))
            return false
        }
        let matched = matcher.matches(value)
        checks?.append(
            PartCheck(
                part: part, pattern: pattern.text, comparedValue: String(String.UnicodeScalarView(value)),
                matched: matched, note: note))
        return matched
    }
}

/// Builds the rules of a file, compiling each distinct pattern once and reporting each pattern
/// that does not compile once, at the first rule using it.
struct AppleRuleCompiler {
    let variables: [String: [String]]
    /// `variables` hashed once for the process-wide memo of compiled patterns.
    private let hashedVariables: HashedKey<[String: [String]]>
    private var cache: [CacheKey: PatternMatcher?] = [:]
    private(set) var diagnostics: [Diagnostic] = []

    private struct CacheKey: Hashable {
        var pattern: ExactText
        var options: PatternOptions
    }

    init(variables: [AASAVariable]) {
        // Repeated names cannot survive the JSON reader; for hand-built documents the last wins, as in JSON.
        self.variables = Dictionary(variables.map { ($0.name, $0.values) }, uniquingKeysWith: { $1 })
        hashedVariables = HashedKey(self.variables)
    }

    /// What `component` of `entry` tests, with what it inherits from the entry's defaults,
    /// then the file's, resolved, and where it is written.
    func texts(
        _ component: AASAComponent, defaults entryDefaults: AASAComponent?, _ fileDefaults: AASAComponent?,
        entry: AASADetails
    ) -> (texts: AppleRuleTexts, origin: SourceLocation?) {
        // Each key read in place: every rule of every revision is resolved, and copies of the
        // levels, or reads through key paths, cost more than the reads.
        let texts = AppleRuleTexts(
            kind: .component, exclude: component.exclude ?? entryDefaults?.exclude ?? fileDefaults?.exclude ?? false,
            flags: component.flags.effective(inheriting: [entryDefaults?.flags, fileDefaults?.flags]),
            path: component.path ?? entryDefaults?.path ?? fileDefaults?.path ?? "*",
            query: component.query ?? entryDefaults?.query ?? fileDefaults?.query ?? .whole("*"),
            fragment: component.fragment ?? entryDefaults?.fragment ?? fileDefaults?.fragment ?? "*")
        return (texts, component.origin ?? entry.origin)
    }

    /// What a legacy path of `entry` tests: `NOT ` (with its space) marks an exclusion; every
    /// flag at Apple's default, since flags arrived with components.
    func legacyTexts(_ path: String, entry: AASADetails) -> (texts: AppleRuleTexts, origin: SourceLocation?) {
        let exclude = path.hasPrefix("NOT ")
        let texts = AppleRuleTexts(
            kind: .legacyPath, exclude: exclude, flags: .appleDefaults,
            path: exclude ? String(path.dropFirst(4)) : path, query: nil, fragment: nil)
        return (texts, entry.origin)
    }

    /// The rule testing `texts`, at `index` of its entry and written at `origin`, its patterns
    /// compiled (legacy paths read with Apple's default flags, as `legacyTexts` resolves them).
    mutating func rule(_ texts: AppleRuleTexts, index: Int, origin: SourceLocation?) -> CompiledAASA.Rule {
        let options = texts.flags.applied(to: PatternOptions(semantics: .apple))
        var pathOptions = options
        pathOptions.appleSlashRules = true
        let query: CompiledAASA.Query
        switch texts.query {
        case .whole(let pattern): query = .whole(compile(pattern, options, at: origin))
        case .items(let items): query = .items(items.map { ($0.name, compile($0.pattern, options, at: origin)) })
        case .ignoredDictionary: query = .ignoredDictionary
        case nil: query = .notCompared
        }
        return CompiledAASA.Rule(
            kind: texts.kind, index: index, origin: origin, exclude: texts.exclude, flags: texts.flags,
            path: compile(texts.path, pathOptions, at: origin), query: query,
            fragment: texts.fragment.map { compile($0, options, at: origin) })
    }

    private mutating func compile(_ pattern: String, _ options: PatternOptions, at origin: SourceLocation?)
        -> CompiledAASA.CompiledPattern
    {
        let key = CacheKey(pattern: ExactText(pattern), options: options)
        if let cached = cache[key] { return CompiledAASA.CompiledPattern(text: pattern, matcher: cached) }
        let matcher: PatternMatcher?
        do {
            matcher = try PatternMatcher.shared(pattern, options: options, variables: hashedVariables)
        } catch {
            diagnostics.append(
                Diagnostic(error.id, error.message + "; it matches nothing", at: origin, hint: error.hint))
            matcher = nil
        }
        cache[key] = matcher
        return CompiledAASA.CompiledPattern(text: pattern, matcher: matcher)
    }
}
