/// How a part's raw text is prepared before a pattern reads it (`ComparedValues`): the
/// settings of `PatternOptions.prepare`, which the proof's machines model (`ProofViews`).
struct Preparation: Hashable {
    let options: PatternOptions

    init(_ options: PatternOptions) { self.options = options }

    /// `PatternOptions.decoded`: from a rule's flags on iOS; always on Android.
    var decode: Bool { options.decoded }
    /// Not `PatternOptions.caseSensitive`.
    var fold: Bool { !options.caseSensitive }
    /// Apple's path slash rules (`PatternOptions.appleSlashRules`).
    var appleSlash: Bool { options.appleSlashRules }

    var key: String { options.preparationKey }
}

/// A compiled pattern and how its part is prepared for it.
struct PatternTest {
    /// Equal keys accept the same texts. ASCII (`ExactText.key`), so that keys built from them
    /// and kept in plain `String` sets compare exactly: `/café` spelt NFC is not spelt NFD.
    let key: String
    let automaton: Automaton
    let preparation: Preparation

    init(_ matcher: PatternMatcher, preparation: Preparation, variables: [String: [String]] = [:]) {
        // Android's patterns have no substitution variables: `$(x)` is text there.
        // The names as the pattern writes them, read from its compiled tokens (which keep them).
        let names =
            matcher.options.semantics == .apple
            ? matcher.tokens.compactMap { token -> String? in
                if case .variable(let name) = token { return name }
                return nil
            } : []
        let used = names.sorted().map { name in
            "\(name)=\(variables[name].map { $0.joined(separator: "\u{1}") } ?? "predefined")"
        }
        // The semantics too: the same text is another pattern on the other platform, and tests
        // of both meet in `ProofViews`' process-wide distinctions.
        key = ExactText.key(
            ([preparation.key, matcher.options.semantics.rawValue, matcher.pattern] + used).joined(separator: "\u{2}"))
        automaton = matcher.automaton
        self.preparation = preparation
    }

    init(key: String, automaton: Automaton, preparation: Preparation) {
        self.key = ExactText.key(key)
        self.automaton = automaton
        self.preparation = preparation
    }

    /// The literal text every accepted text starts with (`Automaton.forcedPrefix`).
    var forcedPrefix: [Unicode.Scalar] { automaton.forcedPrefix }
}

/// What the proof reads of a pattern's literal text (`Automaton.forcedPrefix`, `literalWays`,
/// `forcedSuffix`), made once per process per pattern: a changelog makes the decision lists of
/// every revision, whose rules are nearly all the same.
final class LiteralFacts: Sendable {
    /// Texts one of which starts every accepted text: the literal ways' prefixes, else the forced
    /// prefix alone (walked only then).
    let prefixes: [[Unicode.Scalar]]
    let ways: LiteralWays?
    private let automaton: Automaton
    private let suffix = Once<[Unicode.Scalar]>()

    private static let known = ProcessMemo<String, LiteralFacts>(limit: 100_000)

    private init(_ automaton: Automaton) {
        self.automaton = automaton
        ways = automaton.literalWays()
        prefixes = ways?.prefixes ?? [automaton.forcedPrefix]
    }

    /// Equal keys (`PatternTest.key`) are compiled from the same text alike, so their automata
    /// have the same literal ways.
    static func of(_ pattern: PatternTest) -> LiteralFacts {
        known.value(pattern.key) { LiteralFacts(pattern.automaton) }
    }

    /// `Automaton.forcedSuffix`, walked on first use: the proof reads it only for two rules whose
    /// prefixes do not part ways (`BehaviourProof.disjointPaths`), and a changelog's pair meets
    /// each rule of a list seen for the first time, walking back each one's automaton as dear as
    /// its ways.
    var forcedSuffix: [Unicode.Scalar] { suffix.value { automaton.forcedSuffix } }
}

/// The path test of a rule: each pattern present must accept.
struct PathTest {
    /// Android: the path scopes of the intent filter that claimed the URL (decoded path).
    let scopes: PatternTest?
    /// The rule's own pattern: Apple's, or an Android dynamic rule's (decoded path).
    let pattern: PatternTest?

    var key: String { (scopes?.key ?? "") + "\u{3}" + (pattern?.key ?? "") }
}

/// The query test of a rule.
enum QueryTest {
    /// A pattern for the whole query (absent reads as empty).
    case pattern(PatternTest)
    /// A dictionary of item names and value patterns.
    case items(names: [String], values: [PatternTest], decode: Bool, quantifier: ItemQuantifier)

    var key: String {
        switch self {
        case .pattern(let pattern): return "P" + pattern.key
        case .items(let names, let values, let decode, let quantifier):
            // Names as ASCII too (`ExactText.key`), as the value tests' keys are.
            let items = zip(names, values).map { ExactText.key($0) + "\u{1}" + $1.key }.sorted()
            return "I" + (decode ? "true" : "false") + (quantifier == .every ? "every" : "some")
                + items.joined(separator: "\u{2}")
        }
    }
}

