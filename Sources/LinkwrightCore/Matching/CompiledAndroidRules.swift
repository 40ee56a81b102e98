/// Android 15 `dynamic_app_link_components` compiled once for matching any number of URLs
/// (https://developer.android.com/training/app-links/configure-assetlinks#configure-dynamic),
/// as a device of one `AndroidRelease` decides them.
///
/// - Rules are tried in order; the first match decides, and an `exclude` match keeps the link
///   in the browser. "If no matches are found in the list of declared components, the URL
///   won't open the app."
/// - Each pattern is what the release's `DalComponentParser` makes of it (`AndroidFilter`),
///   compared case-sensitively with the decoded part: `UriRelativeFilter.matchData` (AOSP
///   core/java/android/content/UriRelativeFilter.java) gives `PatternMatcher` `Uri.getPath()`,
///   `getQuery()` and `getFragment()`, the decoded accessors of `android.net.Uri`.
/// - A `#` pattern fails on a URL without fragment: `PatternMatcher.match(null)` is false.
/// - `?` items: a `{"name": "value"}` entry is one pattern over a whole `name=value` item
///   (StatementService builds the filter from the pair, and CTS `DomainVerificationFilterGroupTests`
///   and `UriRelativeFilterGroupTest` give QUERY filters whole `query=str` / `query=test` items).
///   `matchQuery` decodes the query first, splits it at `&`, or at `;` when `&` leaves one
///   piece, and needs one piece to match the whole pattern: so `?q=a%26b` holds the items `q=a`
///   and `b`, `?q=1;r=2` holds two items, and a bare `?dl` has no `dl=` item for `{"dl": "*"}`.
///   Every entry must find its item; order and extra items do not matter.
public struct CompiledDynamicRules: Sendable {
    let rules: [Rule]
    private(set) var entryIndex: Int
    public let release: AndroidRelease
    /// Every pattern of every rule, indexed as the newest release reads it: an untraced decision
    /// finds the first matching rule in one pass per part. Every release shares the newest's.
    let index: LazyRuleIndex
    /// The positions of the rules this release reads otherwise than the newest: left out of the
    /// index's answer (`readOtherwiseMask`) and tried in turn, in front of the first rule the
    /// index finds.
    private let readOtherwise: [Int]
    /// Per rule, whether it is in `readOtherwise`; `nil` when none is.
    private let readOtherwiseMask: [Bool]?
    /// The URLs decided before `index` was built, as this release reads the rules.
    private let decided: DecidedURLs
    /// What the rules were compiled from: equal components read by one release decide alike,
    /// so what is made from them can be shared (`shared`, `DecisionList.lists`).
    let components: HashedKey<[DynamicComponent]>
    /// Rules compiled as an edit of an earlier revision's (`init(_:entryIndex:release:editing:)`):
    /// those rules' components and, per rule, the position of the earlier rule whose patterns it
    /// shares. Another release reads a kept rule as it read that one (`reading(_:editing:)`).
    private let edit: (earlier: HashedKey<[DynamicComponent]>, kept: [Int?])?

    /// One part's pattern: the newest reading compiled for the index and the proof, and the
    /// filter the rule's release matches with. A class: a rule's test reads it for every URL
    /// tried, and copying the filter's fields retained each.
    final class Pattern: Sendable {
        let matcher: PatternMatcher
        let filter: AndroidFilter
        /// Whether `filter` accepts exactly what the newest release's reading of the pattern
        /// accepts, so `matcher` decides as the filter does: the same filter, or another one with
        /// the same language (`/a/?*` is `/a/..*` on the newest and `/a/.+` on the first Android
        /// 15 parser, which both take one character or more after `/a/`).
        let readsAsNewest: Bool

        convenience init(_ text: String, release: AndroidRelease) {
            self.init(matcher: PatternMatcher(androidDynamic: text), release: release)
        }

        /// The same pattern as each other release parses it, made once: the revisions of a file
        /// made as edits of one another share the patterns of the rules they keep
        /// (`CompiledDynamicRules.shared`), and each revision is read by every release. `nil`
        /// where every release parses the pattern alike (`AndroidFilter.isReadAlikeByEveryRelease`,
        /// most patterns): the pattern is its own reading, with nothing to parse or allocate.
        private let readings: LockedValue<[AndroidRelease: Pattern]>?

        /// Whether the pattern is its own reading for every release.
        var isReadAlikeByEveryRelease: Bool { readings == nil }

