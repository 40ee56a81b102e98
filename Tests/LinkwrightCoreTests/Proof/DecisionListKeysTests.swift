import Foundation
import Testing

@testable import LinkwrightCore

/// A decision list hashes its rules' keys from hashes each rule takes once and its copies keep
/// (`ProofRule.keyHashes`): through a seeded chain of revisions made in one cache, whose lists
/// are edits of the ones before (rules inserted, dropped, moved, respelt NFC and NFD, repeated),
/// every list keeps the rules the plain computation keeps (one per test in each block, the
/// first) and its keys and signature equal those of the list made alone, hashes included.
@Suite struct DecisionListKeysTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func keysHashedFromEachRuleAreThoseOfListsMadeAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        // A small pool, so rules repeat one another's tests.
        func rule() -> String {
            let path = ["/caf\u{E9}/*", "/a/*", "/b/?*", "/c", "/d/*", "/e/*x"].randomElement(using: &generator)!
            let exclude = Int.random(in: 0..<4, using: &generator) == 0 ? "        exclude: true\n" : ""
            return "      - path: \"\(path)\"\n" + exclude
        }
        var rules = (0..<6).map { _ in rule() }
        var revisions = [RevisionCacheTests.files(shop: rules.joined())]
        for _ in 0..<10 {
            let position = Int.random(in: 0..<rules.count, using: &generator)
            let choice = Int.random(in: 0..<5, using: &generator)
            let random = { (range: ClosedRange<Int>) in Int.random(in: range, using: &generator) }
            if !SeededRuleEdits.apply(choice, at: position, to: &rules, random: random, rule: rule) {
                rules.insert(rule(), at: Int.random(in: 0...rules.count, using: &generator))
            }
            revisions.append(RevisionCacheTests.files(shop: rules.joined()))
        }
        let cache = RevisionCache()
        let shared = try revisions.map { try #require(cache.make($0).revision) }
        let alone = try revisions.map { try #require(RevisionCache().make($0).revision) }
        var ruleKeys: [HashedKey<[String]>] = []
        for revision in revisions.indices {
            for release in AndroidRelease.allCases {
                for platform in Platform.allCases {
                    let lists = try #require(
                        shared[revision].decisionLists(
                            "production", androidRelease: release, host: "shop.example", platform: platform))
                    let listsAlone = try #require(
                        alone[revision].decisionLists(
                            "production", androidRelease: release, host: "shop.example", platform: platform))
                    #expect(!lists.isEmpty)
                    for (list, listAlone) in zip(lists, listsAlone) {
                        let context = "revision \(revision), \(release), \(platform)"
                        #expect(list.ruleKeys == listAlone.ruleKeys, "\(context)")
                        #expect(list.rulesSignature == listAlone.rulesSignature, "\(context)")
                        // The rules kept are the first of each test in each block.
                        for block in list.blocks {
                            var seen: Set<String> = []
                            let tests = list.rules[block.start..<block.start + block.count].map(\.testKey)
                            #expect(tests.allSatisfy { seen.insert($0).inserted }, "\(context)")
                        }
                        ruleKeys.append(list.ruleKeys)
                    }
                }
            }
        }
        // Equal keys of different revisions' lists are equal keys, whichever list hashed them.
        for (one, other) in zip(ruleKeys, ruleKeys.dropFirst()) where one.value == other.value {
            #expect(one == other)
        }
    }
}
