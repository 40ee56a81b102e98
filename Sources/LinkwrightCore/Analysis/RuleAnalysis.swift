/// Static analysis of the components of `applinks.details` entries, on the automata the
/// evaluator matches with, so its answers are the evaluator's:
/// - `NEVER_MATCHES`: a part whose pattern accepts nothing (an empty variable, a pattern that
///   does not compile, a query item with an impossible pattern);
/// - `CATCH_ALL`: a component every URL matches;
/// - `UNREACHABLE_RULE`: a component whose URLs the earlier components of the entry all decide
///   first. Exact for path, whole-query and fragment patterns: the URLs of each part are split
///   by which earlier components accept them, part after part. Query dictionaries are compared
///   conservatively: an earlier component counts only if its dictionary clearly accepts
///   everything the later one does;
/// - `ANDROID_SEMANTICS_DIFFER` (when `comparesAndroidSemantics` is set): a path or fragment
///   pattern that Apple's greedy `*` (with its path slash rules) and Android's lazy `*` read
///   differently, with a shortest URL showing it. Off by default: every `/x/*` differs (Apple
///   also matches `/x`), which matters only when the same patterns are served to Android.
///
/// Every search is breadth-first over the product of deterministic automata and stops after
/// `workLimit` automaton steps; past it nothing is claimed. The searches for one file stop
/// together after `fileWorkLimit` steps (hundreds of overlapping `*a*b*c*…` rules ask a
/// search per pair), and those of a whole command after the budget of the meter it counts
/// against (`counting(against:)`): the rules not yet analysed are then named in one
/// `ANALYSIS_INCOMPLETE` note per entry, so a file too large to analyse exactly says so instead
/// of running for minutes.
public struct RuleAnalysis: Sendable {
    /// The most automaton steps one search may take; past it the search claims nothing.
    public var workLimit: Int
    /// The most automaton steps the searches of one file may take together.
    public var fileWorkLimit: Int
    /// Whether to report `ANDROID_SEMANTICS_DIFFER`.
    public var comparesAndroidSemantics: Bool
    /// The budget being spent: the file's while a file is analysed, within the command's.
    private var meter: WorkMeter?

    /// An analysis with the given budgets and checks (docs/performance.md gives what a step
    /// costs, and so how long a file's analysis runs at most).
    public init(
        workLimit: Int = 2_000_000, fileWorkLimit: Int = 20_000_000, comparesAndroidSemantics: Bool = false
    ) {
        self.workLimit = workLimit
        self.fileWorkLimit = fileWorkLimit
        self.comparesAndroidSemantics = comparesAndroidSemantics
    }

    /// The same analysis, with every search also counted against `budget` (a command's, shared
    /// by the files it analyses) and stopping when it runs out.
    func counting(against budget: WorkMeter) -> RuleAnalysis {
        var counted = self
        counted.meter = budget
        return counted
    }

    /// Whether the budget counted against has run out.
    var isExhausted: Bool { meter?.isExhausted ?? false }

    /// Findings for every `details` entry, by entry then component.
    public func findings(in document: AASADocument) -> [RuleFinding] {
        let compiled = CompiledAASA(document)
        let file = withFileMeter()
        return compiled.entries.indices.flatMap {
            file.meteredFindings(for: compiled.entries[$0].rules, entryIndex: $0, variables: compiled.variables)
        }
    }

    /// Findings for the entry at `entryIndex` of `document`.
    public func findings(forEntry entryIndex: Int, in document: AASADocument) -> [RuleFinding] {
        let compiled = CompiledAASA(document)
        return withFileMeter().meteredFindings(
            for: compiled.entries[entryIndex].rules, entryIndex: entryIndex, variables: compiled.variables)
    }

    /// This analysis with a fresh file budget, within the command's when there is one.
    private func withFileMeter() -> RuleAnalysis {
        var metered = self
        metered.meter = WorkMeter(fileWorkLimit, within: meter)
        return metered
    }