        /// The same pattern as `release` parses it, its compiled newest reading shared.
        func reading(_ release: AndroidRelease) -> Pattern {
            guard let readings else { return self }
            if let known = readings.withLock({ $0[release] }) { return known }
            let made = Pattern(matcher: matcher, release: release)
            return readings.withLock { known in
                if let first = known[release] { return first }
                known[release] = made
                return made
            }
        }

        /// The pattern is parsed once for the newest release, by `matcher`, whose filter is taken
        /// as it is; another release parses it again only where releases read it apart.
        private init(matcher: PatternMatcher, release: AndroidRelease) {
            // A dynamic rule's matcher is always Android's, so its filter is there; parsed here
            // otherwise rather than trapping.
            let newest = matcher.newestAndroidFilter ?? AndroidFilter(expression: matcher.pattern, release: .latest)
            self.matcher = matcher
            if AndroidFilter.isReadAlikeByEveryRelease(matcher.pattern) {
                filter = newest
                (readsAsNewest, readings) = (true, nil)
            } else {
                filter = release == .latest ? newest : AndroidFilter(expression: matcher.pattern, release: release)
                readsAsNewest =
                    release == .latest
                    || Self.readsAlike(matcher.pattern, release: release, reading: filter, newest: newest)
                readings = LockedValue([:])
            }
        }

        /// Whether `release` reads `pattern` into a filter (`reading`) accepting what the newest's
        /// (`newest`) accepts, decided once per process (a changelog reads every revision's rules
        /// again). The search is exact over every text (`AndroidFilter.acceptsAlike` runs each
        /// pattern type as `PatternMatcher` does); one that stops at its budget answers no, so the
        /// rule is tried as the release reads it, as before.
        private static func readsAlike(
            _ pattern: String, release: AndroidRelease, reading: AndroidFilter, newest: AndroidFilter
        ) -> Bool {
            knownReadings.value(ReadingKey(release: release, pattern: ExactText(pattern))) {
                reading == newest || reading.acceptsAlike(newest, workLimit: 200_000)
            }
        }

        private struct ReadingKey: Hashable {
            let release: AndroidRelease
            let pattern: ExactText
        }

        private static let knownReadings = ProcessMemo<ReadingKey, Bool>(limit: 100_000)

        func matches(_ value: [Unicode.Scalar]) -> Bool { filter.matches(value) }
    }

    /// One `?` entry: the pattern over whole `name=value` items, and the value alone.
    struct QueryEntry: Sendable {
        let name: String
        let value: String
        let item: Pattern
    }

    /// One rule, compiled; a class so evaluations share it without copies.
    final class Rule: DecidingRule, Sendable {
        let index: Int
        let origin: SourceLocation?
        let exclude: Bool
        let path: Pattern?
        let query: [QueryEntry]
        let fragment: Pattern?

        init(_ component: DynamicComponent, index: Int, release: AndroidRelease) {
            self.index = index
            origin = component.origin
            exclude = component.exclude
            path = component.path.map { Pattern($0, release: release) }
            query = (component.query ?? []).map {
                QueryEntry(
                    name: $0.name, value: $0.pattern, item: Pattern("\($0.name)=\($0.pattern)", release: release))
            }
            fragment = component.fragment.map { Pattern($0, release: release) }
        }

        /// A rule at `index`, written at `origin`, testing URLs as `earlier` does
        /// (`DynamicComponent.testsAlike`, which compares exclusion too): its compiled patterns
        /// are shared.
        init(index: Int, origin: SourceLocation?, testingAs earlier: Rule) {
            self.index = index
            self.origin = origin
            exclude = earlier.exclude
            (path, query, fragment) = (earlier.path, earlier.query, earlier.fragment)
        }

        /// `rule` read as `earlier`, the same patterns' reading by another release, reads them.
        init(_ rule: Rule, readingAs earlier: Rule) {
            index = rule.index
            origin = rule.origin
            exclude = rule.exclude
            (path, query, fragment) = (earlier.path, earlier.query, earlier.fragment)
        }

        /// Whether every release reads each of the rule's patterns as it is
        /// (`Pattern.isReadAlikeByEveryRelease`): the rule is then its own reading.
        var isReadAlikeByEveryRelease: Bool {
            path?.isReadAlikeByEveryRelease != false && fragment?.isReadAlikeByEveryRelease != false
                && query.allSatisfy(\.item.isReadAlikeByEveryRelease)
        }

