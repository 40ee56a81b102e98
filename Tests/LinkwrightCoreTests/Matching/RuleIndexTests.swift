import Testing

@testable import LinkwrightCore

/// The indexed decision (every pattern of an entry, or of Android dynamic rules, run per part as
/// lazily built DFAs) must give the answer of trying each rule in order, as the traced decision
/// and the first URLs a list decides (`LazyRuleIndex`) still do.
@Suite struct RuleIndexTests {
    static let pathAlphabet: [Character] = ["a", "b", "/", "*", "?", "A"]
    static let urlAlphabet: [Character] = ["a", "b", "/", "A", "%", "4", "1", "é"]

    static func text(_ alphabet: [Character], _ length: ClosedRange<Int>, _ generator: inout SplitMix64) -> String {
        String((0..<Int.random(in: length, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// A path, and sometimes query items (a name may repeat) and a fragment.
    static func url(_ generator: inout SplitMix64) -> String {
        var text = "/" + Self.text(Self.urlAlphabet, 0...7, &generator)
        let items = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
            ["a", "b"].randomElement(using: &generator)! + "=" + Self.text(["a", "b", "="], 0...3, &generator)
        }
        if !items.isEmpty { text += "?" + items.joined(separator: "&") }
        if Bool.random(using: &generator) { text += "#" + Self.text(["a", "b"], 0...2, &generator) }
        return text
    }

    static func randomDocument(_ generator: inout SplitMix64, rules: Int) -> AASADocument {
        var components: [AASAComponent] = []
        for _ in 0..<rules {
            var component = AASAComponent(path: "/" + text(pathAlphabet, 0...5, &generator))
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: component.query = .whole(text(["a", "=", "*", "?"], 0...3, &generator))
            case 1:
                component.query = .items(
                    ["a", "b"].filter { _ in Bool.random(using: &generator) }.map {
                        AASAQueryItem(name: $0, pattern: text(["b", "*", "?"], 0...2, &generator))
                    })
            case 2: component.fragment = text(["a", "*"], 0...2, &generator)
            case 3: component.path = "/$(digit)" + text(pathAlphabet, 0...2, &generator)
            default: break
            }
            if Bool.random(using: &generator) { component.exclude = true }
            if Int.random(in: 0..<4, using: &generator) == 0 { component.flags[.caseSensitive] = false }
            if Int.random(in: 0..<4, using: &generator) == 0 { component.flags[.percentEncoded] = false }
            components.append(component)
        }
        let split = Int.random(in: 0...components.count, using: &generator)
        return AASADocument(
            applinks: AppLinksSection(details: [
                AASADetails(appIDs: ["T.a"], components: Array(components[..<split])),
                AASADetails(appIDs: ["T.a", "T.b"], components: Array(components[split...])),
                AASADetails(appIDs: ["T.b"], paths: components.compactMap(\.path).map { "NOT " + $0 }),
            ]))
    }

    @Test func indexedDecisionsEqualRuleByRuleDecisions() throws {
        var generator = SplitMix64(seed: 0x1DE7)
        for _ in 0..<300 {
            let compiled = LazyRuleIndex.$triesPerRuleForTests.withValue(0) {
                CompiledAASA(Self.randomDocument(&generator, rules: Int.random(in: 1...12, using: &generator)))
            }
            for _ in 0..<40 {
                let text = Self.url(&generator)
                let url = try #require(LinkURL(text))
                for app in ["T.a", "T.b"] {
                    let indexed = compiled.decision(for: url, appID: app)
                    var traced = compiled.decision(for: url, appID: app, tracing: true)
                    traced.trace = []
                    #expect(indexed == traced, "\(text) for \(app)")
                }
            }
        }
    }

    @Test func indexedAndroidDecisionsEqualRuleByRuleDecisions() throws {
        var generator = SplitMix64(seed: 0xA4D)
        for _ in 0..<300 {
            let components = (0..<Int.random(in: 1...10, using: &generator)).map { _ in
                DynamicComponent(
                    path: Bool.random(using: &generator) ? "/" + Self.text(Self.pathAlphabet, 0...5, &generator) : nil,
                    query: Int.random(in: 0..<3, using: &generator) == 0
                        ? ["a", "b"].filter { _ in Bool.random(using: &generator) }.map {
                            AASAQueryItem(name: $0, pattern: Self.text(["b", "*", "?"], 0...2, &generator))
                        } : nil,
                    fragment: Int.random(in: 0..<4, using: &generator) == 0
                        ? Self.text(["a", "*"], 0...2, &generator) : nil,
                    exclude: Bool.random(using: &generator))
            }
            let compiled = LazyRuleIndex.$triesPerRuleForTests.withValue(0) { CompiledDynamicRules(components) }
            for _ in 0..<40 {
                let text = Self.url(&generator)
                let url = try #require(LinkURL(text))
                var traced = compiled.decision(for: url, tracing: true)
                traced.trace = []
                #expect(compiled.decision(for: url) == traced, "\(text)")
            }
        }
    }

    /// Rules that compare one query item only (an Apple path `*` constrains nothing, an Android
    /// rule may name no path): the index has a single group, whose answer for an item met more
    /// than once is a set's, and must still be searched as a sorted list. Each URL repeats the
    /// item, so several patterns are satisfied at once.
    @Test func aSingleGroupOfRepeatedItemsDecidesAsTheRulesInTurn() throws {
        var generator = SplitMix64(seed: 0x1E7)
        let patterns = ["b", "*", "?*", "b*", "*b", "?", "??", "bb", "", "*c*"]
        for _ in 0..<200 {
            let rules = Int.random(in: 2...16, using: &generator)
            let items = (0..<rules).map { _ in
                AASAQueryItem(name: "a", pattern: patterns.randomElement(using: &generator)!)
            }
            let excluded = (0..<rules).map { _ in Bool.random(using: &generator) }
            let (apple, android) = LazyRuleIndex.$triesPerRuleForTests.withValue(0) {
                (
                    CompiledAASA(
                        AASADocument(
                            applinks: AppLinksSection(details: [
                                AASADetails(
                                    appIDs: ["T.a"],
                                    components: zip(items, excluded).map { item, exclude in
                                        var component = AASAComponent(path: "*", query: .items([item]))
                                        component.exclude = exclude
                                        return component
                                    })
                            ]))),
                    CompiledDynamicRules(
                        zip(items, excluded).map { DynamicComponent(query: [$0], exclude: $1) })
                )
            }
            for _ in 0..<20 {
                let values = (0..<Int.random(in: 2...4, using: &generator)).map { _ in
                    "a=" + Self.text(["b", "c"], 0...2, &generator)
                }
                let url = try #require(LinkURL("/x?" + values.joined(separator: "&")))
                var traced = apple.decision(for: url, appID: "T.a", tracing: true)
                traced.trace = []
                #expect(apple.decision(for: url, appID: "T.a") == traced, "\(url) on \(items.map(\.pattern))")
                var tracedAndroid = android.decision(for: url, tracing: true)
                tracedAndroid.trace = []
                #expect(android.decision(for: url) == tracedAndroid, "\(url) on \(items.map(\.pattern))")
            }
        }
    }

    /// A list decides its first URLs rule by rule and builds its index once it has tried each
    /// rule twice: every answer is the traced one on both sides of the switch, for both
    /// platforms.
    @Test func theFirstURLsAreDecidedRuleByRuleThenByTheIndex() throws {
        var generator = SplitMix64(seed: 0x1A2)
        for _ in 0..<40 {
            let (compiled, android) = LazyRuleIndex.$triesPerRuleForTests.withValue(2) {
                (
                    CompiledAASA(Self.randomDocument(&generator, rules: 12)),
                    CompiledDynamicRules(
                        (0..<12).map { _ in
                            DynamicComponent(
                                path: "/" + Self.text(Self.pathAlphabet, 0...5, &generator),
                                exclude: Bool.random(using: &generator))
                        })
                )
            }
            // Only the first entry holding the app is asked every time.
            let first = compiled.entries[0]
            var switched: Int?
            for decided in 0..<60 {
                let text = Self.url(&generator)
                let url = try #require(LinkURL(text))
                if switched == nil && first.index.isBuilt { switched = decided }
                let indexed = compiled.decision(for: url, appID: "T.a")
                var traced = compiled.decision(for: url, appID: "T.a", tracing: true)
                traced.trace = []
                #expect(indexed == traced, "\(text) after \(decided)")
                var tracedAndroid = android.decision(for: url, tracing: true)
                tracedAndroid.trace = []
                #expect(android.decision(for: url) == tracedAndroid, "\(text) after \(decided)")
            }
            // Each URL tries at least one of the entry's k rules and at most all: the index is
            // built for the third URL at the earliest and for the (2k + 1)th at the latest.
            let latest = 2 * first.rules.count + 1
            if !first.rules.isEmpty {
                #expect((3...latest).contains(switched ?? -1), "switched at \(String(describing: switched))")
            }
        }
    }

    /// A pattern spelt NFC and the same pattern spelt NFD are two patterns of the index: each
    /// matches its own spelling of a path only, as trying the rules in turn finds.
    @Test func patternsRespeltInAnotherUnicodeFormAreTwoPatternsOfTheIndex() throws {
        let (composed, decomposed) = ("/caf\u{E9}", "/cafe\u{301}")
        let apple = LazyRuleIndex.$triesPerRuleForTests.withValue(0) {
            CompiledAASA(
                AASADocument(
                    applinks: AppLinksSection(details: [
                        AASADetails(
                            appIDs: ["T.a"],
                            components: [
                                AASAComponent(path: composed, exclude: true), AASAComponent(path: decomposed),
                            ])
                    ])))
        }
        let android = LazyRuleIndex.$triesPerRuleForTests.withValue(0) {
            CompiledDynamicRules([
                DynamicComponent(path: composed, exclude: true), DynamicComponent(path: decomposed),
            ])
        }
        for (text, outcome) in [(composed, LinkOutcome.exclude), (decomposed, .match)] {
            let url = try #require(LinkURL(text))
            #expect(apple.decision(for: url, appID: "T.a").outcome == outcome, "\(text.unicodeScalars.count)")
            #expect(android.decision(for: url).outcome == outcome, "\(text.unicodeScalars.count)")
        }
        #expect(apple.entries[0].index.isBuilt && android.index.isBuilt)
    }

    /// A URL long enough that trying every rule in turn could cost more than building the index
    /// gets the index at once.
    @Test func aLongURLBuildsTheIndexAtOnce() throws {
        let rules = (0..<100).map { AASAComponent(path: "*a\($0)*b*c*") }
        let compiled = CompiledAASA(
            AASADocument(applinks: AppLinksSection(details: [AASADetails(appIDs: ["T.a"], components: rules)])))
        let short = try #require(LinkURL("/a7xbyc"))
        #expect(compiled.decision(for: short, appID: "T.a").outcome == .match)
        #expect(!compiled.entries[0].index.isBuilt)
        let long = try #require(LinkURL("/" + String(repeating: "x", count: LazyRuleIndex.linearScalars / 100)))
        #expect(compiled.decision(for: long, appID: "T.a").outcome == .noMatch)
        #expect(compiled.entries[0].index.isBuilt)
    }
}
