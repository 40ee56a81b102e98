import Testing

@testable import LinkwrightCore

/// The indexed decision (every pattern of an entry, or of Android dynamic rules, run per part as
/// lazily built DFAs) must give the answer of trying each rule in order, as the traced decision
/// still does.
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
            let compiled = CompiledAASA(
                Self.randomDocument(&generator, rules: Int.random(in: 1...12, using: &generator)))
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
            let compiled = CompiledDynamicRules(components)
            for _ in 0..<40 {
                let text = Self.url(&generator)
                let url = try #require(LinkURL(text))
                var traced = compiled.decision(for: url, tracing: true)
                traced.trace = []
                #expect(compiled.decision(for: url) == traced, "\(text)")
            }
        }
    }
}