        /// `rule` as `release` reads it.
        init(_ rule: Rule, release: AndroidRelease) {
            index = rule.index
            origin = rule.origin
            exclude = rule.exclude
            path = rule.path?.reading(release)
            query = rule.query.map { QueryEntry(name: $0.name, value: $0.value, item: $0.item.reading(release)) }
            fragment = rule.fragment?.reading(release)
        }
    }

    static let options = EffectiveFlags.android.applied(to: PatternOptions(semantics: .androidDynamic))

    /// Compiles `components` as `release` reads them; `entryIndex` is the statement they belong
    /// to, reported in decisions.
    public init(_ components: [DynamicComponent], entryIndex: Int = 0, release: AndroidRelease = .latest) {
        self.init(HashedRules(components).key, entryIndex: entryIndex, release: release)
    }

    /// `components` compiled as `release` reads them, as an edit of `earlier` (the same release's
    /// rules) when given: the rules the edit keeps (`RuleListEdit.keptInOrder`) share their
    /// compiled patterns and decide through `earlier`'s index; only the others are compiled.
    private init(
        _ components: HashedKey<[DynamicComponent]>, entryIndex: Int, release: AndroidRelease,
        editing earlier: CompiledDynamicRules? = nil
    ) {
        guard let earlier, earlier.release == release else {
            self.init(
                rules: components.value.enumerated().map { Rule($1, index: $0, release: release) },
                entryIndex: entryIndex, release: release, index: nil, components: components)
            return
        }
        let kept = RuleListEdit.keptInOrder(
            components.value, from: earlier.components.value, alike: DynamicComponent.testAlike, key: \.testKey)
        // By position: a kept rule reads its component's origin, not a copy of the component.
        let (written, earlierRules) = (components.value, earlier.rules)
        let rules = RuleListEdit.rules(
            kept, keep: { Rule(index: $0, origin: written[$0].origin, testingAs: earlierRules[$1]) },
            fresh: { Rule(written[$0], index: $0, release: release) })
        self.init(
            rules: rules, entryIndex: entryIndex, release: release,
            index: LazyRuleIndex({ rules[$0].constraints }, editing: earlier.index, kept: kept),
            components: components, edit: (earlier.components, kept))
    }

    /// `rules`, as `release` reads them; `index` is the index of the same rules when one was made.
    private init(
        rules: [Rule], entryIndex: Int, release: AndroidRelease, index: LazyRuleIndex?,
        components: HashedKey<[DynamicComponent]>, edit: (earlier: HashedKey<[DynamicComponent]>, kept: [Int?])? = nil
    ) {
        self.components = components
        self.edit = edit
        self.entryIndex = entryIndex
        self.release = release
        self.rules = rules
        self.index = index ?? LazyRuleIndex(rules.map(\.constraints))
        decided = DecidedURLs()
        let alike = release == .latest ? rules.map { _ in true } : rules.map(\.readsAsNewest)
        readOtherwise = rules.indices.filter { !alike[$0] }
        readOtherwiseMask = readOtherwise.isEmpty ? nil : alike.map { !$0 }
    }

    /// The same compiled rules serving the statement at `entryIndex`.
    private init(_ other: CompiledDynamicRules, entryIndex: Int) {
        self = other
        self.entryIndex = entryIndex
    }

    /// These rules serving the statement at `entryIndex` of another file holding them.
    func serving(entryIndex: Int) -> CompiledDynamicRules { CompiledDynamicRules(self, entryIndex: entryIndex) }

    /// `components` compiled as `release` reads them, once per process for equal components
    /// (where each rule was written included): the apps of one file, the environments serving
    /// one domain and the revisions where its file did not change read the same rules, and a
    /// changelog compiles each of hundreds of revisions. The newest few are kept. Components
    /// not compiled yet are compiled as an edit of `earlier`, the newest release's rules of an
    /// earlier revision of the file, when given.
    static func shared(
        _ components: [DynamicComponent], entryIndex: Int, release: AndroidRelease,
        editing earlier: CompiledDynamicRules? = nil
    ) -> CompiledDynamicRules {
        shared(HashedRules(components).key, entryIndex: entryIndex, release: release, editing: earlier)
    }