    private func meteredFindings(for rules: [CompiledAASA.Rule], entryIndex: Int, variables: [String: [String]])
        -> [RuleFinding]
    {
        let languages = rules.map(RuleLanguages.init)
        // Which rules' paths accept a value, for all rules in one pass (see `shadowing`).
        let withPath = rules.indices.filter { rules[$0].path.matcher != nil }
        let paths = AutomatonUnion(withPath.map { rules[$0].path.matcher! }, labels: withPath.map(Int32.init))
        var findings: [RuleFinding] = []
        func report(_ id: DiagnosticID, _ severity: Severity, _ rule: CompiledAASA.Rule, _ message: String)
            -> RuleFinding
        {
            RuleFinding(
                id: id, severity: severity, entryIndex: entryIndex, ruleIndex: rule.index, origin: rule.origin,
                message: message, decidedBy: [], isExact: true, witness: nil)
        }
        var live: [Int] = []
        for (index, rule) in rules.enumerated() {
            if let meter, meter.isExhausted {
                findings.append(
                    report(
                        .analysisIncomplete, .note, rule,
                        "the rule analysis stopped at its work budget here: \(rules.count - index) of \(rules.count)"
                            + " rules, from this one on, were not checked for unreachable, catch-all or"
                            + " never-matching rules"))
                break
            }
            let language = languages[index]
            // Counted from 1, as a person counts the entries of a JSON list.
            let name = "\(rule.kind == .legacyPath ? "path" : "component") \(rule.index + 1)"
            if let reason = neverMatches(language, pathSample: Self.pathSample(rule, variables: variables)) {
                findings.append(
                    report(.neverMatches, .warning, rule, "\(name) never matches: \(reason)"))
                continue
            }
            if isCatchAll(language) {
                let severity: Severity = rule.exclude ? .warning : .note
                let effect = rule.exclude ? "excludes every URL of the site" : "matches every URL of the site"
                findings.append(report(.catchAll, severity, rule, "\(name) \(effect)"))
            }
            if let shadow = shadowing(of: index, among: live, languages: languages, rules: rules, paths: paths) {
                var finding = report(
                    .unreachableRule, .warning, rule,
                    "\(name) is never reached: "
                        + Self.list(
                            shadow.decidedBy.map { rules[$0].index },
                            noun: rule.kind == .legacyPath ? "path" : "component")
                        + " first"
                        + (shadow.isExact ? "" : " (checked conservatively: some earlier components were left out)"))
                finding.decidedBy = shadow.decidedBy.map { rules[$0].index }
                finding.isExact = shadow.isExact
                findings.append(finding)
            }
            findings += (comparesAndroidSemantics ? semanticsDifferences(rule, name: name) : []).map {
                message, witness in
                var finding = report(.androidSemanticsDiffer, .warning, rule, message)
                finding.witness = witness
                return finding
            }
            live.append(index)
        }
        return findings
    }

    /// "component 2 decides" or "components 1, 2 decide": zero-based indices, counted from 1.
    static func list(_ indices: [Int], noun: String) -> String {
        indices.count == 1
            ? "\(noun) \(indices[0] + 1) decides"
            : "\(noun)s " + indices.map { String($0 + 1) }.joined(separator: ", ") + " decide"
    }

    // MARK: Per-rule properties

    private func search(_ views: [LanguageView], paths: Bool, guide: Int? = nil) -> LanguageSearch {
        LanguageSearch(views, pathsOnly: paths, workLimit: workLimit, guide: guide, meter: meter)
    }

    /// Whether the search finds no string satisfying `predicate` (and was not cut short).
    private func none(in search: LanguageSearch, where predicate: ([Bool]) -> Bool) -> Bool {
        if case .notFound = search.first(where: predicate) { return true }
        return false
    }

    /// Why no URL can match, or `nil`. A `pathSample` the rule's path pattern accepts settles
    /// the path without a search.
    func neverMatches(_ language: RuleLanguages, pathSample: String? = nil) -> String? {
        if let broken = language.uncompilable { return "its pattern \(PrintableText.quoted(broken)) does not compile" }
        if pathSample == nil, none(in: search([language.path], paths: true, guide: 0), where: { $0[0] }) {
            return "no path matches its \"/\" pattern"
        }
        for (part, view) in language.otherParts where none(in: search([view], paths: false, guide: 0), where: { $0[0] })
        {
            return "no value matches its \(part) pattern"
        }
        return nil
    }

    /// Unreserved characters and `/` (RFC 3986): a path of these alone is sent as written.
    private static let plainPathScalars = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/".unicodeScalars)

