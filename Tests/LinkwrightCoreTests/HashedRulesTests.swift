import Testing

@testable import LinkwrightCore

/// Keys hashed as an edit of the revision before (`HashedRules`, `CompiledAASA.rulesKey(_:editing:)`)
/// must equal and hash as the same lists and files hashed alone, over seeded chains of revisions
/// (rules inserted in front and elsewhere, deleted, moved, respelt between NFC and NFD, copied,
/// so where every later rule is written moves): a key hashed otherwise would miss the files and
/// lists compiled from equal rules.
@Suite struct HashedRulesTests {
    @Test(arguments: 1...40)
    func dynamicRuleListsHashAsAlone(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var earlier: HashedRules<DynamicComponent>?
        for (revision, rules) in RuleListEditTests.revisions(&generator, count: 12, duplicating: true).enumerated() {
            let edited = HashedRules(rules, editing: earlier)
            let alone = HashedRules(rules)
            #expect(edited.key == alone.key, "seed \(seed), revision \(revision)")
            #expect(edited.key.hashValue == alone.key.hashValue, "seed \(seed), revision \(revision)")
            earlier = edited
        }
    }

    /// A seeded chain of revisions of a file of two entries whose rule lists change apart, one
    /// entry's now and then empty or legacy paths, every rule written on its own line.
    static func files(seed: UInt64) -> [AASADocument] {
        var generator = SplitMix64(seed: seed)
        let chains = (0..<2).map { _ in RuleListEditTests.revisions(&generator, count: 12, duplicating: true) }
        return chains[0].indices.map { revision in
            let details = chains.map { chain in
                let components = chain[revision].map { rule in
                    AASAComponent(
                        path: rule.path, query: rule.query.map { .items($0) }, fragment: rule.fragment,
                        exclude: rule.exclude ? true : nil,
                        comment: (rule.path?.count ?? 0) % 3 == 0 ? "a \"quoted\" caf\u{E9}" : nil, origin: rule.origin)
                }
                switch Int.random(in: 0..<8, using: &generator) {
                case 0: return AASADetails(appIDs: ["ABCDE12345.com.example.shop"], paths: ["/p", "NOT /q"])
                case 1: return AASADetails(appIDs: ["ABCDE12345.com.example.shop"], components: [])
                default: return AASADetails(appIDs: ["ABCDE12345.com.example.shop"], components: components)
                }
            }
            return AASADocument(applinks: AppLinksSection(details: details))
        }
    }

    /// Files' rules keys, hashed as an edit of the key made last, as the evaluators of a
    /// changelog's revisions make them.
    @Test(arguments: 1...40)
    func fileRulesKeysHashAsAlone(seed: UInt64) throws {
        var earlier: CompiledAASA.RulesKey?
        for (revision, document) in Self.files(seed: seed).enumerated() {
            let edited = try #require(CompiledAASA.rulesKey(document, editing: earlier))
            let alone = try #require(CompiledAASA.rulesKey(document))
            #expect(edited.key == alone, "seed \(seed), revision \(revision)")
            #expect(edited.key.hashValue == alone.hashValue, "seed \(seed), revision \(revision)")
            earlier = edited
        }
    }
}

/// A file's size counted with its components sized as an edit of the revision before
/// (`AASAComponentSizes`) is the length of its text, over the same chains of revisions.
@Suite struct AASAComponentSizesTests {
    @Test(arguments: 1...40)
    func filesSizedAsEditsCountTheirText(seed: UInt64) {
        let sizes = AASAComponentSizes()
        for (revision, document) in HashedRulesTests.files(seed: seed).enumerated() {
            let size = document.renderedSize { sizes.size(of: $1, entry: $0) }
            #expect(size == document.json.rendered().utf8.count, "seed \(seed), revision \(revision)")
            #expect(size == document.renderedSize, "seed \(seed), revision \(revision)")
        }
    }
}
