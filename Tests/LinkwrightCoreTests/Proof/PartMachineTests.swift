import Testing

@testable import LinkwrightCore

/// The proof's machines read raw URL parts exactly as the evaluator prepares and compares them:
/// each is checked against the evaluator's own code on thousands of seeded random texts drawn
/// from the characters that matter to it (escapes, slashes, item separators, case).
@Suite struct PartMachineTests {
    static func text(_ alphabet: [String], maxLength: Int, _ generator: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...maxLength, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            .joined()
    }

    /// Runs `machine` over `text`.
    static func accepts<Machine: PartMachine>(_ machine: Machine, _ text: String) -> Bool {
        machine.accepts(text.unicodeScalars.reduce(machine.start) { machine.step($0, $1) })
    }

    static let pieces = [
        "a", "b", "A", "é", "É", "/", "%", "%2", "%2F", "%41", "%61", "%C3", "%A9", "%c3%a9", "%FF", "%E2%82", "%AC",
        "x", "&", "=", "?", "K", "\u{212A}",
    ]

    /// The proof's parts are `URLPart.Key`'s but the query item, which it searches inside the
    /// query; what each text it writes cannot hold as written (and writes escaped) is what
    /// would end that part, and what `LinkURL` rejects.
    @Test func dimensionsAreTheURLPartsButTheQueryItem() {
        #expect(URLDimension.allCases.map(\.key) == URLPart.Key.allCases.filter { $0 != .queryItem })
        for text in URLPart.Key.allCases.map(TextKind.part) + [.itemName] {
            #expect(text.forbids(0x20) && text.forbids(0x7F) && !text.forbids(0x61), "\(text)")
        }
        #expect(TextKind.part(.path).forbids(0x3F) && !TextKind.part(.query).forbids(0x3F))
        #expect(TextKind.part(.queryItem).forbids(0x26) && !TextKind.part(.queryItem).forbids(0x3D))
        #expect(TextKind.itemName.forbids(0x3D) && !TextKind.part(.fragment).forbids(0x23))
    }

    @Test(arguments: [
        ("/a/*", true, false), ("/a/*", false, true), ("*/é", false, false), ("/?/b", true, true), ("*", true, false),
        ("/é*", false, true), ("a%2Fb", false, false), ("/A/*", false, true), ("//", true, true),
    ])
    func appleMachinesAgreeWithPreparedMatching(pattern: String, decode: Bool, fold: Bool) throws {
        let options = PatternOptions(caseSensitive: !fold, appleSlashRules: true)
        let matcher = try PatternMatcher(pattern, options: options)
        let slashed = AppleSlashStage(inner: PatternMachine(matcher.automaton))
        func run(_ path: String) -> Bool {
            switch (decode, fold) {
            case (false, false): Self.accepts(slashed, path)
            case (false, true): Self.accepts(FoldStage(inner: slashed), path)
            case (true, false): Self.accepts(PercentDecodeStage(slashed), path)
            case (true, true): Self.accepts(PercentDecodeStage(FoldStage(inner: slashed)), path)
            }
        }
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<3000 {
            let path = "/" + Self.text(Self.pieces, maxLength: 6, &generator)
            let expected = matcher.matches(options.prepare(decode ? PercentDecoding.decode(path) : path))
            #expect(run(path) == expected, "\(pattern) decode \(decode) fold \(fold) on \(path)")
        }
    }

