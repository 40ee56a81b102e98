/// The views of one analysis (one host and platform of two revisions), one alphabet per URL
/// part shared by all of them, each distinct test made once and kept with its transitions.
final class ProofViews {
    let alphabets: [ProofAlphabet]
    /// Per dimension, the alphabet of decoded text (what decoding views read inside).
    let decodedAlphabets: [ProofAlphabet]
    private var cache: [String: PartView] = [:]

    /// What some machines tell apart, in the text they read and, for decoding ones, in the
    /// decoded text.
    struct MachineDistinctions {
        var raw = ScalarDistinctions()
        var decoded = ScalarDistinctions()

        init() {}

        init(_ machine: AnyMachine) {
            machine.distinctions(into: &raw)
            machine.decoded?.distinctions(into: &decoded)
        }

        mutating func formUnion(_ other: MachineDistinctions) {
            raw.formUnion(other.raw)
            decoded.formUnion(other.decoded)
        }
    }

    /// What the tests of some rules tell apart: in each URL part, and in the names and values
    /// of query items read on their own (`QueryItemSearch`). The union over the lists of an
    /// analysis gives its alphabets; each list makes its own once (`DecisionList.distinctions`).
    struct RulesDistinctions {
        var parts = Array(repeating: MachineDistinctions(), count: URLDimension.allCases.count)
        var names = MachineDistinctions()
        var values = MachineDistinctions()

        init() {}

        /// The union of each rule's (`ProofRule.distinctions`), taken by runs of rules, each run's
        /// made once per process (`runs`). A run ends after a rule whose distinctions' identity
        /// hashes to a multiple of `runMask + 1`: where runs end depends on the rules at the ends
        /// alone, so a list made as an edit of another (`DecisionListLineage`, whose rules share
        /// their distinctions) has the other's runs but around its edits, and a changelog's list
        /// of a thousand rules unions a few dozen runs rather than every rule's.
        init(rules: [ProofRule], runMask: Int = 31) {
            var start = rules.startIndex
            for end in rules.indices
            where end == rules.count - 1 || ObjectIdentifier(rules[end].sharedDistinctions).hashValue & runMask == 0 {
                formUnion(Self.union(of: rules[start...end]))
                start = end + 1
            }
        }

        /// The union of a run of rules, by the identity of each rule's distinctions; an entry
        /// keeps those it is keyed by, so no identity in a key is another object's while it is.
        private static let runs = ProcessMemo<
            [ObjectIdentifier], (keys: [Once<RulesDistinctions>], union: RulesDistinctions)
        >(limit: 20_000)

        private static func union(of run: ArraySlice<ProofRule>) -> RulesDistinctions {
            let owners = run.map(\.sharedDistinctions)
            return runs.value(owners.map(ObjectIdentifier.init)) {
                var union = RulesDistinctions()
                for rule in run { union.formUnion(rule.distinctions) }
                return (owners, union)
            }.union
        }

        /// What one rule's tests tell apart.
        init(rule: ProofRule) {
            func add(_ pattern: PatternTest, _ dimension: URLDimension) {
                parts[dimension.rawValue].formUnion(ProofViews.distinctions(of: pattern))
            }
            for pattern in [rule.path?.scopes, rule.path?.pattern].compactMap({ $0 }) { add(pattern, .path) }
            if let query = rule.query {
                parts[URLDimension.query.rawValue].formUnion(
                    ProofViews.distinctions("q\u{0}" + query.key) {
                        MachineDistinctions(ProofViews.queryMachine(query))
                    })
            }
            if let fragment = rule.fragment { add(fragment.pattern, .fragment) }
            if case .items(let itemNames, let patterns, let decode, _) = rule.query {
                for name in itemNames {
                    names.formUnion(
                        ProofViews.distinctions("n\u{0}\(decode)\u{0}\(ExactText.key(name))") {
                            MachineDistinctions(ProofViews.nameMachine(name, decode: decode))
                        })
                }
                for pattern in patterns { values.formUnion(ProofViews.distinctions(of: pattern)) }
            }
        }

        mutating func formUnion(_ other: RulesDistinctions) {
            for dimension in parts.indices { parts[dimension].formUnion(other.parts[dimension]) }
            names.formUnion(other.names)
            values.formUnion(other.values)
        }
    }

    /// Each test's distinctions by a key naming the test and its preparation, made once per
    /// process: they depend on the test alone, and a changelog meets the same rules in every
    /// pair of revisions (most of its tests are in all of them). Keys are ASCII, built from
    /// `PatternTest.key`s and names through `ExactText.key`, so they compare exactly.
    private static let knownDistinctions = ProcessMemo<String, MachineDistinctions>(limit: 200_000)

    private static func distinctions(_ key: String, _ make: () -> MachineDistinctions) -> MachineDistinctions {
        knownDistinctions.value(key, make)
    }

