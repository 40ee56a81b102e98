import Testing

@testable import LinkwrightCore

/// `LiteralWays.prefixes` lets the behaviour proof skip rule pairs whose paths part ways
/// (`BehaviourProof.disjointPaths`): it is only sound if every text a pattern accepts starts
/// with one of its prefixes.
@Suite struct LiteralPrefixesTests {
    /// The substitution variables and the scalars random patterns and texts are made of.
    let values = ["v": ["a", "ab", "b/"], "w": ["x", "xa"]]
    let alphabet: [Unicode.Scalar] = ["/", "a", "b", "x", "A"]

    @Test func everyAcceptedTextStartsWithOneOfThePrefixes() throws {
        var generator = SplitMix64(seed: 0x11_7E4A)
        let pieces = ["/", "a", "b", "x", "*", "?", "?*", "$(v)", "$(w)"]
        var split = 0
        var checked = 0
        for _ in 0..<2000 {
            let chosen = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            let options = PatternOptions(caseSensitive: Bool.random(using: &generator))
            let matcher = try PatternMatcher(chosen.joined(), options: options, variables: values)
            // Too many ways is "unknown", which the proof reads as "not disjoint".
            guard let prefixes = matcher.automaton.literalWays()?.prefixes else { continue }
            if prefixes.count > 1 { split += 1 }
            func random(_ count: Int) -> [Unicode.Scalar] {
                (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            }
            for _ in 0..<20 {
                // Texts written from the pattern, then sometimes changed, so most are accepted.
                var text: [Unicode.Scalar] = []
                for piece in chosen {
                    switch piece {
                    case "*": text += random(Int.random(in: 0...3, using: &generator))
                    case "?": text += random(1)
                    case "?*": text += random(Int.random(in: 1...3, using: &generator))
                    case "$(v)", "$(w)":
                        text +=
                            values[String(piece.dropFirst(2).dropLast())]!.randomElement(using: &generator)!
                            .unicodeScalars
                    default: text += piece.unicodeScalars
                    }
                }
                if Int.random(in: 0..<4, using: &generator) == 0, !text.isEmpty {
                    text[Int.random(in: 0..<text.count, using: &generator)] = random(1)[0]
                }
                let prepared = options.prepare(String(String.UnicodeScalarView(text)))
                guard matcher.automaton.matches(prepared) else { continue }
                checked += 1
                #expect(
                    prefixes.contains { prepared.starts(with: $0) },
                    "\(chosen.joined()) accepts \(String(String.UnicodeScalarView(prepared))) outside \(prefixes)")
            }
        }
        // Variables make several prefixes often enough for the check to mean something.
        #expect(split > 300 && checked > 20_000, "\(split) patterns with several prefixes, \(checked) texts")
    }

    /// `LiteralWays.texts` lets the proof skip a pair when one pattern accepts a few
    /// literal paths the other rejects: sound only if they are exactly the texts it accepts.
    @Test func literalTextsAreExactlyTheTextsAccepted() throws {
        var generator = SplitMix64(seed: 0x7E_C575)
        let pieces = ["/", "a", "b", "x", "$(v)", "$(w)", "*", "?"]
        var literal = 0
        var checked = 0
        for _ in 0..<2000 {
            // Mostly literal pieces and variables, sometimes a wildcard.
            let chosen = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                pieces[Int.random(in: 0..<(Int.random(in: 0..<5, using: &generator) == 0 ? 8 : 6), using: &generator)]
            }
            let options = PatternOptions(caseSensitive: Bool.random(using: &generator), appleSlashRules: true)
            let matcher = try PatternMatcher(chosen.joined(), options: options, variables: values)
            // A wildcard gives none; so do variables with more than 32 texts between them.
            guard let texts = matcher.automaton.literalWays()?.texts else { continue }
            literal += 1
            #expect(!chosen.contains("*") && !chosen.contains("?"), "\(chosen.joined()) has a wildcard")
            for text in texts { #expect(matcher.automaton.matches(text), "\(chosen.joined()) rejects its own text") }
            for _ in 0..<20 {
                // Texts written from the pattern, then sometimes changed, so most are accepted.
                var text: [Unicode.Scalar] = []
                for piece in chosen {
                    let name = String(piece.dropFirst(2).dropLast())
                    text += values[name]?.randomElement(using: &generator)!.unicodeScalars ?? piece.unicodeScalars
                }
                if Int.random(in: 0..<3, using: &generator) == 0 {
                    text.append(alphabet.randomElement(using: &generator)!)
                }
                if Int.random(in: 0..<3, using: &generator) == 0, !text.isEmpty {
                    text[Int.random(in: 0..<text.count, using: &generator)] = alphabet.randomElement(using: &generator)!
                }
                let prepared = options.prepare(String(String.UnicodeScalarView(text)))
                guard matcher.automaton.matches(prepared) else { continue }
                checked += 1
                #expect(texts.contains(prepared), "\(chosen.joined()) accepts \(prepared) beyond \(texts)")
            }
        }
        #expect(literal > 1000 && checked > 10_000, "\(literal) literal patterns, \(checked) texts")
    }

