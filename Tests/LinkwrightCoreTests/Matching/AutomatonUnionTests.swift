import Testing

@testable import LinkwrightCore

/// The union (patterns sharing a trie, split into anchored and floating DFAs, ending `*` loops
/// reported on transitions) must answer exactly what each pattern's own automaton answers, for
/// every shape, under both platforms' readings, and with a cache too small to hold anything.
@Suite struct AutomatonUnionTests {
    static let pieces = ["a", "b", "ab", "/", "*", "?", "?*", "A", "é", "$(digit)", "$(sec)", "/x/"]
    static let inputAlphabet: [Unicode.Scalar] = ["a", "b", "/", "A", "x", "é", "1", "e", "n"]

    static func pattern(_ generator: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    static func matchers(_ generator: inout SplitMix64, count: Int) -> [PatternMatcher] {
        let android = Int.random(in: 0..<4, using: &generator) == 0
        return (0..<count).compactMap { _ in
            let text = pattern(&generator)
            if android { return PatternMatcher(androidDynamic: text) }
            let options = PatternOptions(
                caseSensitive: Int.random(in: 0..<4, using: &generator) != 0,
                appleSlashRules: Bool.random(using: &generator))
            return try? PatternMatcher(text, options: options, variables: ["sec": ["en", "a/b", "x"]])
        }
    }

    /// 0: the standard cache; 1: a tiny one, whose thrashing makes the rest of an input and the
    /// next few decided by simulation; 2: a tiny one that tries the DFA again at the next input;
    /// 3: a tiny one never deemed thrashing, which starts over within an input. In 3, patterns
    /// found through a literal are answered by their DFA, in the others one by one.
    @Test(arguments: [0, 1, 2, 3])
    func theUnionAnswersWhatEachPatternAnswers(cache: Int) {
        let tiny = LazyDFA.Limits(
            states: 3, cells: 40, simulatedInputs: cache == 1 ? 3 : 0, scalarsPerState: cache == 3 ? 0 : 10)
        let limits = cache == 0 ? LazyDFA.Limits.standard : tiny
        var generator = SplitMix64(seed: 0x5E7)
        // Labels already in a list the answer is appended to (`RuleIndex` gathers several
        // unions' answers in one), unsorted and repeated: they must stay as they are.
        var earlierLabels = SplitMix64(seed: 0xEA7)
        for _ in 0..<400 {
            let matchers = Self.matchers(&generator, count: Int.random(in: 1...14, using: &generator))
            let union = AutomatonUnion(matchers, limits: limits, candidateScalars: cache == 3 ? 0 : 4_096)
            for _ in 0..<30 {
                let (input, expected) = Self.checkedInput(union, matchers, &generator)
                let earlier = (0..<Int.random(in: 0...3, using: &earlierLabels)).map { _ in
                    Int32.random(in: 0..<16, using: &earlierLabels)
                }
                var appended = earlier
                union.accepting(input, into: &appended)
                #expect(appended == earlier + expected, "appended to \(earlier)")
            }
        }
    }

    /// Shapes whose states used to multiply: leading `*` beside prefixes, by the hundred. The
    /// answer must stay exact (the benchmark measures the cost).
    @Test func leadingAndMiddleWildcardsByTheHundredStayExact() throws {
        var patterns: [String] = []
        for index in 0..<300 {
            switch index % 4 {
            case 0: patterns.append("*/seg\(index)")
            case 1: patterns.append("/p\(index)/*")
            case 2: patterns.append("/*/product\(index)/*")
            default: patterns.append("/q\(index)/*/detail/????")
            }
        }
        let options = PatternOptions(appleSlashRules: true)
        let matchers = try patterns.map { try PatternMatcher($0, options: options) }
        let union = AutomatonUnion(matchers)
        var generator = SplitMix64(seed: 0x300)
        for _ in 0..<500 {
            let index = Int.random(in: 0..<300, using: &generator)
            let path = [
                "/x/y/seg\(index)", "/p\(index)/a/b", "/en/product\(index)/z", "/q\(index)/r/detail/abcd",
                "/q\(index)/detail/abcd/seg\(index)", "/nothing/\(index)",
            ].randomElement(using: &generator)!
            let input = options.prepare(path)
            let expected = matchers.indices.filter { matchers[$0].matchesByAutomaton(input) }.map(Int32.init)
            #expect(union.accepting(input) == expected, "\(path)")
        }
    }

    /// Patterns sharing beginnings with patterns added before them, as a rule list's do: one a
    /// beginning of another, one going on past another's end, one leaving another midway, one
    /// the same as another. The trie adds what a pattern does not share without looking up
    /// children that its new nodes cannot have yet, and makes each lane's tables as large as its
    /// members' tokens at once: every pattern must still be answered as it is alone.
    @Test(arguments: [UInt64(1), 2, 3])
    func patternsSharingBeginningsAnswerAsAlone(seed: UInt64) {
        var generator = SplitMix64(seed: seed &* 0xB16)
        for _ in 0..<300 {
            var texts = [Self.pattern(&generator)]
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let earlier = texts.randomElement(using: &generator)!
                let cut = earlier.index(
                    earlier.startIndex, offsetBy: Int.random(in: 0...earlier.count, using: &generator))
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: texts.append(String(earlier[..<cut]))
                case 1: texts.append(earlier + Self.pattern(&generator))
                case 2: texts.append(String(earlier[..<cut]) + Self.pattern(&generator))
                default: texts.append(earlier)
                }
            }
            let android = Int.random(in: 0..<4, using: &generator) == 0
            let options = PatternOptions(
                caseSensitive: Bool.random(using: &generator), appleSlashRules: Bool.random(using: &generator))
            let matchers = texts.compactMap { text -> PatternMatcher? in
                if android { return PatternMatcher(androidDynamic: text) }
                return try? PatternMatcher(text, options: options, variables: ["sec": ["en", "a/b", "x"]])
            }
            let union = AutomatonUnion(matchers)
            for _ in 0..<30 { _ = Self.checkedInput(union, matchers, &generator) }
        }
    }

    /// A random input of up to nine scalars, with what `union` accepts of it checked against
    /// each matcher alone.
    private static func checkedInput(
        _ union: AutomatonUnion, _ matchers: [PatternMatcher], _ generator: inout SplitMix64
    ) -> (input: [Unicode.Scalar], expected: [Int32]) {
        let input = (0..<Int.random(in: 0...9, using: &generator)).map { _ in
            inputAlphabet.randomElement(using: &generator)!
        }
        let expected = matchers.indices.filter { matchers[$0].matchesByAutomaton(input) }.map(Int32.init)
        #expect(
            union.accepting(input) == expected,
            "\(matchers.map(\.pattern)) on \(String(String.UnicodeScalarView(input)))")
        return (input, expected)
    }

    /// No pattern at all (every Android rule without a path): nothing accepts, nothing breaks.
    @Test func anEmptyUnionAcceptsNothing() {
        #expect(AutomatonUnion([]).accepting(["/", "a"]).isEmpty)
        #expect(AutomatonUnion([]).accepting([]).isEmpty)
    }
}