enum ItemQuantifier: Hashable {
    /// Apple: every occurrence must match; an absent item reads as empty.
    case every
    /// Android: some occurrence must match.
    case some
}

/// The fragment test of a rule.
struct FragmentTest {
    let pattern: PatternTest
    /// Apple reads an absent fragment as empty; Android's `PatternMatcher` rejects it.
    let absentReadsAsEmpty: Bool

    var key: String { (absentReadsAsEmpty ? "E" : "A") + pattern.key }
}

/// One rule of a decision list as the proof sees it: what it decides and a test per URL part
/// (`nil`: the part is not compared). Immutable, so proofs on several threads share it; its
/// `matches` reads the evaluator's compiled rules, which evaluators share across threads too.
final class ProofRule: @unchecked Sendable {
    /// What the rule is wherever it is written, shared by its copies (`init(_:origin:matches:)`):
    /// a changelog's revisions write nearly every rule again, and a copy then holds one object
    /// rather than every test, key and prefix of the rule.
    private final class Content {
        let testKey: String
        let key: String
        let keyHashes: (testKey: Int, key: Int)
        let opens: Bool
        let route: String?
        let outcome: String?
        let outcomeNumber: Int
        let isExclusion: Bool
        let path: PathTest?
        let query: QueryTest?
        let fragment: FragmentTest?
        let label: String
        let pathPrefixes: [[Unicode.Scalar]]?
        let pathTexts: [[Unicode.Scalar]]?
        let pathLiterals: LiteralFacts?
        let pathPreparation: Preparation?
        let madeFromTests = Once<ProofViews.RulesDistinctions>()

        /// The content of a rule with these tests, outcome and label, made once per process: the
        /// same rule is made for every app, environment and Android release whose lists read it
        /// (each edited apart, `DecisionListLineage`), and sharing its content shares what proofs
        /// make of its tests (`distinctions`) and the lists' unions of them.
        static func of(
            opens: Bool, route: String?, isExclusion: Bool, path: PathTest?, query: QueryTest?,
            fragment: FragmentTest?, label: String
        ) -> Content {
            let testKey = [path?.key ?? "*", query?.key ?? "*", fragment?.key ?? "*"].joined(separator: "\u{4}")
            let decides = opens ? "open\u{4}" + (route ?? "") : isExclusion ? "exclude" : "web"
            let key = decides + "\u{4}" + testKey
            // Equal test keys accept the same URLs (`PatternTest.key`), and the key names the
            // outcome: with the label and exclusion, they make every field.
            return known.value(Made(key: key, label: label, isExclusion: isExclusion)) {
                Content(
                    opens: opens, route: route, isExclusion: isExclusion, path: path, query: query,
                    fragment: fragment, label: label, testKey: testKey, key: key)
            }
        }

        /// What a content is made from, as far as it matters.
        private struct Made: Hashable {
            let key: String
            let label: String
            let isExclusion: Bool
        }

        private static let known = ProcessMemo<Made, Content>(limit: 100_000)

        private init(
            opens: Bool, route: String?, isExclusion: Bool, path: PathTest?, query: QueryTest?,
            fragment: FragmentTest?, label: String, testKey: String, key: String
        ) {
            self.opens = opens
            self.route = opens ? route : nil
            outcome = opens ? "open\u{4}" + (route ?? "") : nil
            outcomeNumber =
                outcome.map { outcome in
                    Self.outcomeNumbers.withLock { numbers in
                        if let known = numbers[outcome] { return known }
                        numbers[outcome] = numbers.count + 1
                        return numbers.count
                    }
                } ?? 0
            self.isExclusion = isExclusion
            self.path = path
            self.query = query
            self.fragment = fragment
            self.label = label
            pathLiterals = path?.pattern.map(LiteralFacts.of)
            pathPrefixes = pathLiterals?.prefixes
            pathTexts = pathLiterals?.ways?.texts
            pathPreparation = path?.pattern?.preparation
            self.testKey = testKey
            self.key = key
            keyHashes = (testKey.hashValue, key.hashValue)
        }

        /// Each outcome met so far and its number.
        private static let outcomeNumbers = LockedValue<[String: Int]>([:])
    }

    private let content: Content

