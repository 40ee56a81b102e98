import Testing

@testable import LinkwrightCore

/// Texts Swift holds equal (canonical equivalence) name different rules and URLs when their
/// scalars differ: `ExactText` and the vocabulary's equalities tell them apart.
@Suite struct ExactTextTests {
    static let (composed, decomposed) = ("/caf\u{E9}", "/cafe\u{301}")

    @Test func canonicallyEquivalentTextsAreNotExactlyEqual() {
        #expect(Self.composed == Self.decomposed, "Swift's own equality, which the rest must not rely on")
        #expect(ExactText(Self.composed) != ExactText(Self.decomposed))
        #expect(ExactText(Self.composed) == ExactText("/caf\u{E9}"))
        #expect(Set([ExactText(Self.composed), ExactText(Self.decomposed)]).count == 2)
    }

    @Test func keysAreASCIIAndEqualOnlyForExactlyEqualTexts() {
        #expect(ExactText.key("/products/*") == "/products/*")
        #expect(ExactText.key(Self.composed) == "/caf\\u{e9}")
        #expect(ExactText.key(Self.decomposed) == "/cafe\\u{301}")
        // A backslash is escaped, so ASCII that reads like an escape stays apart.
        #expect(ExactText.key("/caf\\u{e9}") == "/caf\\\\u{e9}")
        #expect(ExactText.key(Self.composed).unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func rulesAndURLsCompareTheirTextsExactly() {
        #expect(AASAComponent(path: Self.composed) != AASAComponent(path: Self.decomposed))
        #expect(AASAComponent(path: "/a") == AASAComponent(path: "/a"))
        #expect(AASAQuery.whole(Self.composed) != AASAQuery.whole(Self.decomposed))
        #expect(
            AASAQueryItem(name: "q", pattern: Self.composed) != AASAQueryItem(name: "q", pattern: Self.decomposed))
        #expect(
            AASAVariable(name: "v", values: [Self.composed]) != AASAVariable(name: "v", values: [Self.decomposed]))
        #expect(AASADetails(paths: [Self.composed]) != AASADetails(paths: [Self.decomposed]))
        #expect(DynamicComponent(path: Self.composed) != DynamicComponent(path: Self.decomposed))
        #expect(LinkURL(Self.composed) != LinkURL(Self.decomposed))
        #expect(LinkURL("/x?\(Self.composed)") != LinkURL("/x?\(Self.decomposed)"))
    }

    /// Texts equal by their bits (a short text, or one sharing its storage) are told at once;
    /// every pair compares as its scalars do: short and long texts, copies sharing storage,
    /// the same bytes stored apart, NFC and NFD spellings, empty texts.
    @Test(arguments: [UInt64(1), 2, 3])
    func textsCompareAsTheirScalars(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let words = ["", "a", "/", "caf\u{E9}", "cafe\u{301}", "*", "a-path-segment-long-enough"]
        var texts: [String] = []
        for _ in 0..<60 {
            let text = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                words.randomElement(using: &generator)!
            }.joined()
            texts.append(text)
            texts.append(String(decoding: Array(text.utf8), as: UTF8.self))
            texts.append(text.precomposedStringWithCanonicalMapping)
        }
        var (same, differing) = (0, 0)
        for _ in 0..<5000 {
            let one = texts.randomElement(using: &generator)!
            let other = Bool.random(using: &generator) ? one : texts.randomElement(using: &generator)!
            let expected = Array(one.unicodeScalars) == Array(other.unicodeScalars)
            #expect(
                ExactText.equal(one, other) == expected, "\(Array(one.unicodeScalars)) \(Array(other.unicodeScalars))")
            if expected { same += 1 } else { differing += 1 }
        }
        #expect(same > 1000 && differing > 1000)
    }

    /// The exact equalities are written by hand: a stored property added later must join them.
    /// This counts the properties each compares, and fails when the type gains one.
    @Test func everyStoredPropertyIsCompared() throws {
        let counts: [(String, Int, Int)] = [
            ("AASAVariable", Mirror(reflecting: AASAVariable(name: "", values: [])).children.count, 2),
            ("AASADetails", Mirror(reflecting: AASADetails()).children.count, 6),
            ("AASAComponent", Mirror(reflecting: AASAComponent()).children.count, 7),
            ("AASAQueryItem", Mirror(reflecting: AASAQueryItem(name: "", pattern: "")).children.count, 2),
            ("DynamicComponent", Mirror(reflecting: DynamicComponent()).children.count, 6),
            ("LinkURL", Mirror(reflecting: try #require(LinkURL("/"))).children.count, 6),
        ]
        for (type, properties, compared) in counts {
            #expect(properties == compared, "\(type) has \(properties) stored properties; its == compares \(compared)")
        }
    }

    /// Query items split at `&` and `=` bytes, as `NSURLComponents` splits UTF-16 units, even
    /// where a combining mark follows the separator and makes one Character of the two.
    @Test func queryItemsSplitAtSeparatorsBeforeCombiningMarks() throws {
        let items = try #require(LinkURL("/x?a=\u{301}&\u{301}=2&b=1")).queryItems
        #expect(items.map(\.name).map { Array($0.unicodeScalars) } == [["a"], ["\u{301}"], ["b"]])
        #expect(items.map(\.value).map { Array($0.unicodeScalars) } == [["\u{301}"], ["2"], ["1"]])
    }

    /// A query dictionary's item names compare exactly too (`ComparedValues.itemValues`).
    @Test func queryItemNamesCompareExactly() throws {
        var values = ComparedValues(try #require(LinkURL("/x?caf\u{E9}=1&cafe\u{301}=2")))
        let options = PatternOptions()
        #expect(values.itemValues(named: "caf\u{E9}", options: options) == [["1"]])
        #expect(values.itemValues(named: "cafe\u{301}", options: options) == [["2"]])
    }
}
