/// Android 15 `dynamic_app_link_components` compiled once for matching any number of URLs
/// (https://developer.android.com/training/app-links/configure-assetlinks#configure-dynamic).
///
/// - Rules are tried in order; the first match decides, and an `exclude` match keeps the link
///   in the browser. "If no matches are found in the list of declared components, the URL
///   won't open the app."
/// - Patterns use `PatternSemantics.androidDynamic` (lazy `*`), case-sensitively.
/// - Values are compared decoded: Android 15's `UriRelativeFilter` matches `Uri.getPath()`,
///   `getFragment()` and query pairs (AOSP core/java/android/content/UriRelativeFilter.java),
///   and "raw, non-encoded values match encoded input" (uri-relative-filter-group element page).
///   How Play services turns these rules into filters is not published.
/// - `?` items: each must match some item of that name, in any order, extra items allowed
///   ("a match must be found for every dictionary entry"); an absent item fails.
/// - A `#` pattern fails on a URL without fragment: `PatternMatcher.match(null)` is false in AOSP.
public struct CompiledDynamicRules: Sendable {
    let rules: [Rule]
    let entryIndex: Int
    /// Every pattern of every rule, indexed: an untraced decision finds the first matching rule
    /// in one pass per part.
    private let index: RuleIndex

    /// One rule, compiled; a class so evaluations share it without copies.
    final class Rule: DecidingRule, Sendable {
        let index: Int
        let origin: SourceLocation?
        let exclude: Bool
        let path: PatternMatcher?
        let query: [(name: String, matcher: PatternMatcher)]
        let fragment: PatternMatcher?

        init(_ component: DynamicComponent, index: Int) {
            let compile = PatternMatcher.init(androidDynamic:)
            self.index = index
            origin = component.origin
            exclude = component.exclude
            path = component.path.map(compile)
            query = (component.query ?? []).map { ($0.name, compile($0.pattern)) }
            fragment = component.fragment.map(compile)
        }
    }

    static let options = PatternOptions(semantics: .androidDynamic, caseSensitive: true)

    /// Compiles `components`; `entryIndex` is the statement they belong to, reported in decisions.
    public init(_ components: [DynamicComponent], entryIndex: Int = 0) {
        self.entryIndex = entryIndex
        let rules = components.enumerated().map { Rule($1, index: $0) }
        self.rules = rules
        index = RuleIndex(rules.map(\.constraints))
    }

    /// What the rules decide for `url`. With `tracing`, every rule tried is listed.
    public func decision(for url: LinkURL, tracing: Bool = false) -> LinkDecision {
        var values = ComparedValues(url)
        var trace: [RuleTrace]? = tracing ? [] : nil
        guard let rule = index.firstMatch(among: rules, &values, entryIndex: entryIndex, trace: &trace) else {
            return LinkDecision(outcome: .noMatch, trace: trace ?? [])
        }
        return LinkDecision(decidedBy: rule, entryIndex: entryIndex, trace: trace)
    }
}

extension CompiledDynamicRules.Rule {
    /// What the rule compares, for `RuleIndex`: every part read decoded, as `matches` reads it.
    var constraints: [RuleIndex.Constraint]? {
        func constraint(_ kind: RuleIndex.Part.Kind, _ matcher: PatternMatcher) -> RuleIndex.Constraint {
            RuleIndex.Constraint(
                part: RuleIndex.Part(kind: kind, options: CompiledDynamicRules.options, decoded: true), matcher: matcher
            )
        }
        return (path.map { [constraint(.path, $0)] } ?? []) + query.map { constraint(.item($0.name), $0.matcher) }
            + (fragment.map { [constraint(.fragment, $0)] } ?? [])
    }

    var kind: RuleTrace.Kind { .dynamicRule }
    /// Android compares every part case-sensitively, decoded (see `CompiledDynamicRules`).
    var caseSensitive: Bool { true }
    var percentEncoded: Bool { false }

    func matches(_ values: inout ComparedValues, checks: inout [PartCheck]?) -> Bool {
        let options = CompiledDynamicRules.options
        var matched = true
        if let path {
            let value = values.path(options: options, decoded: true)
            matched = record(path, .path, value, note: nil, &checks)
        }
        for (name, matcher) in query where matched || checks != nil {
            let occurrences = values.itemValues(named: name, options: options, decoded: true)
            let hit = occurrences.first { matcher.matches($0) }
            checks?.append(
                PartCheck(
                    part: .queryItem(name), pattern: matcher.pattern,
                    comparedValue: (hit ?? occurrences.first).map { String(String.UnicodeScalarView($0)) },
                    matched: hit != nil,
                    note: occurrences.isEmpty ? "no item named \(PrintableText.quoted(name)): Android requires it" : nil
                ))
            matched = matched && hit != nil
        }
        if let fragment, matched || checks != nil {
            if let value = values.fragment(options: options, decoded: true) {
                matched = record(fragment, .fragment, value, note: nil, &checks) && matched
            } else {
                checks?.append(
                    PartCheck(
                        part: .fragment, pattern: fragment.pattern, comparedValue: nil, matched: false,
                        note: "no fragment: Android's PatternMatcher does not match a missing part"))
                matched = false
            }
        }
        return matched
    }

    private func record(
        _ matcher: PatternMatcher, _ part: URLPart, _ value: [Unicode.Scalar], note: String?,
        _ checks: inout [PartCheck]?
    ) -> Bool {
        let matched = matcher.matches(value)
        checks?.append(
            PartCheck(
                part: part, pattern: matcher.pattern, comparedValue: String(String.UnicodeScalarView(value)),
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

    /// Compiles the dynamic rules of every `handle_all_urls` statement naming an Android app.
    public init(_ document: AssetLinksDocument) {
        var statements: [(Int, String, CompiledDynamicRules?)] = []
        for (index, statement) in document.statements.enumerated()
        where statement.relations.contains(AssetStatement.handleAllURLs) {
            guard case .androidApp(let package, _) = statement.target else { continue }
            statements.append(
                (index, package, statement.dynamicComponents.map { CompiledDynamicRules($0, entryIndex: index) }))
        }
        packages = statements.map(\.1).uniqued()
        self.statements = statements
    }

    /// What the file decides for `url` and `package`:
    /// - no `handle_all_urls` statement for the package: `noMatch`, the site does not vouch for it;
    /// - statements without dynamic rules: `match` with no rule index, because the manifest's
    ///   intent filters alone decide;
    /// - otherwise the first statement's dynamic rules decide. Google: with several, "Android
    ///   does not guarantee which dynamic rules configuration will be used"; the reader warns.
    public func decision(for url: LinkURL, package: String, tracing: Bool = false) -> LinkDecision {
        let candidates = statements.filter { $0.package == package }
        if let withRules = candidates.first(where: { $0.rules != nil }), let rules = withRules.rules {
            return rules.decision(for: url, tracing: tracing)
        }
        guard let statement = candidates.first else { return LinkDecision(outcome: .noMatch) }
        return LinkDecision(outcome: .match, entryIndex: statement.index)
    }
}