    /// A path as browsers send it that `rule`'s path pattern accepts, written from the pattern
    /// (`*` as nothing, `?` as `a`, a substitution variable as its first value in `variables`
    /// or a value of the predefined one), when the pattern is plain enough for that and accepts
    /// it: most rules, whose paths the search then need not look for.
    static func pathSample(_ rule: CompiledAASA.Rule, variables: [String: [String]] = [:]) -> String? {
        guard let matcher = rule.path.matcher else { return nil }
        let pattern = Array(rule.path.text.unicodeScalars)
        var sample = String.UnicodeScalarView()
        var index = 0
        while index < pattern.count {
            let scalar = pattern[index]
            index += 1
            switch scalar {
            case "*": continue
            case "?": sample.append("a")
            case "$" where index < pattern.count && pattern[index] == "(":
                guard let close = pattern[index...].firstIndex(of: ")") else { return nil }
                let name = String(String.UnicodeScalarView(pattern[(index + 1)..<close]))
                guard let value = variables[name]?.first ?? Self.predefinedSample(name),
                    value.unicodeScalars.allSatisfy(Self.plainPathScalars.contains)
                else { return nil }
                sample.append(contentsOf: value.unicodeScalars)
                index = close + 1
            default:
                guard Self.plainPathScalars.contains(scalar) else { return nil }
                sample.append(scalar)
            }
        }
        let text = String(sample)
        return sample.first == "/" && !text.contains("//") && matcher.matches(text) ? text : nil
    }

    /// A value Apple's predefined variable `name` stands for; the matcher has the last word.
    private static func predefinedSample(_ name: String) -> String? {
        if let codes = PredefinedVariables.codeLists[name] { return codes.first }
        switch name {
        case "upper": return "A"
        case "digit": return "0"
        case "alpha", "lower", "alnum", "xdigit": return "a"
        default: return nil
        }
    }

    func isCatchAll(_ language: RuleLanguages) -> Bool {
        none(in: search([language.path], paths: true), where: { !$0[0] })
            && language.otherParts.allSatisfy { none(in: search([$0.1], paths: false), where: { !$0[0] }) }
    }

    // MARK: Shadowing

    struct Shadow {
        var decidedBy: [Int]
        var isExact: Bool
    }

    /// Whether the earlier `candidates` decide every URL rule `index` matches. `paths` runs the
    /// path automata of all `rules` as one, so finding the earlier rules that accept a sample
    /// path is one pass, not one automaton per earlier rule: the analysis stays near linear in
    /// the number of rules when few of them overlap, as in real files.
    func shadowing(
        of index: Int, among candidates: [Int], languages: [RuleLanguages], rules: [CompiledAASA.Rule],
        paths: AutomatonUnion
    ) -> Shadow? {
        let rule = rules[index]
        let language = languages[index]
        // Parts compared exactly, one after the other; query dictionaries are settled by `covers`.
        let parts: [(RuleLanguages) -> LanguageView] =
            language.queryItems.isEmpty ? [\.path, \.query, \.fragment] : [\.path, \.fragment]
        // A component covering this one accepts its shortest URL: that alone rules most out.
        let sample = parts.indices.map { index in
            let probe = search([parts[index](language)], paths: index == 0, guide: 0)
            if case .found(let value, _) = probe.first(where: { $0[0] }) { return value }
            return ""
        }
        // The sample path is text the automata read, already decoded where the rule decodes:
        // prepared as the evaluator prepares it but not decoded again, it reads the same in the
        // automata (every comparable rule shares this rule's flags).
        var pathOptions = rule.pathOptions
        pathOptions.decoded = false
        let acceptingPath = Set(paths.accepting(pathOptions.prepare(sample[0])).map(Int.init))
        func comparable(_ earlier: Int) -> Bool {
            rules[earlier].flags == rule.flags && covers(query: languages[earlier], query: language)
        }
        // Cheapest test first: most earlier rules do not even accept the sample path.
        let acceptingSample = candidates.filter { earlier in
            acceptingPath.contains(earlier) && comparable(earlier)
                && zip(parts, sample).dropFirst().allSatisfy { part, value in part(languages[earlier]).accepts(value) }
        }
        guard !acceptingSample.isEmpty else { return nil }
        // Only now, with a shadow possible, every earlier rule is sorted out, and whether leaving
        // some out makes the answer conservative.
        var isExact = true
        let comparable = candidates.filter { earlier in
            let usable = comparable(earlier)
            if !usable || !language.queryItems.isEmpty || !languages[earlier].queryItems.isEmpty { isExact = false }
            return usable
        }
        guard !acceptingSample.isEmpty else { return nil }
        var involved: Set<Int> = []
        // One earlier component covering it alone is the common case and a small search.
        for earlier in acceptingSample
        where uncovered(parts, part: 0, rule: language, by: [earlier], languages: languages, involved: &involved)
            == false
        {
            return Shadow(decidedBy: [earlier], isExact: isExact)
        }
        // Otherwise only components sharing some path with it can take part in a union.
        let overlapping = comparable.filter { earlier in
            let views = [language.path, languages[earlier].path]
            return !none(in: search(views, paths: true, guide: 0), where: { $0[0] && $0[1] })
        }
        guard overlapping.count > 1 else { return nil }
        involved = []
        switch uncovered(parts, part: 0, rule: language, by: overlapping, languages: languages, involved: &involved) {
        case .some(false):
            return Shadow(decidedBy: overlapping.filter(involved.contains), isExact: isExact)
        default:
            return nil
        }
    }

