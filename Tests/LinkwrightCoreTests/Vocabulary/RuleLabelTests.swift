import LinkwrightCore
import Testing

/// A rule's label is part of findings' identities, so approval fingerprints depend on its text:
/// these are the texts the label writers produced before they became `RuleLabel`.
@Suite struct RuleLabelTests {
    /// Every kind of part, alone after a path, written behind its key.
    @Test(arguments: URLPart.Key.allCases)
    func everyPartIsWrittenBehindItsKey(_ key: URLPart.Key) {
        let label: RuleLabel
        let expected: String
        switch key {
        case .path:
            label = RuleLabel(path: "/a/*")
            expected = "/a/*"
        case .query:
            label = RuleLabel(path: "*", query: .whole("ref=*"))
            expected = "* ?ref=*"
        case .queryItem:
            label = RuleLabel(path: "*", query: .items([AASAQueryItem(name: "ref", pattern: "?*")]))
            expected = "* ?ref=?*"
        case .fragment:
            label = RuleLabel(path: "*", fragment: "top")
            expected = "* #top"
        }
        #expect(label.text() == expected)
        #expect(key.name.isEmpty == false)
    }

    /// The parts in URL order, then `exclude` and the departures, each in parentheses, as
    /// `check`'s identities and the structural diff's signatures wrote them.
    @Test func theNotesFollowThePartsInParentheses() {
        let label = RuleLabel(
            path: "/p/*",
            query: RuleLabel.sortedItems([.init(name: "b", pattern: "2"), .init(name: "a", pattern: "1")]),
            fragment: "x", notes: ["exclude", "case-insensitive"])
        #expect(label.text() == "/p/* ?a=1&b=2 #x (exclude) (case-insensitive)")
    }

    /// Items keep the file's order where a person reads them beside the file (lint's messages,
    /// the expectations `import` seeds), and are sorted by name in identities.
    @Test func itemsAreSortedOnlyWhenAsked() {
        let query = AASAQuery.items([.init(name: "z", pattern: "*"), .init(name: "a", pattern: "1")])
        #expect(RuleLabel(path: "/*", query: query.label(sortingItems: false)).text() == "/* ?z=*&a=1")
        #expect(RuleLabel(path: "*", query: query.label(sortingItems: true)).text() == "* ?a=1&z=*")
        #expect(AASAQuery.ignoredDictionary.label(sortingItems: true) == nil)
    }

    /// `import`'s expectations write the parts as one URL-like text.
    @Test func withoutASeparatorThePartsReadAsAURL() {
        let label = RuleLabel(
            path: "/users/*/callback", query: .items([.init(name: "next", pattern: "*")]), fragment: "top")
        #expect(label.text(separator: "") == "/users/*/callback?next=*#top")
    }

    /// Seeded labels of every shape (no query, a whole query, items or none, a fragment, notes,
    /// any separator, text outside ASCII) read as their parts written out and joined, the
    /// contract's plain reading.
    @Test(arguments: 0..<3 as Range<UInt64>)
    func seededLabelsReadAsTheirPartsJoined(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let pieces = ["", "/", "*", "?", "a", "é", "&", "=", " ", "(", "#", "ü/*", "%20", "x=1"]
        func text() -> String {
            (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        for round in 0..<2_000 {
            let query: RuleLabel.Query? =
                switch Int.random(in: 0...2, using: &generator) {
                case 0: nil
                case 1: .whole(text())
                default:
                    .items(
                        (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                            AASAQueryItem(name: text(), pattern: text())
                        })
                }
            let label = RuleLabel(
                path: text(), query: query, fragment: Bool.random(using: &generator) ? text() : nil,
                notes: (0..<Int.random(in: 0...2, using: &generator)).map { _ in text() })
            let separator = [" ", "", " / "].randomElement(using: &generator)!
            var parts = [label.path]
            switch label.query {
            case .whole(let pattern): parts.append("?" + pattern)
            case .items(let items): parts.append("?" + items.map { $0.name + "=" + $0.pattern }.joined(separator: "&"))
            case nil: break
            }
            if let fragment = label.fragment { parts.append("#" + fragment) }
            let expected = parts.joined(separator: separator) + label.notes.map { " (" + $0 + ")" }.joined()
            #expect(label.text(separator: separator) == expected, "seed \(seed), round \(round)")
        }
    }

    /// The keys components and labels write: Apple's `/`, `?`, `#`.
    @Test func thePartsKeysAreApples() {
        #expect([URLPart.path, .query, .queryItem("q"), .fragment].map(\.description) == ["/", "?", "?q", "#"])
        #expect(URLPart.Key.allCases.map(\.name) == ["path", "query", "query item", "fragment"])
    }
}
