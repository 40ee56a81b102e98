import Testing

@testable import LinkwrightCore

/// A deliberately naive reference: exponential backtracking for Apple's greedy glob. Fine on
/// tiny inputs only. Android's reference is `AndroidFilter.matches`, AOSP's parser and
/// one-pass glob, which the token automaton must agree with.
enum ReferenceMatcher {
    static func apple(_ pattern: [Character], _ input: [Character]) -> Bool {
        guard let first = pattern.first else { return input.isEmpty }
        let rest = Array(pattern.dropFirst())
        switch first {
        case "*": return (0...input.count).contains { apple(rest, Array(input.dropFirst($0))) }
        case "?": return !input.isEmpty && apple(rest, Array(input.dropFirst()))
        default: return input.first == first && apple(rest, Array(input.dropFirst()))
        }
    }
}

@Suite("Pattern engine properties")
struct PatternPropertyTests {
    static let patternAlphabet: [Character] = ["a", "b", "/", "%", "*", "?"]

    static func randomText(_ alphabet: [Character], maxLength: Int, using generator: inout SplitMix64)
        -> [Character]
    {
        (0..<Int.random(in: 0...maxLength, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
    }

    @Test func appleAutomatonAgreesWithBacktracking() throws {
        var generator = SplitMix64(seed: 0xA44_1E)
        for _ in 0..<4000 {
            let pattern = Self.randomText(Self.patternAlphabet, maxLength: 7, using: &generator)
            let input = Self.randomText(Self.patternAlphabet, maxLength: 8, using: &generator)
            let matcher = try PatternMatcher(String(pattern))
            let expected = ReferenceMatcher.apple(pattern, input)
            #expect(matcher.matches(String(input)) == expected, "pattern \(String(pattern)) input \(String(input))")
        }
    }

    /// The automaton compiled from tokens against AOSP's parser and glob pass, run directly;
    /// `.` and `\` included, which the newest parser escapes.
    @Test func androidAutomatonAgreesWithAOSP() {
        var generator = SplitMix64(seed: 0xAD_501D)
        let alphabet = Self.patternAlphabet + [".", "\\"]
        for _ in 0..<6000 {
            let pattern = Self.randomText(alphabet, maxLength: 7, using: &generator)
            let input = Self.randomText(alphabet, maxLength: 8, using: &generator)
            let matcher = PatternMatcher(androidDynamic: String(pattern))
            let filter = AndroidFilter(expression: String(pattern), release: .latest)
            let expected = filter.matches(Array(String(input).unicodeScalars))
            #expect(matcher.matches(String(input)) == expected, "pattern \(String(pattern)) input \(String(input))")
        }
    }

    /// Fast paths (literal, prefix, suffix, prefix-and-suffix) must never disagree with the
    /// automaton, under every option combination.
    @Test(arguments: [
        PatternOptions(), PatternOptions(caseSensitive: false), PatternOptions(appleSlashRules: true),
        PatternOptions(semantics: .androidDynamic),
    ])
    func fastPathsAgreeWithTheAutomaton(options: PatternOptions) throws {
        var generator = SplitMix64(seed: 0xFA57)
        let alphabet: [Character] = ["a", "B", "/", "%", "*"]
        var shortcutsSeen = 0
        for _ in 0..<3000 {
            let pattern = String(Self.randomText(alphabet, maxLength: 6, using: &generator))
            let matcher = try PatternMatcher(pattern, options: options)
            guard matcher.shortcut != nil else { continue }
            shortcutsSeen += 1
            let input = options.prepare(
                String(Self.randomText(["a", "b", "A", "/", "%", "*"], maxLength: 8, using: &generator)))
            #expect(matcher.matches(input) == matcher.matchesByAutomaton(input), "pattern \(pattern)")
        }
        #expect(shortcutsSeen > 500)
    }

    /// ASCII text is prepared without decoding scalars; the result must be the one every other
    /// text gets: folded when case-insensitive, slashes normalised under Apple's path rules.
    @Test func preparedTextFoldsAndTrimsAlikeForASCIIAndOtherText() {
        let folded = PatternOptions(caseSensitive: false, appleSlashRules: true)
        #expect(String(String.UnicodeScalarView(folded.prepare("//Shop/A//"))) == "/shop/a/")
        #expect(String(String.UnicodeScalarView(folded.prepare("//Shöp/Ä//"))) == "/shöp/ä/")
        #expect(folded.prepare("///") == ["/"] && folded.prepare("") == ["/"])
        #expect(String(String.UnicodeScalarView(PatternOptions().prepare("/Shop//"))) == "/Shop//")
        #expect(String(String.UnicodeScalarView(PatternOptions(caseSensitive: false).prepare("/ÉA/"))) == "/éa/")
    }

    @Test func shortcutsAreChosenForCommonShapes() throws {
        #expect(try PatternMatcher("/about").shortcut == .literal(Array("/about".unicodeScalars)))
        #expect(try PatternMatcher("/x/*").shortcut == .affix(prefix: Array("/x/".unicodeScalars), suffix: []))
        #expect(try PatternMatcher("*.pdf").shortcut == .affix(prefix: [], suffix: Array(".pdf".unicodeScalars)))
        #expect(try PatternMatcher("/a/*/c").shortcut != nil)
        #expect(try PatternMatcher("/a/?").shortcut == nil)
        #expect(PatternMatcher(androidDynamic: "*.pdf").shortcut == nil)
        #expect(PatternMatcher(androidDynamic: "/x/*").shortcut != nil)
    }

    /// `PatternCompiler.shortcut` against its definition read plainly, over seeded token lists:
    /// tokens of literals and stars only, split at each star, make a literal (one run), a prefix
    /// and suffix (two, Apple) or a prefix (two, Android, the second empty); nothing else has one.
    @Test(arguments: [PatternSemantics.apple, .androidDynamic])
    func shortcutsAreTheLiteralRunsBetweenStars(semantics: PatternSemantics) {
        var generator = SplitMix64(seed: 0x5407_C07)
        let alphabet: [PatternToken] = [.literal("a"), .literal("/"), .literal("\u{E9}"), .any, .one, .variable("x")]
        var shortcutsSeen = 0
        for _ in 0..<5000 {
            let tokens = (0..<Int.random(in: 0...7, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            let literalsAndStars = tokens.allSatisfy { token in
                if case .literal = token { return true }
                return token == .any
            }
            let runs = tokens.split(separator: .any, omittingEmptySubsequences: false).map { run in
                run.compactMap { token -> Unicode.Scalar? in
                    if case .literal(let scalar) = token { return scalar }
                    return nil
                }
            }
            let expected: PatternMatcher.Shortcut? =
                switch (literalsAndStars, runs.count, semantics) {
                case (false, _, _): nil
                case (true, 1, _): .literal(runs[0])
                case (true, 2, .apple): .affix(prefix: runs[0], suffix: runs[1])
                case (true, 2, .androidDynamic): runs[1].isEmpty ? .affix(prefix: runs[0], suffix: []) : nil
                default: nil
                }
            let made = PatternCompiler.shortcut(for: tokens, semantics: semantics)
            #expect(made == expected, "\(tokens)")
            if made != nil { shortcutsSeen += 1 }
        }
        #expect(shortcutsSeen > 500)
    }

    // Adversarial inputs finish because matching never backtracks; correctness is asserted
    // here, timings belong in benchmarks.
    @Test func adversarialPatternsStayCorrect() throws {
        let pattern = "*a*a*a*a*a*a*a*a*b"
        let allA = String(repeating: "a", count: 10_000)
        #expect(try !PatternMatcher(pattern).matches(allA))
        #expect(try PatternMatcher(pattern).matches(allA + "b"))
        #expect(PatternMatcher(androidDynamic: pattern).matches(allA + "b"))
        // Lazy: the first `*` stops at the first "a", so the "/" must follow it at once.
        #expect(!PatternMatcher(androidDynamic: "*a/b").matches(allA + "/b"))
        #expect(try PatternMatcher("*a/b").matches(allA + "/b"))
        let questions = String(repeating: "?*", count: 200)
        #expect(try !PatternMatcher(questions).matches(String(repeating: "x", count: 199)))
        #expect(try PatternMatcher(questions).matches(String(repeating: "x", count: 5_000)))
        let locales = try PatternMatcher("*/$(lang)_$(region)/*")
        #expect(!locales.matches(String(repeating: "/en_", count: 2_500)))
        #expect(locales.matches(String(repeating: "/en_", count: 2_500) + "/en_GB/"))
    }

    /// A pattern's automaton is built when first used, so its undefined variables are found
    /// beforehand: the error must be the one building the automaton throws (right to left, so
    /// the last undefined variable), and a pattern whose variables are all defined must build.
    @Test func undefinedVariablesAreTheOnesTheAutomatonWouldMeet() {
        let variables = ["kind": ["shoes", "hats"]]
        let names = ["kind", "digit", "lang", "nope", "other", "region"]
        var generator = SplitMix64(seed: 0x5EED_7A)
        for _ in 0..<500 {
            var pattern = "/"
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                pattern += ["a", "*", "?", "/", "$(\(names.randomElement(using: &generator)!))"].randomElement(
                    using: &generator)!
            }
            let options = PatternOptions(semantics: .apple)
            guard case .success(let tokens) = PatternSyntax.tokens(pattern) else { continue }
            var compiler = PatternCompiler(options: options, variables: variables)
            var expected: PatternError?
            do { _ = try compiler.automaton(for: tokens) } catch { expected = error }
            #expect(
                PatternCompiler(options: options, variables: variables).undefinedVariable(in: tokens) == expected,
                "\(pattern)")
            do {
                let matcher = try PatternMatcher(pattern, options: options, variables: variables)
                #expect(expected == nil, "\(pattern)")
                let input = options.prepare("/a/shoes/")
                #expect(matcher.matchesByAutomaton(input) == matcher.matches(input), "\(pattern)")
            } catch {
                #expect(error == expected, "\(pattern)")
            }
        }
    }

    @Test func longVariableValuesCompileWithoutRecursion() throws {
        let value = String(repeating: "ab", count: 100_000)
        let matcher = try PatternMatcher("/$(long)", variables: ["long": [value, "x"]])
        #expect(matcher.matches("/" + value))
        #expect(matcher.matches("/x"))
        #expect(!matcher.matches("/" + value.dropLast()))
    }

    @Test func caseFoldingIsPerScalar() throws {
        let matcher = try PatternMatcher("/Straße/É", options: PatternOptions(caseSensitive: false))
        #expect(matcher.matches("/STRAßE/é"))
        #expect(!matcher.matches("/STRASSE/é"))
        // A character is a Unicode scalar: a decomposed é is two.
        #expect(try PatternMatcher("/?").matches("/é"))
        #expect(try !PatternMatcher("/?").matches("/e\u{301}"))
    }
}