    /// Two rules meet only on a path both accept: a literal rule sharing a prefix with a
    /// wildcard one is disjoint from it unless the wildcard one accepts its text.
    @Test func aLiteralRuleMeetsAnotherOnlyOnItsOwnTexts() throws {
        func rule(_ pattern: String) throws -> ProofRule {
            try pathRule(pattern, PatternOptions(appleSlashRules: true), variables: ["lang": ["en", "fr"]])
        }
        let pairs: [(String, String, Bool)] = [
            ("/travel1", "/travel10*", true), ("/travel1", "/travel1*", false), ("/travel10*", "/travel1", true),
            ("/$(lang)/help", "/en/*", false), ("/$(lang)/help", "/de/*", true), ("/help", "/help", false),
            ("/help", "/help/", false), ("/a*", "/ab*", false),
        ]
        for (a, b, disjoint) in pairs {
            #expect(BehaviourProof.disjointPaths(try rule(a), try rule(b)) == disjoint, "\(a) and \(b)")
        }
    }

    /// Rules whose paths are prepared otherwise (a `percent_encoded` or `case_sensitive`
    /// toggle) are told apart only when no path can meet both: random pairs of patterns, each
    /// with its own decoding and folding, are never called disjoint while some path, with escapes
    /// and capitals in it, matches both as each prepares it.
    @Test func rulesPreparedOtherwiseAreDisjointOnlyWhenNoPathMeetsBoth() throws {
        var generator = SplitMix64(seed: 0xD1_5A6E)
        let pieces = ["/", "a", "b", "A", "%", "*", "?", "/a/", "/b", "t", "%7", "4", "1"]
        let alphabet = [
            "/", "a", "b", "A", "%61", "%41", "%2F", "%2f", "%", "%25", "%62", "t", "%74", "4", "%34", "%7",
        ]
        var toldApart = 0
        var tried = 0
        for _ in 0..<3000 {
            let slashes = Bool.random(using: &generator)
            let patterns = (0..<2).map { _ in
                "/"
                    + (0..<Int.random(in: 1...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)!
                    }
                    .joined()
            }
            let options = (0..<2).map { _ in
                PatternOptions(
                    caseSensitive: Bool.random(using: &generator), appleSlashRules: slashes,
                    decoded: Bool.random(using: &generator))
            }
            let (a, b) = (try pathRule(patterns[0], options[0]), try pathRule(patterns[1], options[1]))
            guard BehaviourProof.disjointPaths(a, b) else { continue }
            toldApart += 1
            let matchers = try (0..<2).map { try PatternMatcher(patterns[$0], options: options[$0]) }
            for _ in 0..<60 {
                // Paths written from one pattern, wildcards filled and letters sometimes escaped.
                var path = ""
                for character in patterns[Int.random(in: 0..<2, using: &generator)] {
                    switch character {
                    case "*":
                        path += (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                            alphabet.randomElement(using: &generator)!
                        }.joined()
                    case "?": path += alphabet.randomElement(using: &generator)!
                    case "a" where Bool.random(using: &generator): path += "%61"
                    case "/" where Int.random(in: 0..<4, using: &generator) == 0: path += "%2F"
                    default: path.append(character)
                    }
                }
                tried += 1
                #expect(
                    !(matchers[0].matches(path) && matchers[1].matches(path)),
                    "\(patterns[0]) \(options[0].preparationKey) and \(patterns[1]) \(options[1].preparationKey) both match \(path)"
                )
            }
        }
        #expect(toldApart > 300 && tried > 20_000, "\(toldApart) pairs told apart, \(tried) paths")
    }

    /// A `percent_encoded` toggle makes every rule of a list prepared otherwise on the two sides:
    /// literal prefixes still tell most pairs apart, unless the undecoded side's holds a `%`.
    @Test func aToggledRuleMeetsOnlyRulesSharingItsPrefix() throws {
        func rule(_ pattern: String, decoded: Bool, caseSensitive: Bool = true) throws -> ProofRule {
            try pathRule(pattern, PatternOptions(caseSensitive: caseSensitive, appleSlashRules: true, decoded: decoded))
        }
        let toggled: [(String, Bool, String, Bool, Bool)] = [
            ("/shop/*", false, "/news/*", true, true), ("/shop/*", true, "/news/*", false, true),
            ("/shop/*", false, "/shop/a*", true, false), ("/sh%6Fp/*", false, "/news/*", true, false),
            ("/sh%6Fp/*", true, "/news/*", false, true), ("*.pdf", false, "/news/*", true, false),
        ]
        for (a, decodesA, b, decodesB, disjoint) in toggled {
            #expect(
                BehaviourProof.disjointPaths(try rule(a, decoded: decodesA), try rule(b, decoded: decodesB))
                    == disjoint,
                "\(a) and \(b)")
        }
        #expect(
            !BehaviourProof.disjointPaths(
                try rule("/Shop/*", decoded: false), try rule("/shop/*", decoded: false, caseSensitive: false)))
        #expect(
            BehaviourProof.disjointPaths(
                try rule("/Shop/*", decoded: false), try rule("/news/*", decoded: false, caseSensitive: false)))
    }

    /// Two rules whose literal ends part ways meet on no path, prepared alike or toggled: a
    /// toggle's undecoded suffix loses the two scalars an escape begun before it may end in.
    @Test func literalEndsTellRulesApart() throws {
        func rule(_ pattern: String, decoded: Bool = true) throws -> ProofRule {
            try pathRule(pattern, PatternOptions(appleSlashRules: true, decoded: decoded))
        }
        let suffixes: [(String, String)] = [
            ("*/home.html", "html"), ("/a/*/edit", "/edit"), ("/a/*", ""), ("/$(lang)/x", "/x"), ("/?b", "b"),
            ("/a*", ""), ("*", ""),
        ]
        for (pattern, suffix) in suffixes {
            let matcher = try PatternMatcher(pattern, variables: ["lang": ["en", "fr"]])
            #expect(
                String(String.UnicodeScalarView(matcher.automaton.forcedSuffix)).hasSuffix(suffix)
                    && (suffix.isEmpty || matcher.automaton.forcedSuffix.count >= suffix.unicodeScalars.count),
                "\(pattern)")
        }
        // Apple's slash rules end the prepared path with `/`.
        #expect(try rule("*/home.html").pathSuffix == Array("/home.html/".unicodeScalars))
        let pairs: [(String, Bool, String, Bool, Bool)] = [
            ("/hats/*/tv", true, "*/home.html", true, true), ("/hats/*/tv", false, "*/home.html", true, true),
            ("/hats/*/tv", true, "*/tv", true, false), ("*/xx.html", false, "*/x.html", true, false),
            // `%41tv` decodes to `Atv`: the undecoded `41tv` may end an escape begun before it,
            // but not after a `/`.
            ("*41tv", false, "*Atv", true, false), ("*/41tv", false, "*/Atv", true, true),
            ("*/%41", false, "*/A", true, false),
            ("/a/*/edit", false, "/b/*/view", true, true),
        ]
        for (a, decodesA, b, decodesB, disjoint) in pairs {
            #expect(
                BehaviourProof.disjointPaths(try rule(a, decoded: decodesA), try rule(b, decoded: decodesB))
                    == disjoint,
                "\(a) and \(b)")
        }
    }

    /// Seeded patterns made of `pieces`, each Android's or Apple's (then with `values` and either
    /// case sensitivity): one, or every fourth round two to five, to be read as a union.
    func seededMatchers(_ round: Int, pieces: [String], using generator: inout SplitMix64) throws -> [PatternMatcher] {
        let members = round % 4 == 0 ? Int.random(in: 2...5, using: &generator) : 1
        return try (0..<members).map { _ in
            let text = (0..<Int.random(in: 1...7, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            return Bool.random(using: &generator)
                ? PatternMatcher(androidDynamic: text)
                : try PatternMatcher(
                    text, options: PatternOptions(caseSensitive: Bool.random(using: &generator)), variables: values)
        }
    }

    /// `Automaton.forcedSuffix` walks flat edge lists with marked rounds. On seeded patterns of
    /// both platforms, with variables, alone and in unions, it must give the suffix of the plain
    /// walk below (an array of origins per node, a set per round), which it replaced.
    @Test func forcedSuffixIsThePlainWalks() throws {
        func plainSuffix(_ automaton: Automaton) -> [Unicode.Scalar] {
            let nodes = automaton.nodes
            var consumedInto = [[Int]](repeating: [], count: nodes.count)
            var splitInto = [[Int]](repeating: [], count: nodes.count)
            for (index, node) in nodes.enumerated() {
                switch node {
                case .consume(_, let next): consumedInto[next].append(index)
                case .split(let targets): for target in targets { splitInto[target].append(index) }
                case .accept: break
                }
            }
            func reachingWithoutConsuming(_ seeds: [Int]) -> Set<Int> {
                var reached = Set(seeds)
                var stack = seeds
                while let node = stack.popLast() {
                    for origin in splitInto[node] where reached.insert(origin).inserted { stack.append(origin) }
                }
                return reached
            }
            var suffix: [Unicode.Scalar] = []
            var current = reachingWithoutConsuming([automaton.accept])
            while suffix.count < 256, !current.contains(automaton.start) {
                let entering = current.flatMap { consumedInto[$0] }
                guard case .consume(.scalar(let scalar), _)? = entering.first.map({ nodes[$0] }),
                    entering.allSatisfy({
                        if case .consume(.scalar(scalar), _) = nodes[$0] { true } else { false }
                    })
                else { break }
                suffix.append(scalar)
                current = reachingWithoutConsuming(entering)
            }
            return suffix.reversed()
        }
        var generator = SplitMix64(seed: 0x5_0FF1)
        let pieces = ["/", "a", "b", "x", "ab", "*", "?", ".*", "$(v)", "$(w)", "[ab]"]
        var withSuffix = 0
        for round in 0..<3_000 {
            let automaton = Automaton.union(
                try seededMatchers(round, pieces: pieces, using: &generator).map(\.automaton))
            let suffix = automaton.forcedSuffix
            #expect(suffix == plainSuffix(automaton), "round \(round)")
            withSuffix += suffix.isEmpty ? 0 : 1
        }
        // Most patterns end with a literal, so the walk is followed, not only begun.
        #expect(withSuffix > 1_000, "\(withSuffix) automata with a suffix")
    }

    /// `Automaton.literalWays` follows a way in place while it goes on as one. On seeded
    /// patterns of both platforms, with variables, alone and in unions, and with limits low
    /// enough to be met, it must give the ways of the plain walk below (a way per node, a set
    /// of splits per way), which it replaced, in the same order, or `nil` where that does. Each
    /// pattern's literal facts (`LiteralFacts`) are its ways' prefixes, else its forced prefix,
    /// and its forced suffix.
    @Test func literalWaysAreThePlainWalks() throws {
        func plainWays(_ automaton: Automaton, limit: Int) -> [(prefix: [Unicode.Scalar], accepted: Bool)]? {
            var found: [(prefix: [Unicode.Scalar], accepted: Bool)] = []
            var ways: [(node: Int, prefix: [Unicode.Scalar], splits: Set<Int>)] = [(automaton.start, [], [])]
            var steps = 0
            while let (node, prefix, splits) = ways.popLast() {
                steps += 1
                guard steps <= 64 * limit, found.count + ways.count <= limit else { return nil }
                switch automaton.nodes[node] {
                case .consume(.scalar(let scalar), let next) where prefix.count < 256:
                    ways.append((next, prefix + [scalar], []))
                case .split(let targets):
                    guard !splits.contains(node) else { continue }
                    ways += targets.map { ($0, prefix, splits.union([node])) }
                case .consume:
                    found.append((prefix, false))
                case .accept:
                    found.append((prefix, true))
                }
            }
            return found
        }
        var generator = SplitMix64(seed: 0x1_17E2A1)
        let pieces = ["/", "a", "b", "x", "ab", "*", "?", ".*", "$(v)", "$(w)", "[ab]", "a*"]
        var (some, none) = (0, 0)
        for round in 0..<3_000 {
            let patterns = try seededMatchers(round, pieces: pieces, using: &generator)
            let automaton = Automaton.union(patterns.map(\.automaton))
            let limit = [2, 4, 32].randomElement(using: &generator)!
            let ways = automaton.literalWays(limit: limit)?.ways
            let plain = plainWays(automaton, limit: limit)
            #expect(ways?.map(\.prefix) == plain?.map(\.prefix), "round \(round)")
            #expect(ways?.map(\.accepted) == plain?.map(\.accepted), "round \(round)")
            if ways == nil { none += 1 } else { some += 1 }
            guard patterns.count == 1 else { continue }
            let pattern = PatternTest(patterns[0], preparation: Preparation(patterns[0].options))
            let facts = LiteralFacts.of(pattern)
            let plainLimited = plainWays(automaton, limit: 32)
            #expect(
                facts.prefixes == plainLimited.map { $0.map(\.prefix) } ?? [automaton.forcedPrefix], "round \(round)")
            #expect(facts.forcedSuffix == automaton.forcedSuffix, "round \(round)")
        }
        // Both answers are met often.
        #expect(some > 1_000 && none > 300, "\(some) with ways, \(none) past the limit")
    }

    /// `BehaviourProof.partWays` compares prefixes scalar by scalar in place; on seeded lists of
    /// short texts over a few scalars (so that many start alike, one often starting the other),
    /// it must say what "neither starts with the other, for every two" says.
    @Test func prefixesPartWaysExactlyWhenNeitherStartsTheOther() {
        var generator = SplitMix64(seed: 0x9A_27A5)
        var parted = 0
        for round in 0..<3000 {
            func texts() -> [[Unicode.Scalar]] {
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                        alphabet[Int.random(in: 0..<3, using: &generator)]
                    }
                }
            }
            let (ones, others) = (texts(), texts())
            let expected = ones.allSatisfy { one in
                others.allSatisfy { !(one.starts(with: $0) || $0.starts(with: one)) }
            }
            #expect(BehaviourProof.partWays(ones, others) == expected, "round \(round): \(ones) \(others)")
            parted += expected ? 1 : 0
        }
        // Both answers are met often.
        #expect((300...2700).contains(parted), "\(parted) parted")
    }

    @Test func aVariableGivesOnePrefixPerValueAndTooManyWaysGiveNone() throws {
        let matcher = try PatternMatcher("/$(lang)/shop/*", variables: ["lang": ["en", "fr"]])
        let prefixes = try #require(matcher.automaton.literalWays()?.prefixes)
        #expect(Set(prefixes.map { String(String.UnicodeScalarView($0)) }) == ["/en/shop/", "/fr/shop/"])
        let many = try PatternMatcher("/$(n)", variables: ["n": (0..<40).map { "v\($0)" }])
        #expect(many.automaton.literalWays()?.prefixes == nil)
    }
}

/// A rule opening the app on the paths `pattern` accepts, read with `options`.
private func pathRule(_ pattern: String, _ options: PatternOptions, variables: [String: [String]] = [:]) throws
    -> ProofRule
{
    let matcher = try PatternMatcher(pattern, options: options, variables: variables)
    return ProofRule(
        opens: true, isExclusion: false,
        path: PathTest(
            scopes: nil, pattern: PatternTest(matcher, preparation: Preparation(options), variables: variables)),
        query: nil, fragment: nil, origin: nil, label: pattern
    ) { _ in false }
}