    /// `shared`, with the components hashed by the caller (`CompiledAssetLinks.init(_:componentKeys:release:editing:)`).
    static func shared(
        _ key: HashedKey<[DynamicComponent]>, entryIndex: Int, release: AndroidRelease,
        editing earlier: CompiledDynamicRules? = nil
    ) -> CompiledDynamicRules {
        guard release == .latest else {
            return shared(key, entryIndex: entryIndex, release: .latest, editing: earlier).reading(release)
        }
        let made = compilations.value(SharedKey(components: key, release: release)) {
            CompiledDynamicRules(key, entryIndex: entryIndex, release: release, editing: earlier)
        }
        return CompiledDynamicRules(made, entryIndex: entryIndex)
    }

    private struct SharedKey: Hashable {
        let components: HashedKey<[DynamicComponent]>
        let release: AndroidRelease
    }

    /// The recent values compiled by `shared` and `reading`.
    private static let compilations = ProcessMemo<SharedKey, CompiledDynamicRules>(limit: 16)

    /// The rules these were compiled as an edit of (`init(_:entryIndex:release:editing:)`).
    var editedFrom: HashedKey<[DynamicComponent]>? { edit?.earlier }

    /// Whether the release reads every rule as the newest does, so it decides every URL alike.
    var readsEveryRuleAsNewest: Bool { readOtherwise.isEmpty }

    /// The same rules as `release` reads them, sharing their compiled patterns and index: only
    /// the filters each release parses differ (`AndroidFilter`), so another release costs one
    /// parse per pattern every release does not read alike (a rule of none such is shared as it
    /// is), once per process for equal components (see `shared`). With `earlier`,
    /// `release`'s reading of the rules these were compiled as an edit of (`edit`), the rules
    /// kept take the patterns it read, which are those they would read.
    func reading(_ release: AndroidRelease, editing earlier: CompiledDynamicRules? = nil) -> CompiledDynamicRules {
        guard release != self.release else { return self }
        let read = Self.compilations.value(SharedKey(components: components, release: release)) {
            let kept = edit.flatMap { edit in
                earlier.flatMap { $0.release == release && $0.components == edit.earlier ? edit.kept : nil }
            }
            return CompiledDynamicRules(
                rules: rules.map { rule in
                    if rule.isReadAlikeByEveryRelease { return rule }
                    return kept?[rule.index].map { Rule(rule, readingAs: earlier!.rules[$0]) }
                        ?? Rule(rule, release: release)
                }, entryIndex: entryIndex, release: release, index: index, components: components)
        }
        return CompiledDynamicRules(read, entryIndex: entryIndex)
    }

    /// Prepares the rules for deciding `urls` distinct URLs (`LazyRuleIndex.anticipate`).
    func anticipate(urls: Int) { index.anticipate(urls: urls) }

    /// What the rules decide for `url`. With `tracing`, every rule tried is listed.
    public func decision(for url: LinkURL, tracing: Bool = false) -> LinkDecision {
        var values = ComparedValues(url)
        var trace: [RuleTrace]? = tracing ? [] : nil
        var rule: Rule?
        if trace != nil {
            rule = RuleIndex.tracedFirstMatch(among: rules, &values, entryIndex: entryIndex, trace: &trace)
        } else {
            rule = decided.position(of: url, index: index) {
                var found = index.firstMatch(
                    among: rules, &values, entryIndex: entryIndex, trace: &trace, skipping: readOtherwiseMask)
                var checks: [PartCheck]? = nil
                for position in readOtherwise {
                    if let found, found.index < position { break }
                    if rules[position].matches(&values, checks: &checks) {
                        found = rules[position]
                        break
                    }
                }
                return found?.index
            }.map { rules[$0] }
        }
        guard let rule else { return LinkDecision(outcome: .noMatch, trace: trace ?? []) }
        return LinkDecision(decidedBy: rule, entryIndex: entryIndex, trace: trace)
    }
}

extension CompiledDynamicRules.Rule {
    /// Whether the rule's release reads each of its patterns as the newest release does, so the
    /// newest's matchers (`constraints`) decide it.
    var readsAsNewest: Bool {
        path?.readsAsNewest != false && fragment?.readsAsNewest != false && query.allSatisfy(\.item.readsAsNewest)
    }

