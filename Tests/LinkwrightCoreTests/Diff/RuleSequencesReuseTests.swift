import Foundation
import Testing

@testable import LinkwrightCore

/// A revision's rule sequences are made as an edit of the environment's sequences made last
/// (`RuleSequences.editing`, kept by `SharedRuleLists`) where it has the same sites, domains and
/// intent filters: only its changed domains' lists are taken anew. Whatever the revisions change
/// (hosts added, dropped, moved, moved to another domain or made wildcards, a domain's rules,
/// and so its intent filters' scopes, edited and respelt, its apps or dynamic rules switched),
/// and in whatever order they are made, each revision's sequences must be those it makes alone,
/// and the structural changes between neighbours the same.
@Suite struct RuleSequencesReuseTests {
    static func environment(tier: String, suffix: String, hosts: [(String, String)]) -> String {
        var text = "tier: \(tier)\nteam_id: ABCDE12345\napps:\n"
        for app in ["shop", "news"] {
            text += """
                  \(app):
                    ios:
                      bundle_id: com.example.\(app)\(suffix)
                    android:
                      package: com.example.\(app)\(suffix)
                      fingerprints:
                        play-signing: "\(RuleExampleConfiguration.fingerprint)"

                """
        }
        return text + "hosts:\n" + hosts.map { "  \"\($0.0)\": \($0.1)\n" }.joined()
    }

    /// Every key with its rules, texts, paths and origins spelt exactly (`String`'s equality
    /// would take NFC and NFD spellings for one); `RuleSequencesEditTests` reads them too.
    static func described(_ sequences: RuleSequences) -> [String] {
        sequences.order.map { key in
            ExactText.key(
                "\(key.host) \(key.platform) \(key.app) \(key.manifest): "
                    + sequences.lists[sequences.list(of: key)!].map {
                        [$0.text, $0.path, $0.origin?.description ?? "-"].joined(separator: "|")
                    }.joined(separator: ", "))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func sequencesMadeAsEditsAreThoseOfRevisionsMadeAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let domains = ["shop", "news", "blog"]
        var serial = 0
        func rule() -> String {
            serial += 1
            let word = ["caf\u{E9}", "cafe\u{301}", "shoes"].randomElement(using: &generator)!
            return "      - path: \"/\(word)\(serial)/\(["*", "x"].randomElement(using: &generator)!)\"\n"
        }
        var rules = Dictionary(uniqueKeysWithValues: domains.map { ($0, (0..<4).map { _ in rule() }) })
        var apps = Dictionary(uniqueKeysWithValues: domains.map { ($0, "shop") })
        // Without dynamic rules, a domain's rules are its intent filters' scopes.
        var dynamic = Dictionary(uniqueKeysWithValues: domains.map { ($0, $0 != "blog") })
        var hosts = (0..<5).map { ("h\($0).example", domains.randomElement(using: &generator)!) }
        func files() -> [SourceFile] {
            var files = domains.map { domain in
                let text =
                    "applinks:\n  - apps: [\(apps[domain]!)]\n    rules:\n" + rules[domain]!.joined()
                    + (dynamic[domain]! ? "emit:\n  android_dynamic_rules: true\n" : "")
                return SourceFile(path: "domains/\(domain).yaml", bytes: Array(text.utf8))
            }
            for (tier, suffix) in [("production", ""), ("staging", ".staging")] {
                let named = hosts.map { host, domain in
                    (suffix.isEmpty ? host : host.replacingOccurrences(of: "h", with: "staging-h"), domain)
                }
                let text = Self.environment(tier: tier, suffix: suffix, hosts: named)
                files.append(SourceFile(path: "environments/\(tier).yaml", bytes: Array(text.utf8)))
            }
            return files
        }
        var revisions = [files()]
        for _ in 0..<12 {
            for _ in 0..<Int.random(in: 1...2, using: &generator) {
                let domain = domains.randomElement(using: &generator)!
                let position = Int.random(in: 0..<hosts.count, using: &generator)
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: hosts.append(("h\(Int.random(in: 0..<99, using: &generator)).example", domain))
                case 1 where hosts.count > 2: hosts.remove(at: position)
                case 2: hosts[position].1 = domain
                case 3: hosts.swapAt(position, Int.random(in: 0..<hosts.count, using: &generator))
                case 4 where !hosts[position].0.hasPrefix("*."): hosts[position].0 = "*." + hosts[position].0
                case 5: apps[domain] = apps[domain] == "shop" ? "shop, news" : "shop"
                case 9: dynamic[domain]!.toggle()
                case 6 where rules[domain]!.count > 1:
                    rules[domain]!.remove(at: Int.random(in: 0..<rules[domain]!.count, using: &generator))
                default: rules[domain]!.insert(rule(), at: Int.random(in: 0...rules[domain]!.count, using: &generator))
                }
            }
            // Hosts bound twice do not load: the first binding of each stays.
            var seen: Set<String> = []
            hosts = hosts.filter { seen.insert($0.0.replacingOccurrences(of: "*.", with: "")).inserted }
            revisions.append(files())
        }
        let alone = try revisions.map { files in
            try #require(RevisionCache().make(files).revision, "\(RevisionCache().make(files).diagnostics)")
        }
        // In order, as a changelog's walk asks, and in a shuffled order.
        let (cache, shuffledCache) = (RevisionCache(), RevisionCache())
        let made = try revisions.map { try #require(cache.make($0).revision) }
        let shuffled = try revisions.map { try #require(shuffledCache.make($0).revision) }
        let asked =
            made.indices.map { (made[$0], $0) } + made.indices.shuffled(using: &generator).map { (shuffled[$0], $0) }
        for (revision, index) in asked {
            Self.expectSequencesAlike(
                revision, alone[index], environments: ["production", "staging"], atLeast: 1,
                "seed \(seed) revision \(index)")
        }
        Self.expectStructuralDiffsAlike(made, alone, "seed \(seed)")
    }

    /// `revision`'s rule sequences in each of `environments` are those of the same revision
    /// made alone, and there are `atLeast` of them.
    static func expectSequencesAlike(
        _ revision: CachedRevision, _ alone: CachedRevision, environments: [String], atLeast: Int, _ label: String
    ) {
        for environment in environments {
            let sequences = described(revision.ruleSequences(environment))
            #expect(sequences.count >= atLeast, "\(label) \(environment)")
            #expect(sequences == described(alone.ruleSequences(environment)), "\(label) \(environment)")
        }
    }

    /// Each consecutive pair of `made` differs structurally as the same pair made alone does.
    static func expectStructuralDiffsAlike(_ made: [CachedRevision], _ alone: [CachedRevision], _ label: String) {
        for after in 1..<made.count {
            #expect(
                StructuralDiff.changes(base: made[after - 1], head: made[after])
                    == StructuralDiff.changes(base: alone[after - 1], head: alone[after]), "\(label) \(after)")
        }
    }
}