    /// A pattern test's distinctions, as its decorated machine reads it (`decorated`: Apple's
    /// slash rules, then folding, then decoding, whose decoded reading is what comes before),
    /// made from the automaton's tests with what each stage adds: a changelog's pair asks for
    /// those of every rule of a list seen for the first time, and making the machine built a
    /// DFA nothing stepped. `PatternDistinctionsTests` checks them against the machine's.
    static func distinctions(of pattern: PatternTest) -> MachineDistinctions {
        distinctions("m\u{0}\(pattern.preparation.key)\u{0}\(pattern.key)") {
            let preparation = pattern.preparation
            var read = ScalarDistinctions()
            read.add(testsOf: pattern.automaton)
            if preparation.appleSlash { read.scalars.insert(0x2F) }
            if preparation.fold { read = read.unfolded }
            var made = MachineDistinctions()
            if preparation.decode {
                made.decoded = read
                read.addEscapes()
            }
            made.raw = read
            return made
        }
    }

    /// Views for the tests of the rules of `lists`; the alphabets tell apart what any of them
    /// does.
    init(lists: [DecisionList]) {
        var union = RulesDistinctions()
        for list in lists { union.formUnion(list.distinctions) }
        for dimension in union.parts.indices {
            union.parts[dimension].raw.scalars.insert(0x2F)
            union.parts[dimension].decoded.scalars.insert(0x2F)
        }
        alphabets = URLDimension.allCases.map { ProofAlphabet.of(union.parts[$0.rawValue].raw, text: $0.text) }
        decodedAlphabets = URLDimension.allCases.map {
            ProofAlphabet.of(union.parts[$0.rawValue].decoded, text: $0.text, decoded: true)
        }
        itemAlphabets = (
            ProofAlphabet.of(union.names.raw, text: .itemName),
            ProofAlphabet.of(union.values.raw, text: .part(.queryItem)),
            ProofAlphabet.of(union.names.decoded, text: .itemName, decoded: true),
            ProofAlphabet.of(union.values.decoded, text: .part(.queryItem), decoded: true)
        )
    }

    /// Alphabets of item names and values, raw and decoded.
    let itemAlphabets:
        (name: ProofAlphabet, value: ProofAlphabet, decodedName: ProofAlphabet, decodedValue: ProofAlphabet)

    /// An item name's machine: the literal name, compared after decoding when the rule decodes.
    static func nameMachine(_ name: String, decode: Bool) -> AnyMachine {
        let literal = LiteralMachine(text: Array(name.unicodeScalars))
        return decode ? AnyMachine(PercentDecodeStage(literal), decoded: AnyMachine(literal)) : AnyMachine(literal)
    }

    func alphabet(_ dimension: URLDimension) -> ProofAlphabet { alphabets[dimension.rawValue] }

    private func cached(_ key: String, _ make: () -> PartView) -> PartView {
        if let view = cache[key] { return view }
        let view = make()
        cache[key] = view
        return view
    }

    // MARK: One rule's tests

    func view(path pattern: PatternTest) -> PartView {
        cached("p" + pattern.key) {
            Self.decorated(PatternMachine(pattern.automaton), pattern.preparation).view(
                .path, absent: nil, views: self)
        }
    }

    func view(_ test: QueryTest) -> PartView {
        cached("q" + test.key) {
            let view = Self.queryMachine(test).view(.query, absent: nil, views: self)
            if case .items(let names, let patterns, let decode, let quantifier) = test {
                view.items = QueryItemsStructure(
                    quantifier: quantifier,
                    names: names.map {
                        Self.nameMachine($0, decode: decode).view(itemAlphabets.name, itemAlphabets.decodedName)
                    },
                    values: patterns.map {
                        Self.decorated(PatternMachine($0.automaton), $0.preparation).view(
                            itemAlphabets.value, itemAlphabets.decodedValue)
                    })
            }
            return view
        }
    }

    func view(_ test: FragmentTest) -> PartView {
        cached("f" + test.key) {
            Self.decorated(PatternMachine(test.pattern.automaton), test.pattern.preparation).view(
                .fragment, absent: test.absentReadsAsEmpty ? nil : false, views: self)
        }
    }

    /// The parts of `rule` that are compared at all (a test accepting everything is not), its
    /// path pattern apart from the scopes it shares with its block. Kept per rule, which holds
    /// on to the rule: every round of every region asks again for the rules it requires.
    func parts(_ rule: ProofRule) -> RuleParts {
        if let known = partsOfRules[ObjectIdentifier(rule)] { return known.parts }
        func keep(_ view: PartView?) -> PartView? { view.flatMap { $0.acceptsEverything ? nil : $0 } }
        let parts = RuleParts(
            scopes: keep(rule.path?.scopes.map { view(path: $0) }),
            path: keep(rule.path?.pattern.map { view(path: $0) }), query: keep(rule.query.map(view)),
            fragment: keep(rule.fragment.map(view)))
        partsOfRules[ObjectIdentifier(rule)] = (rule, parts)
        return parts
    }

    private var partsOfRules: [ObjectIdentifier: (rule: ProofRule, parts: RuleParts)] = [:]