    /// What the rule compares, for `RuleIndex`: every part read decoded, as `matches` reads it.
    var constraints: [RuleIndex.Constraint]? {
        func constraint(_ kind: RuleIndex.Part.Kind, _ pattern: CompiledDynamicRules.Pattern) -> RuleIndex.Constraint {
            RuleIndex.Constraint(
                part: RuleIndex.Part(kind: kind, options: CompiledDynamicRules.options),
                matcher: pattern.matcher)
        }
        return (path.map { [constraint(.path, $0)] } ?? []) + query.map { constraint(.queryPieces, $0.item) }
            + (fragment.map { [constraint(.fragment, $0)] } ?? [])
    }

    var kind: RuleTrace.Kind { .dynamicRule }
    /// Android compares every part case-sensitively, decoded (see `CompiledDynamicRules`).
    var flags: EffectiveFlags { .android }

    func matches(_ values: inout ComparedValues, checks: inout [PartCheck]?) -> Bool {
        let options = CompiledDynamicRules.options
        var matched = true
        if let path {
            let value = values.path(options: options)
            matched = record(path, .path, value, note: nil, &checks)
        }
        for entry in query where matched || checks != nil {
            let items = values.androidQueryItems()
            let hit = items.first { entry.item.matches($0) }
            let prefix = Array("\(entry.name)=".unicodeScalars)
            checks?.append(
                PartCheck(
                    part: .queryItem(entry.name), pattern: entry.value,
                    comparedValue: (hit ?? items.first { $0.starts(with: prefix) }).map {
                        String(String.UnicodeScalarView($0.dropFirst(prefix.count)))
                    },
                    matched: hit != nil,
                    note: hit != nil || items.contains { $0.starts(with: prefix) }
                        ? nil
                        : "no item \(PrintableText.quoted(entry.name + "=…")): Android compares whole name=value items"
                ))
            matched = matched && hit != nil
        }
        if let fragment, matched || checks != nil {
            if let value = values.fragment(options: options) {
                matched = record(fragment, .fragment, value, note: nil, &checks) && matched
            } else {
                checks?.append(
                    PartCheck(
                        part: .fragment, pattern: fragment.matcher.pattern, comparedValue: nil, matched: false,
                        note: "no fragment: Android's PatternMatcher does not match a missing part"))
                matched = false
            }
        }
        return matched
    }

    private func record(
        _ pattern: CompiledDynamicRules.Pattern, _ part: URLPart, _ value: [Unicode.Scalar], note: String?,
        _ checks: inout [PartCheck]?
    ) -> Bool {
        let matched = pattern.matches(value)
        checks?.append(
            PartCheck(
                part: part, pattern: pattern.matcher.pattern, comparedValue: String(String.UnicodeScalarView(value)),
                matched: matched,
                note: note))
        return matched
    }
}

/// An `assetlinks.json` statement list compiled for deciding, per app package, which URLs of the
/// site open the app on Android 15 and later.
public struct CompiledAssetLinks: Sendable {
    /// Every package the file associates with `handle_all_urls`, in file order, each once.
    public let packages: [String]
    let statements: [(index: Int, package: String, rules: CompiledDynamicRules?)]
    /// Per package, the position in `statements` of the one deciding for it (`deciding`),
    /// found once: a decision reads it in place.
    private let decidingPosition: [String: Int]

    /// Compiles the dynamic rules of every `handle_all_urls` statement naming an Android app, as
    /// `release` reads them; each package's rules as an edit of those `earlier` (an earlier
    /// revision of the file, as the newest release reads it) compiled for the package, if any.
    public init(
        _ document: AssetLinksDocument, release: AndroidRelease = .latest, editing earlier: CompiledAssetLinks? = nil
    ) {
        self.init(document, componentKeys: nil, release: release, editing: earlier, sharingRulesOf: nil)
    }

    /// `init(_:release:editing:)`, with each statement's dynamic rules hashed by the caller
    /// (`componentKeys`, in statement order; hashed here when nil): the environments and
    /// revisions serving one list of rules hash it once (`EnvironmentEvaluator.CompiledFiles`).
    /// A statement holding the very rules one of `other`'s holds, as `release` reads them, takes
    /// those compiled rules: the environments of a domain serve its rules to differently named
    /// apps, so `other`, the domain's file compiled for another environment, holds them.
    init(
        _ document: AssetLinksDocument, componentKeys: [HashedKey<[DynamicComponent]>?]?, release: AndroidRelease,
        editing earlier: CompiledAssetLinks?, sharingRulesOf other: CompiledAssetLinks?
    ) {
        var statements: [(Int, String, CompiledDynamicRules?)] = []
        for (index, statement) in document.statements.enumerated()
        where statement.relations.contains(AssetStatement.handleAllURLs) {
            guard case .androidApp(let package, _) = statement.target else { continue }
            statements.append(
                (
                    index, package,
                    // An empty list is no rules: StatementService stores no groups for it
                    // (`DomainVerificationService.setUriRelativeFilterGroups`).
                    statement.dynamicComponents.flatMap { components in
                        guard !components.isEmpty else { return nil }
                        let key = componentKeys?[index] ?? HashedRules(components).key
                        if let same = other?.rules(key, readBy: release) { return same.serving(entryIndex: index) }
                        return CompiledDynamicRules.shared(
                            key, entryIndex: index, release: release,
                            editing: earlier?.statements.first { $0.package == package && $0.rules != nil }?.rules)
                    }
                ))
        }
        self.init(packages: statements.map(\.1).uniqued(), statements: statements)
    }

