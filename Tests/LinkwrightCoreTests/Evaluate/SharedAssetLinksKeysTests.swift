import Foundation
import Testing

@testable import LinkwrightCore

/// The evaluators of one cache hash each dynamic rule list once (`EnvironmentEvaluator.CompiledFiles`
/// keys the lists by domain and hands each file's compilation their keys), and read a revision's
/// rules for an older release as an edit of that release's reading of the revision before
/// (`CompiledDynamicRules.reading(_:editing:)`): a seeded chain of revisions of a domain whose two
/// apps read rule lists of their own, often equally long, served by production and staging, must
/// compile for each package the rules its statement holds and decide every URL as the revisions
/// made alone, as every release reads them.
@Suite struct SharedAssetLinksKeysTests {
    static func environment(_ name: String, suffix: String) -> String {
        let apps = ["shop", "news"].map { app in
            "  \(app):\n    android:\n      package: com.example.\(app)\(suffix)\n      fingerprints:\n"
                + "        play-signing: \"\(RuleExampleConfiguration.fingerprint)\"\n"
        }
        return "tier: \(name)\nteam_id: ABCDE12345\napps:\n" + apps.joined()
            + "hosts:\n  \(suffix.isEmpty ? "" : "staging.")shop.example: shop\n"
    }

    static func files(shop: [String], news: [String]) -> [SourceFile] {
        let domain =
            "applinks:\n  - apps: [shop]\n    rules:\n" + shop.joined() + "  - apps: [news]\n    rules:\n"
            + news.joined() + "emit:\n  android_dynamic_rules: true\n"
        return [
            ("domains/shop.yaml", domain),
            ("environments/production.yaml", environment("production", suffix: "")),
            ("environments/staging.yaml", environment("staging", suffix: ".staging")),
        ].map { SourceFile(path: $0.0, bytes: Array($0.1.utf8)) }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func eachPackageReadsItsOwnRulesAsRevisionsMadeAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var serial = 0
        func rule() -> String {
            serial += 1
            let path = ["/a\(serial)/*", "/b/\(serial)", "/?*\(serial % 3)"].randomElement(using: &generator)!
            let exclude = Int.random(in: 0..<4, using: &generator) == 0 ? "        exclude: true\n" : ""
            return "      - path: \"\(path)\"\n" + exclude
        }
        var lists = [(0..<4).map { _ in rule() }, (0..<4).map { _ in rule() }]
        var revisions = [Self.files(shop: lists[0], news: lists[1])]
        for _ in 0..<10 {
            // One app's list or both change, by one rule in front, or one dropped: their lengths
            // often agree while their rules differ.
            for app in lists.indices where Bool.random(using: &generator) || app == 1 {
                if Bool.random(using: &generator) || lists[app].count < 3 {
                    lists[app].insert(rule(), at: 0)
                } else {
                    lists[app].remove(at: Int.random(in: 0..<lists[app].count, using: &generator))
                }
            }
            revisions.append(Self.files(shop: lists[0], news: lists[1]))
        }
        let cache = RevisionCache()
        let shared = try revisions.map { try #require(cache.make($0).revision) }
        let alone = try revisions.map { try #require(RevisionCache().make($0).revision) }
        let paths = ["/a1/x", "/b/2", "/x0", "/x1", "/x2", "/", "/a7/", "/b/9"] + (0..<serial).map { "/a\($0)/y" }
        for revision in revisions.indices {
            for (environment, host) in [("production", "shop.example"), ("staging", "staging.shop.example")] {
                for release in AndroidRelease.allCases {
                    let one = try #require(shared[revision].evaluator(environment, androidRelease: release))
                    let other = try #require(alone[revision].evaluator(environment, androidRelease: release))
                    let file = try #require(one.compiledAssetLinks(fileHost: host))
                    let fileAlone = try #require(other.compiledAssetLinks(fileHost: host))
                    for package in one.environment.androidApps.map(\.package) {
                        #expect(
                            file.deciding(package: package)?.rules?.components.value
                                == fileAlone.deciding(package: package)?.rules?.components.value,
                            "revision \(revision), \(environment), \(release), \(package)")
                    }
                    for path in paths {
                        let url = try #require(LinkURL("https://" + host + path))
                        let decided = one.verdicts(for: url, platform: .android).map { "\($0.identity) \($0.decision)" }
                        #expect(!decided.isEmpty)
                        #expect(
                            decided
                                == other.verdicts(for: url, platform: .android).map { "\($0.identity) \($0.decision)" },
                            "revision \(revision), \(environment), \(release), \(path)")
                    }
                }
            }
        }
    }
}