    /// Whether some URL matches `rule` in parts `part...` and none of `candidates` in all of
    /// them (`nil` when a search was cut short). Splits the part's values by which candidates
    /// accept them, then asks the next part about each group.
    private func uncovered(
        _ parts: [(RuleLanguages) -> LanguageView], part: Int, rule: RuleLanguages, by candidates: [Int],
        languages: [RuleLanguages], involved: inout Set<Int>
    ) -> Bool? {
        let views = [parts[part](rule)] + candidates.map { parts[part](languages[$0]) }
        let isLast = part == parts.count - 1
        // Most components are reachable through their shortest value: try it before any product.
        if case .found(let value, _) = search([views[0]], paths: part == 0, guide: 0).first(where: { $0[0] }),
            !views.dropFirst().contains(where: { $0.accepts(value) })
        {
            return true
        }
        let product = search(views, paths: part == 0, guide: 0)
        switch product.first(where: { $0[0] && !$0.dropFirst().contains(true) }) {
        case .found: return true
        case .inconclusive: return nil
        case .notFound where isLast: return false
        case .notFound: break
        }
        guard let verdicts = product.reachableVerdicts() else { return nil }
        for verdict in verdicts.keys where verdict[0] {
            let accepting = candidates.enumerated().filter { verdict[1 + $0.offset] }.map(\.element)
            involved.formUnion(accepting)
            switch uncovered(
                parts, part: part + 1, rule: rule, by: accepting, languages: languages, involved: &involved)
            {
            case .some(true): return true
            case nil: return nil
            case .some(false): continue
            }
        }
        return false
    }

    /// Whether `earlier`'s query test accepts every URL `later`'s does, as far as can be told
    /// without modelling dictionaries exactly: string queries are compared as parts; an
    /// earlier dictionary counts when each of its items accepts everything, or holds a pattern
    /// accepting all values the later one's same-named item does (absent items read as empty
    /// on both sides, and every occurrence must match on both sides).
    func covers(query earlier: RuleLanguages, query later: RuleLanguages) -> Bool {
        if earlier.queryItems.isEmpty {
            return later.queryItems.isEmpty || none(in: search([earlier.query], paths: false), where: { !$0[0] })
        }
        return earlier.queryItems.allSatisfy { name, pattern in
            if none(in: search([pattern], paths: false), where: { !$0[0] }) { return true }
            guard let mine = later.queryItems.first(where: { $0.name == name })?.pattern else { return false }
            return none(in: search([mine, pattern], paths: false, guide: 0), where: { $0[0] && !$0[1] })
        }
    }

    // MARK: Apple versus Android

    /// A canonical path (one leading slash, no empty segment, no trailing slash: the paths
    /// links are written with) that the Apple path pattern accepts and none of the Android
    /// dynamic-rule patterns translated from it does, or the reverse; `nil` when they agree on
    /// every such path or the search was cut short. Both sides compare the path as written.
    public func translationDifference(apple: PatternMatcher, android: [PatternMatcher]) -> (
        path: String, appleAccepts: Bool
    )? {
        let views =
            [LanguageView(dfa: SubsetDFA(Self.canonicalPaths), readsAppleRawPaths: false)]
            + [LanguageView(dfa: SubsetDFA(apple.automaton), readsAppleRawPaths: apple.options.appleSlashRules)]
            + android.map { LanguageView(dfa: SubsetDFA($0.automaton), readsAppleRawPaths: false) }
        let probe = search(views, paths: false, guide: 0).first { accepted in
            accepted[0] && accepted[1] != accepted.dropFirst(2).contains(true)
        }
        guard case .found(let path, let accepted) = probe else { return nil }
        return (path, accepted[1])
    }