    /// The compiled rules of a statement holding `components`, as `release` reads them.
    private func rules(_ components: HashedKey<[DynamicComponent]>, readBy release: AndroidRelease)
        -> CompiledDynamicRules?
    {
        statements.lazy.compactMap(\.rules).first { $0.components == components && $0.release == release }
    }

    private init(packages: [String], statements: [(index: Int, package: String, rules: CompiledDynamicRules?)]) {
        self.packages = packages
        self.statements = statements
        var decidingPosition: [String: Int] = [:]
        // The first statement with dynamic rules, else the first naming the package.
        for (position, statement) in statements.enumerated() {
            guard let known = decidingPosition[statement.package] else {
                decidingPosition[statement.package] = position
                continue
            }
            if statements[known].rules == nil && statement.rules != nil {
                decidingPosition[statement.package] = position
            }
        }
        self.decidingPosition = decidingPosition
    }

    /// Whether the file's release reads every dynamic rule as the newest does.
    var readsEveryRuleAsNewest: Bool { statements.allSatisfy { $0.rules?.readsEveryRuleAsNewest ?? true } }

    /// The same file as `release` reads its dynamic rules (`CompiledDynamicRules.reading`); with
    /// `earlier`, the same release's readings of this file in other environments and of its
    /// earlier revisions: a statement's rules one of them holds are taken as they are, and
    /// others are read as an edit of the reading of the rules they were compiled as an edit
    /// of, when one of `earlier` holds it.
    func reading(_ release: AndroidRelease, editing earlier: [CompiledAssetLinks] = []) -> CompiledAssetLinks {
        CompiledAssetLinks(
            packages: packages,
            statements: statements.map { statement in
                guard let rules = statement.rules else { return (statement.index, statement.package, nil) }
                if let same = earlier.lazy.compactMap({ $0.rules(rules.components, readBy: release) }).last {
                    return (statement.index, statement.package, same.serving(entryIndex: statement.index))
                }
                let earlierRules = rules.editedFrom.flatMap { components in
                    earlier.lazy.flatMap(\.statements).compactMap(\.rules).last { $0.components == components }
                }
                return (statement.index, statement.package, rules.reading(release, editing: earlierRules))
            })
    }

    /// What the file decides for `url` and `package`:
    /// - no `handle_all_urls` statement for the package: `noMatch`, the site does not vouch for it;
    /// - statements without dynamic rules: `match` with no rule index, because the manifest's
    ///   intent filters alone decide;
    /// - otherwise the first statement's dynamic rules decide. Google: with several, "Android
    ///   does not guarantee which dynamic rules configuration will be used"; the reader warns.
    ///
    /// Without `readingRules` the file only verifies the host: the statement decides as one
    /// without dynamic rules (`EnvironmentEvaluator.FileRef.readsRules`).
    public func decision(for url: LinkURL, package: String, readingRules: Bool = true, tracing: Bool = false)
        -> LinkDecision
    {
        guard let position = decidingPosition[package] else { return LinkDecision(outcome: .noMatch) }
        guard readingRules, statements[position].rules != nil else {
            return LinkDecision(outcome: .match, entryIndex: statements[position].index)
        }
        return statements[position].rules!.decision(for: url, tracing: tracing)
    }

    /// The statement whose rules decide for `package`: the first with dynamic rules, else the
    /// first naming it; nil when none vouches for it.
    func deciding(package: String) -> (index: Int, rules: CompiledDynamicRules?)? {
        decidingPosition[package].map { (statements[$0].index, statements[$0].rules) }
    }
}