    /// A view accepting what one of `patterns` (all of one preparation) accepts in the path.
    func union(of patterns: [PatternTest]) -> PartView {
        cached("u" + patterns.map(\.key).joined(separator: "\u{5}")) {
            Self.decorated(PatternMachine(.union(patterns.map(\.automaton))), patterns[0].preparation).view(
                .path, absent: nil, views: self)
        }
    }

    // MARK: Machines

    /// A machine erased to what views need: its distinctions and a view over an alphabet; for a
    /// machine decoding first, the machine reading the decoded text too.
    final class AnyMachine {
        private let addDistinctions: (inout ScalarDistinctions) -> Void
        private let makeView: (ProofAlphabet, Bool?, (() -> PartView)?) -> PartView
        let decoded: AnyMachine?

        init<Machine: PartMachine>(_ machine: Machine, decoded: AnyMachine? = nil) {
            addDistinctions = { machine.distinctions(into: &$0) }
            self.decoded = decoded
            makeView = { PartView(machine, alphabet: $0, absent: $1, decoded: $2) }
        }

        func distinctions(into distinctions: inout ScalarDistinctions) { addDistinctions(&distinctions) }

        /// A view over `views`' alphabet of `dimension`; a decoding one knows its decoded view.
        func view(_ dimension: URLDimension, absent: Bool?, views: ProofViews) -> PartView {
            view(views.alphabet(dimension), views.decodedAlphabets[dimension.rawValue], absent: absent)
        }

        /// A view over `alphabet`; a decoding one knows its decoded view, over `decodedAlphabet`.
        func view(_ alphabet: ProofAlphabet, _ decodedAlphabet: ProofAlphabet, absent: Bool? = nil) -> PartView {
            makeView(
                alphabet, absent, decoded.map { decoded in { decoded.makeView(decodedAlphabet, absent, nil) } })
        }
    }

    /// `machine` behind the stages `preparation` names: decode, then fold, then slash rules. A
    /// query's decoded reading takes escaped separators as text (`QuerySeparators`).
    static func decorated(_ machine: PatternMachine, _ preparation: Preparation, query: Bool = false) -> AnyMachine {
        preparation.appleSlash
            ? folded(AppleSlashStage(inner: machine), preparation, query: query)
            : folded(machine, preparation, query: query)
    }

    private static func folded<Machine: PartMachine>(_ machine: Machine, _ preparation: Preparation, query: Bool)
        -> AnyMachine
    {
        preparation.fold
            ? decoded(FoldStage(inner: machine), preparation, query: query)
            : decoded(machine, preparation, query: query)
    }

    private static func decoded<Machine: PartMachine>(_ machine: Machine, _ preparation: Preparation, query: Bool)
        -> AnyMachine
    {
        guard preparation.decode else { return AnyMachine(machine) }
        let reading = query ? AnyMachine(EscapedSeparatorStage(inner: machine)) : AnyMachine(machine)
        return AnyMachine(PercentDecodeStage(machine), decoded: reading)
    }

    static func queryMachine(_ test: QueryTest) -> AnyMachine {
        switch test {
        case .pattern(let pattern):
            return decorated(PatternMachine(pattern.automaton), pattern.preparation, query: true)
        case .items(let names, let values, let decode, let quantifier):
            let literals = names.map { LiteralMachine(text: Array($0.unicodeScalars)) }
            let fold = values.first?.preparation.fold ?? false
            func make<Name: PartMachine, Value: PartMachine>(_ names: [Name], _ values: [Value]) -> QueryItemsMachine<
                Name, Value
            > {
                QueryItemsMachine(
                    names: names, values: values, quantifier: quantifier == .every ? .everyOccurrence : .someOccurrence)
            }
            // Decoded: items split at the query's own separators, their text decoded (escaped
            // separators are text there).
            func decoding<Value: PartMachine>(_ values: [Value]) -> AnyMachine {
                AnyMachine(
                    make(literals.map(PercentDecodeStage.init), values.map { PercentDecodeStage($0) }),
                    decoded: AnyMachine(
                        make(
                            literals.map { EscapedSeparatorStage(inner: $0) },
                            values.map { EscapedSeparatorStage(inner: $0) })))
            }
            let patterns = values.map { PatternMachine($0.automaton) }
            switch (decode, fold) {
            case (false, false): return AnyMachine(make(literals, patterns))
            case (false, true): return AnyMachine(make(literals, patterns.map { FoldStage(inner: $0) }))
            case (true, false): return decoding(patterns)
            case (true, true): return decoding(patterns.map { FoldStage(inner: $0) })
            }
        }
    }
}

/// The compared parts of a rule as views; `nil` where the rule compares nothing.
struct RuleParts {
    var scopes: PartView?
    var path: PartView?
    var query: PartView?
    var fragment: PartView?

    subscript(dimension: URLDimension) -> PartView? {
        switch dimension {
        case .path: path
        case .query: query
        case .fragment: fragment
        }
    }

    /// The parts compared besides the block's scopes.
    var compared: [URLDimension] { URLDimension.allCases.filter { self[$0] != nil } }
}