    /// For each Android release that applies dynamic rules, a shortest decoded value its reading
    /// of `expression` accepts and some other release's rejects (`AndroidFilter`, the parser
    /// each release carries); empty when all read it alike or the search stopped at its budget.
    /// Values are spelled with lowercase letters and the expression's own literal characters, so a
    /// witness reads as a URL someone would write. With `paths`, only canonical paths
    /// (`canonicalPaths`).
    public func releaseDifferences(_ expression: String, paths: Bool) -> [(value: String, accepting: AndroidRelease)] {
        let releases = AndroidRelease.allCases
        // Releases that parse the pattern into the same tokens compile the same automaton, so
        // they read it alike: literals and a trailing `*`, most patterns, need no search.
        let tokens = releases.map { AndroidFilter(expression: expression, release: $0).tokens }
        if let first = tokens[0], tokens.allSatisfy({ $0 == first }) { return [] }
        let readable = ScalarSet(
            Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars)
                + expression.unicodeScalars.filter { $0 != "*" && $0 != "?" })
        let readableTexts = Automaton(
            nodes: [.accept, .split([2, 0]), .consume(.set(readable), next: 1)], start: 1, accept: 0)
        let views =
            releases.map {
                LanguageView(
                    dfa: SubsetDFA(AndroidFilter(expression: expression, release: $0).automaton),
                    readsAppleRawPaths: false)
            } + [LanguageView(dfa: SubsetDFA(readableTexts), readsAppleRawPaths: false)]
            // Paths as links are written: one leading slash, no empty segment.
            + (paths ? [LanguageView(dfa: SubsetDFA(Self.canonicalPaths), readsAppleRawPaths: false)] : [])
        let search = search(views, paths: false, guide: releases.count)
        return releases.indices.compactMap { position in
            let probe = search.first { accepted in
                accepted[position] && !accepted[releases.count...].contains(false)
                    && accepted.prefix(releases.count).contains(false)
            }
            guard case .found(let value, _) = probe else { return nil }
            return (value, releases[position])
        }
    }

    /// `/`, or `/` and non-empty segments separated by single slashes.
    static let canonicalPaths: Automaton = {
        let accept = 0
        // After a segment character: more of the segment, the end, or a separator.
        let segment = 1
        let segmentCharacter = 2
        let separator = 3
        let firstCharacter = 4
        let start = 5
        let afterRoot = 6
        return Automaton(
            nodes: [
                .accept,
                .split([segmentCharacter, accept, separator]),
                .consume(.anyExcept("/"), next: segment),
                .consume(.scalar("/"), next: firstCharacter),
                .consume(.anyExcept("/"), next: segment),
                .consume(.scalar("/"), next: afterRoot),
                .split([firstCharacter, accept]),
            ], start: start, accept: accept)
    }()

    /// Each path or fragment pattern with a `*` that the two platforms read differently, as a
    /// message and a path-only witness URL.
    func semanticsDifferences(_ rule: CompiledAASA.Rule, name: String) -> [(String, String)] {
        var results: [(String, String)] = []
        for (part, pattern) in [(URLPart.path, rule.path), (.fragment, rule.fragment)] {
            guard let pattern, let apple = pattern.matcher, pattern.text.contains("*"), !pattern.text.contains("$(")
            else {
                continue
            }
            let android = PatternMatcher(androidDynamic: pattern.text)
            let views = [
                LanguageView(dfa: SubsetDFA(apple.automaton), readsAppleRawPaths: part == .path),
                LanguageView(dfa: SubsetDFA(android.automaton), readsAppleRawPaths: false),
            ]
            let probe = search(views, paths: part == .path)
            guard case .found(let witness, let accepted) = probe.first(where: { $0[0] != $0[1] }) else { continue }
            let (yes, no) = accepted[0] ? ("Apple", "Android") : ("Android", "Apple")
            results.append(
                (
                    "\(name): \(yes) matches \(part == .path ? "path" : "fragment") \(PrintableText.quoted(witness)) "
                        + "with \(PrintableText.quoted(pattern.text)) "
                        + "and \(no) does not (Apple's `*` is greedy, Android's stops at the next character)",
                    part == .path ? witness : "/#" + witness
                ))
        }
        return results
    }
}
