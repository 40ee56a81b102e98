import Testing

@testable import LinkwrightCore

/// A size counted from a document's shape (`JSONRenderedSize`) is the length of the text
/// `JSON.rendered()` writes for the same shape: seeded values nested deep, empty and escaped,
/// and seeded association files, whose size decides Apple's limit and the size budget.
@Suite struct JSONRenderedSizeTests {
    /// Texts that need escapes, non-ASCII ones, empty ones and plain ones.
    private static let texts = [
        "", "plain", "/shop/*", "quote\"d", "back\\slash", "new\nline", "tab\t", "\u{1}", "del\u{7F}", "\u{85}",
        "line\u{2028}sep", "bidi\u{202E}", "café", "日本", "😀", "a/b?c#d",
    ]

    private static func text(_ generator: inout SplitMix64) -> String {
        texts.randomElement(using: &generator)!
            + (Bool.random(using: &generator) ? "" : texts.randomElement(using: &generator)!)
    }

    /// The same seeded value as any shape.
    private static func value<Shape: JSONShape>(_ generator: inout SplitMix64, depth: Int) -> Shape {
        let kind = depth == 0 ? Int.random(in: 0...1, using: &generator) : Int.random(in: 0...3, using: &generator)
        let count = Int.random(in: 0...4, using: &generator)
        switch kind {
        case 0: return .string(text(&generator))
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .array((0..<count).map { _ in value(&generator, depth: depth - 1) })
        default: return .object((0..<count).map { _ in (text(&generator), value(&generator, depth: depth - 1)) })
        }
    }

    @Test func aValueCountsAsItsRenderedText() {
        for seed in 0..<500 {
            var generator = SplitMix64(seed: UInt64(seed))
            let json: JSON = Self.value(&generator, depth: seed % 7)
            generator = SplitMix64(seed: UInt64(seed))
            let size: JSONRenderedSize = Self.value(&generator, depth: seed % 7)
            #expect(size.renderedSize == json.rendered().utf8.count, "seed \(seed)")
        }
    }

    @Test func aDeepValueCountsItsIndentation() {
        let json = (0..<40).reduce(JSON.object([("k", .array([.string("deep"), .bool(false)]))])) { inner, _ in
            .array([inner, .object([])])
        }
        let size = (0..<40).reduce(JSONRenderedSize.object([("k", .array([.string("deep"), .bool(false)]))])) {
            inner, _ in .array([inner, .object([])])
        }
        #expect(size.renderedSize == json.rendered().utf8.count)
    }

    private static func component(_ generator: inout SplitMix64) -> AASAComponent {
        func maybe<T>(_ make: (inout SplitMix64) -> T) -> T? {
            Bool.random(using: &generator) ? make(&generator) : nil
        }
        var flags = ComponentFlags<Bool>()
        for flag in ComponentFlag.allCases { flags[flag] = maybe { Bool.random(using: &$0) } }
        let query: AASAQuery? =
            switch Int.random(in: 0...3, using: &generator) {
            case 0: .whole(text(&generator))
            case 1:
                .items(
                    (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        AASAQueryItem(name: text(&generator), pattern: text(&generator))
                    })
            case 2: .ignoredDictionary
            default: nil
            }
        return AASAComponent(
            path: maybe(text), query: query, fragment: maybe(text), exclude: maybe { Bool.random(using: &$0) },
            flags: flags, comment: maybe(text))
    }

    private static func document(_ generator: inout SplitMix64) -> AASADocument {
        func list(_ generator: inout SplitMix64) -> [String] {
            (0..<Int.random(in: 0...3, using: &generator)).map { _ in text(&generator) }
        }
        func maybe<T>(_ make: (inout SplitMix64) -> T) -> T? {
            Bool.random(using: &generator) ? make(&generator) : nil
        }
        var document = AASADocument()
        if Int.random(in: 0...4, using: &generator) > 0 {
            document.applinks = AppLinksSection(
                legacyApps: maybe(list), defaults: maybe(component),
                substitutionVariables: (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                    AASAVariable(name: text(&generator), values: list(&generator))
                },
                details: (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    AASADetails(
                        appIDs: maybe(list), appID: maybe(text), defaults: maybe(component),
                        components: maybe { generator in
                            (0..<Int.random(in: 0...5, using: &generator)).map { _ in component(&generator) }
                        },
                        paths: maybe(list))
                })
        }
        for service in AssociatedService.appListServices { document.serviceApps[service] = maybe(list) }
        return document
    }

    @Test func anAssociationFileCountsAsItsRenderedText() {
        for seed in 0..<300 {
            var generator = SplitMix64(seed: UInt64(seed))
            let document = Self.document(&generator)
            #expect(document.renderedSize == document.json.renderedBytes().count, "seed \(seed)")
        }
    }
}