    @Test func decodingMatchesPercentDecodingOnEveryText() throws {
        // The literal machine of the decoded text accepts exactly what decodes to it.
        var generator = SplitMix64(seed: 0xDEC0DE)
        for _ in 0..<4000 {
            let raw = Self.text(Self.pieces, maxLength: 5, &generator)
            let decoded = PercentDecoding.decode(raw)
            let machine = PercentDecodeStage(LiteralMachine(text: Array(decoded.unicodeScalars)))
            #expect(Self.accepts(machine, raw), "\(raw) decodes to \(decoded)")
            let other = Self.text(Self.pieces, maxLength: 5, &generator)
            #expect(
                Self.accepts(machine, other)
                    == (PercentDecoding.decode(other).unicodeScalars.elementsEqual(
                        decoded.unicodeScalars)),
                "\(other) against \(raw)")
        }
    }

    @Test(arguments: [ItemQuantifier.every, .some])
    func queryItemsMachineSplitsAsTheEvaluatorDoes(quantifier: ItemQuantifier) throws {
        let names = ["a", "é"]
        let patterns = try ["?*", "b"].map { try PatternMatcher($0) }
        for decode in [false, true] {
            let machine = QueryItemsMachine(
                names: names.map { PercentDecodeStage(LiteralMachine(text: Array($0.unicodeScalars))) },
                values: patterns.map { PercentDecodeStage(PatternMachine($0.automaton)) },
                quantifier: quantifier == .every ? .everyOccurrence : .someOccurrence)
            let plain = QueryItemsMachine(
                names: names.map { LiteralMachine(text: Array($0.unicodeScalars)) },
                values: patterns.map { PatternMachine($0.automaton) },
                quantifier: quantifier == .every ? .everyOccurrence : .someOccurrence)
            var generator = SplitMix64(seed: 0x17E35)
            for _ in 0..<3000 {
                let query = Self.text(["a", "b", "é", "%C3%A9", "%61", "=", "&", "x", "%26"], maxLength: 8, &generator)
                guard let url = LinkURL("/?" + query) else { continue }
                var values = ComparedValues(url)
                let options = PatternOptions(decoded: decode)
                let expected = zip(names, patterns).allSatisfy { name, pattern in
                    let occurrences = values.itemValues(named: name, options: options)
                    switch quantifier {
                    case .every:
                        return occurrences.isEmpty ? pattern.matches([]) : occurrences.allSatisfy(pattern.matches)
                    case .some:
                        // Android: only items with `=` are compared (whole `name=value` items).
                        let written = (url.query ?? "").split(separator: "&").filter { $0.contains("=") }
                        let prepare = { (text: Substring) in
                            decode ? PercentDecoding.decode(String(text)) : String(text)
                        }
                        return written.contains { item in
                            let equals = item.firstIndex(of: "=")!
                            return prepare(item[..<equals]) == name
                                && pattern.matches(prepare(item[item.index(after: equals)...]))
                        }
                    }
                }
                let actual = decode ? Self.accepts(machine, query) : Self.accepts(plain, query)
                #expect(actual == expected, "\(query) decode \(decode) \(quantifier)")
            }
        }
    }

    /// AOSP's `matchPattern` loop as it reads in `PatternMatcher.java`, kept as the oracle for
    /// the scalar-at-a-time `SimpleGlob`.
    static func referenceSimpleGlob(_ pattern: [Unicode.Scalar], _ input: [Unicode.Scalar]) -> Bool {
        if pattern.isEmpty { return input.isEmpty }
        var p = 0
        var i = 0
        func at(_ index: Int) -> Unicode.Scalar { index < pattern.count ? pattern[index] : "\0" }
        while p < pattern.count && i < input.count {
            var character = pattern[p]
            p += 1
            let escaped = character == "\\"
            if escaped {
                character = at(p)
                p += 1
            }
            guard at(p) == "*" else {
                if character != "." && input[i] != character { return false }
                i += 1
                continue
            }
            if !escaped && character == "." {
                if p >= pattern.count - 1 { return true }
                p += 1
                var stop = pattern[p]
                if stop == "\\" {
                    p += 1
                    stop = at(p)
                }
                while i < input.count && input[i] != stop { i += 1 }
                if i == input.count { return false }
                p += 1
                i += 1
            } else {
                while i < input.count && input[i] == character { i += 1 }
                p += 1
            }
        }
        if p >= pattern.count && i >= input.count { return true }
        return p == pattern.count - 2 && pattern[p] == "." && pattern[p + 1] == "*"
    }

    @Test func simpleGlobAutomataAgreeWithThePass() {
        var generator = SplitMix64(seed: 0x610B)
        for _ in 0..<1500 {
            let pattern = Array(Self.text(["a", "b", ".", "*", "\\"], maxLength: 6, &generator).unicodeScalars)
            let glob = SimpleGlob(pattern)
            let automaton = glob.automaton
            for _ in 0..<20 {
                let input = Array(Self.text(["a", "b", "c", "."], maxLength: 6, &generator).unicodeScalars)
                let expected = Self.referenceSimpleGlob(pattern, input)
                let shown = "\(String(String.UnicodeScalarView(pattern))) on \(String(String.UnicodeScalarView(input)))"
                #expect(AndroidPathAttribute.matchesSimpleGlob(pattern, input) == expected, "\(shown)")
                #expect(automaton.matches(input) == expected, "automaton \(shown)")
            }
        }
    }

    @Test func scopeAutomataAgreeWithPathAttributes() {
        let scopes: [PathScope] = [.path("/a"), .prefix("/a/"), .pattern("/a/.*/b"), .pattern("/b\\\\.*"), .prefix("")]
        var generator = SplitMix64(seed: 0x5C0)
        for scope in scopes {
            let automaton = scope.automaton
            for _ in 0..<500 {
                let path = Self.text(["/", "a", "b", ".", "\\"], maxLength: 6, &generator)
                #expect(
                    automaton.matches(Array(path.unicodeScalars)) == AndroidPathAttribute(scope).matches(path: path),
                    "\(scope) on \(path)")
            }
        }
    }

    /// The fold stage's distinctions read only the first two planes, and there only the scalars
    /// Unicode says change when lowercased: every scalar that folds onto another is one of them,
    /// so they give what folding all scalars would.
    @Test func unfoldingsOfTheCasedPlanesAreThoseOfEveryScalar() {
        let everyScalar = CaseFolding.unfoldings(in: 0...0x10_FFFF)
        let outside = everyScalar.filter { !CaseFolding.casedPlanes.contains($0.scalar) }
        #expect(outside.isEmpty, "folded outside the planes: \(outside.map { String($0.scalar, radix: 16) })")
        #expect(everyScalar.map(\.scalar) == CaseFolding.unfoldings.map(\.scalar))
        #expect(everyScalar.map(\.folded) == CaseFolding.unfoldings.map(\.folded))
        #expect(everyScalar.contains { $0 == (0x212A, 0x6B) }, "the Kelvin sign folds onto k")
    }
}

/// The bit-mask scalar set joined over every rule of an analysis holds what a plain set would:
/// seeded random inserts and unions around the ASCII boundaries (63, 64, 127, 128).
@Suite struct DistinctScalarsTests {
    @Test(arguments: 0..<20)
    func agreesWithASet(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &* 0x51_7CC1_B727_220A)
        let values: [UInt32] = [0, 1, 47, 63, 64, 65, 126, 127, 128, 233, 0x212A, 0x4E2D, 0x10_FFFF]
        func draw() -> (DistinctScalars, Set<UInt32>) {
            var scalars = DistinctScalars()
            var expected: Set<UInt32> = []
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                let value = values.randomElement(using: &generator)!
                scalars.insert(value)
                expected.insert(value)
            }
            return (scalars, expected)
        }
        var (joined, expected) = draw()
        for _ in 0..<4 {
            let (more, moreExpected) = draw()
            joined.formUnion(more)
            expected.formUnion(moreExpected)
        }
        #expect(Array(joined).sorted() == expected.sorted())
        #expect(Array(joined).count == expected.count)
        for value in values { #expect(joined.contains(value) == expected.contains(value)) }
    }
}
