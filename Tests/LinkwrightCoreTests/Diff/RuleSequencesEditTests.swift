import Foundation
import Testing

@testable import LinkwrightCore

/// A changed domain's rule lists are signed as an edit of its files signed last
/// (`RuleSequences.SignedFiles`, kept by `SharedRuleLists`): the rules both begin and end with
/// take the earlier signatures. Whatever the edit, a revision's lists must be those it makes
/// alone, rule by rule and spelling by spelling.
@Suite struct RuleSequencesEditTests {
    /// The example's production environment with a second app, `news`.
    static let environment = RuleExampleConfiguration.production.replacingOccurrences(
        of: "hosts:\n",
        with: """
              news:
                ios:
                  bundle_id: com.example.news
                android:
                  package: com.example.news
                  fingerprints:
                    play-signing: "\(RuleExampleConfiguration.fingerprint)"
            hosts:

            """)

    /// A seeded chain of revisions inserting, deleting, moving, respelling (NFC and NFD) and
    /// excluding rules, limiting one to production (the environments then resolve the domain
    /// apart, and no longer share its rules' arrays), and changing what every rule's signature
    /// reads (the file's and the entry's defaults, the substitution variables Android's rules
    /// are written out with, the apps an entry lists), its sequences made in a shuffled order in
    /// one cache: each revision's must be those it makes alone in both environments (texts,
    /// paths and origins compared exactly), and the structural changes between neighbours the
    /// same.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func signaturesMadeAsEditsAreThoseOfRevisionsMadeAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var serial = 0
        func rule() -> String {
            serial += 1
            let word = ["caf\u{E9}", "shoes", "Sale"].randomElement(using: &generator)!
            let path = ["/\(word)\(serial)/*", "/\(word)/\(serial)", "/$(section)/\(serial)"].randomElement(
                using: &generator)!
            var text = "      - path: \"\(path)\"\n"
            if Int.random(in: 0..<4, using: &generator) == 0 { text += "        query: {\(word): \"?*\"}\n" }
            if Int.random(in: 0..<5, using: &generator) == 0 { text += "        case_sensitive: false\n" }
            if Int.random(in: 0..<5, using: &generator) == 0 { text += "        exclude: true\n" }
            return text
        }
        var rules = (0..<10).map { _ in rule() }
        var sections = ["news", "caf\u{E9}"]
        var fileDefaults = false
        var entryDefaults = false
        var apps = "shop"
        func files() -> [SourceFile] {
            var domain = "variables:\n  section: [\(sections.joined(separator: ", "))]\n"
            if fileDefaults { domain += "defaults:\n  case_sensitive: false\n" }
            domain += "applinks:\n  - apps: [\(apps)]\n"
            if entryDefaults { domain += "    defaults:\n      percent_encoded: false\n" }
            domain += "    rules:\n" + rules.joined()
            domain += "  - apps: [news]\n    rules:\n      - path: /news/*\n"
            domain += "emit:\n  android_dynamic_rules: true\n"
            return [
                SourceFile(path: "domains/shop.yaml", bytes: Array(domain.utf8)),
                SourceFile(path: "environments/production.yaml", bytes: Array(Self.environment.utf8)),
                SourceFile(path: "environments/staging.yaml", bytes: Array(RuleCompilationsTests.staging.utf8)),
            ]
        }
        var revisions = [files()]
        for _ in 0..<10 {
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<rules.count, using: &generator)
                let choice = Int.random(in: 0..<11, using: &generator)
                let random = { (range: ClosedRange<Int>) in Int.random(in: range, using: &generator) }
                if SeededRuleEdits.apply(choice, at: position, to: &rules, random: random, rule: rule) { continue }
                let limited = "        environments: [production]\n"
                switch choice {
                case 9:
                    rules[position] =
                        rules[position].contains(limited)
                        ? rules[position].replacingOccurrences(of: limited, with: "") : rules[position] + limited
                case 4:
                    rules[position] =
                        rules[position].contains("exclude")
                        ? rules[position].replacingOccurrences(of: "        exclude: true\n", with: "")
                        : rules[position] + "        exclude: true\n"
                case 5:
                    // The variables' values change, or are respelt, under unchanged rules.
                    sections[1] = SeededRuleEdits.respelt(sections[1])
                case 6: fileDefaults.toggle()
                case 7: entryDefaults.toggle()
                case 8: apps = apps == "shop" ? "shop, news" : "shop"
                default: rules.insert(rule(), at: Int.random(in: 0...rules.count, using: &generator))
                }
            }
            revisions.append(files())
        }
        let cache = RevisionCache()
        let shared = try revisions.map { try #require(cache.make($0).revision) }
        let alone = try revisions.map { try #require(RevisionCache().make($0).revision) }
        for revision in revisions.indices.shuffled(using: &generator) {
            RuleSequencesReuseTests.expectSequencesAlike(
                shared[revision], alone[revision],
                environments: ["production", "staging"].shuffled(using: &generator), atLeast: 4,
                "revision \(revision)")
        }
        RuleSequencesReuseTests.expectStructuralDiffsAlike(shared, alone, "pair")
    }

    /// The rules an edit keeps take the earlier revision's signatures (their texts' storage),
    /// so the structural diff compares them at once; the rule inserted is signed anew.
    @Test func theRulesAnEditKeepsShareTheEarlierSignatures() throws {
        func files(_ rules: [String]) -> [SourceFile] {
            RevisionCacheTests.files(shop: rules.map { "      - path: \"\($0)\"\n" }.joined())
        }
        let kept = (0..<20).map { "/products\($0)/with/a/longer/path/*" }
        let cache = RevisionCache()
        let before = try #require(cache.make(files(kept)).revision)
        let after = try #require(cache.make(files(["/sale/*"] + kept)).revision)
        func list(_ revision: CachedRevision, _ platform: Platform) throws -> [RuleSignature] {
            let sequences = revision.ruleSequences("production")
            let key = try #require(sequences.order.first { $0.platform == platform && !$0.manifest })
            return sequences.lists[sequences.list(of: key)!]
        }
        // Where a text's bytes are stored (these are too long to be stored in place).
        func textAddress(_ text: String) -> UnsafeRawPointer? {
            text.utf8.withContiguousStorageIfAvailable { $0.baseAddress.map(UnsafeRawPointer.init) } ?? nil
        }
        for platform in [Platform.ios, .android] {
            let (old, new) = try (list(before, platform), list(after, platform))
            // Android writes `/sale/*` as two components, `/sale` first (`AndroidTranslator`).
            let inserted = new.count - old.count
            #expect(old.count >= 20 && (1...2).contains(inserted))
            #expect(new.prefix(inserted).allSatisfy { $0.path.hasPrefix("/sale") })
            for (earlier, edited) in zip(old, new.dropFirst(inserted)) {
                #expect(textAddress(earlier.text) == textAddress(edited.text), "\(platform) \(edited.path)")
                #expect(edited.origin.map { $0.line } == earlier.origin.map { $0.line + 1 })
            }
        }
    }

    /// Rules holding the same bits in every stored property but their origin are the same rule
    /// written elsewhere (`Locatable.sameBitsButWhere`); equal rules held in other storage are
    /// not told by their bits, and a rule differing in any property never passes. Every stored
    /// property but the origin is read: one added to a rule and not to `fieldsButOrigin` would
    /// let rules differing in it pass for the same.
    @Test func ruleBitsTellTheSameRuleWrittenElsewhere() {
        func sameBits<Rule: Locatable>(_ one: Rule, _ other: Rule) -> Bool {
            var (one, other) = (one, other)
            return withUnsafePointer(to: &one) { one in
                withUnsafePointer(to: &other) { Rule.sameBitsButWhere(one, $0) }
            }
        }
        func storedProperties<Rule>(_ rule: Rule) -> Int { Mirror(reflecting: rule).children.count }
        let path = "/products/with/a/path/too/long/to/be/stored/in/place/*"
        let dynamic = DynamicComponent(
            path: path, query: [AASAQueryItem(name: "q", pattern: "?*")], fragment: "top", comments: "why",
            origin: SourceLocation(file: "domains/shop.yaml", line: 3, column: 7))
        var moved = dynamic
        moved.origin = SourceLocation(file: "domains/shop.yaml", line: 9, column: 7)
        var respelt = dynamic
        respelt.path = String(decoding: Array(path.utf8), as: UTF8.self)
        #expect(sameBits(dynamic, moved) && dynamic.sameButWhere(moved))
        #expect(!sameBits(dynamic, respelt) && dynamic.sameButWhere(respelt))
        var changes = [dynamic, dynamic, dynamic, dynamic, dynamic]
        changes[0].path = "/other"
        changes[1].query = nil
        changes[2].fragment = nil
        changes[3].exclude = true
        changes[4].comments = nil
        for changed in changes { #expect(!sameBits(dynamic, changed) && !sameBits(changed, dynamic)) }
        #expect(DynamicComponent.fieldsButOrigin.count == storedProperties(dynamic) - 1)

        let apple = AASAComponent(
            path: path, query: .whole("a=?*"), fragment: "top", exclude: false, comment: "why",
            origin: SourceLocation(file: "domains/shop.yaml", line: 3, column: 7))
        var appleMoved = apple
        appleMoved.origin = nil
        var appleChanges = [apple, apple, apple, apple, apple, apple]
        appleChanges[0].path = nil
        appleChanges[1].query = .whole("b=?*")
        appleChanges[2].fragment = "bottom"
        appleChanges[3].exclude = true
        appleChanges[4].flags[.caseSensitive] = false
        appleChanges[5].comment = "other"
        #expect(sameBits(apple, appleMoved))
        for changed in appleChanges { #expect(!sameBits(apple, changed)) }
        #expect(AASAComponent.fieldsButOrigin.count == storedProperties(apple) - 1)
    }
}