    /// Equal test keys accept the same URLs.
    var testKey: String { content.testKey }
    /// Equal keys accept the same URLs and decide alike.
    var key: String { content.key }
    /// `testKey.hashValue` and `key.hashValue`, taken once and kept by the rule's copies written
    /// elsewhere: a decision list hashes every rule's keys (`DecisionList.init`).
    var keyHashes: (testKey: Int, key: Int) { content.keyHashes }
    var opens: Bool { content.opens }
    /// The router destination the rule's URLs lead to (`RouteLabels`), when routes are written.
    var route: String? { content.route }
    /// What a URL the rule decides does: `nil` on the web, else the app with the route. Two
    /// rules with different outcomes decide their common URLs differently.
    var outcome: String? { content.outcome }
    /// The outcome as a number, the same for equal outcomes throughout the process (0: `nil`),
    /// which candidate pairs compare (`BehaviourProof.pairs`).
    var outcomeNumber: Int { content.outcomeNumber }
    var isExclusion: Bool { content.isExclusion }
    var path: PathTest? { content.path }
    var query: QueryTest? { content.query }
    var fragment: FragmentTest? { content.fragment }
    /// Where the rule was written, and how to name it in messages.
    let origin: SourceLocation?
    var label: String { content.label }
    /// Literal texts one of which starts every path the rule's pattern accepts, prepared
    /// (`LiteralWays.prefixes`, else `Automaton.forcedPrefix` alone). Made with the rule, which
    /// stays immutable: a revision's decision lists serve proofs on several threads
    /// (`ComparedRevision.decisionLists`).
    var pathPrefixes: [[Unicode.Scalar]]? { content.pathPrefixes }
    /// The paths the rule's pattern accepts, prepared, when they are a few literal texts
    /// (`LiteralWays.texts`).
    var pathTexts: [[Unicode.Scalar]]? { content.pathTexts }
    /// The literal text every path this rule's pattern accepts ends with, prepared
    /// (`Automaton.forcedSuffix`), walked when first asked for.
    var pathSuffix: [Unicode.Scalar]? { content.pathLiterals?.forcedSuffix }
    /// How the part is prepared for the rule's path pattern, when it has one.
    var pathPreparation: Preparation? { content.pathPreparation }

    /// The evaluator's own test of the rule on one URL (`CompiledAASA`, `CompiledDynamicRules`),
    /// which checks candidate witnesses against the rules a search left out. For a rule of an
    /// Android block, whether it matches a URL within the block's scopes.
    let matches: (inout ComparedValues) -> Bool

    /// What the rule's tests tell apart (`ProofViews.RulesDistinctions`), made on first use and
    /// shared with the same rule written elsewhere (`init(_:origin:matches:)`): a list made as
    /// an edit of an earlier one unions its rules' rather than looking each test up again.
    var distinctions: ProofViews.RulesDistinctions {
        content.madeFromTests.value { ProofViews.RulesDistinctions(rule: self) }
    }
    /// Where `distinctions` is kept: one object for the rule and its copies written elsewhere,
    /// by which lists' unions of runs of rules are kept (`RulesDistinctions.init(rules:)`).
    var sharedDistinctions: Once<ProofViews.RulesDistinctions> { content.madeFromTests }

    /// Whether `other` is this rule written elsewhere, or made from the same tests, outcome and
    /// label (`Content.of`): then it answers alike in everything but where it is written.
    func sharesContent(with other: ProofRule) -> Bool { content === other.content }

    init(
        opens: Bool, route: String? = nil, isExclusion: Bool, path: PathTest?, query: QueryTest?,
        fragment: FragmentTest?, origin: SourceLocation?, label: String,
        matches: @escaping (inout ComparedValues) -> Bool
    ) {
        self.matches = matches
        self.origin = origin
        content = Content.of(
            opens: opens, route: route, isExclusion: isExclusion, path: path, query: query, fragment: fragment,
            label: label)
    }

    /// `rule` written at `origin` and tested by `matches`: the same tests, keys and label, the
    /// same strings, and what its tests tell apart (`DecisionListLineage`).
    init(_ rule: ProofRule, origin: SourceLocation?, matches: @escaping (inout ComparedValues) -> Bool) {
        self.matches = matches
        self.origin = origin
        content = rule.content
    }
}

extension Automaton {
    /// One automaton accepting what any of `automata` accepts.
    static func union(_ automata: [Automaton]) -> Automaton {
        automata.count == 1 ? automata[0] : unionWithStarts(automata).automaton
    }

    /// The union, and where each member starts in it (so the union of the first k members is
    /// the closure of the first k starts).
    static func unionWithStarts(_ automata: [Automaton]) -> (automaton: Automaton, starts: [Int]) {
        let (program, offsets) = concatenating(automata)
        var nodes = program.nodes
        let accept = nodes.count
        nodes.append(.accept)
        for (automaton, offset) in zip(automata, offsets) { nodes[automaton.accept + offset] = .split([accept]) }
        let starts = zip(automata, offsets).map { $0.start + $1 }
        nodes.append(.split(starts))
        return (Automaton(nodes: nodes, start: nodes.count - 1, accept: accept), starts)
    }
}
