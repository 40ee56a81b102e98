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

    /// A rule numbered `serial`, its path one of three kinds, excluding now and then.
    static func rule(_ serial: Int, using generator: inout SplitMix64) -> String {
        let path = ["/a\(serial)/*", "/b/\(serial)", "/?*\(serial % 3)"].randomElement(using: &generator)!
        let exclude = Int.random(in: 0..<4, using: &generator) == 0 ? "        exclude: true\n" : ""
        return "      - path: \"\(path)\"\n" + exclude
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func eachPackageReadsItsOwnRulesAsRevisionsMadeAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var serial = 0
        func rule() -> String {
            serial += 1
            return Self.rule(serial, using: &generator)
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
        try Self.expectDecidedAsAlone(shared, revisions, serial: serial)
    }

    /// Each revision read by the older releases in a seeded order, as a changelog's threads may
    /// read them, after every revision was compiled for the newest, its rules edited anywhere
    /// (inserted anywhere, dropped, moved, rewritten, duplicated): each reading is an edit of the
    /// reading of the rules its revision's were compiled from, found among those read last,
    /// or read anew, and decides as the revision made alone.
    @Test(arguments: [UInt64(4), 5, 6, 7])
    func readingsInAnyOrderDecideAsRevisionsMadeAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var serial = 0
        func rule() -> String {
            serial += 1
            return Self.rule(serial, using: &generator)
        }
        var lists = [(0..<6).map { _ in rule() }, (0..<6).map { _ in rule() }]
        var revisions = [Self.files(shop: lists[0], news: lists[1])]
        for _ in 0..<12 {
            for app in lists.indices where Bool.random(using: &generator) {
                var list = lists[app]
                let at = Int.random(in: 0..<list.count, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: list.insert(rule(), at: Int.random(in: 0...list.count, using: &generator))
                case 1 where list.count > 2: list.remove(at: at)
                case 2:
                    let moved = list.remove(at: at)
                    list.insert(moved, at: Int.random(in: 0...list.count, using: &generator))
                case 3: list[at] = rule()
                default:
                    let duplicate = list[at]
                    list.insert(duplicate, at: Int.random(in: 0...list.count, using: &generator))
                }
                lists[app] = list
            }
            revisions.append(Self.files(shop: lists[0], news: lists[1]))
        }
        let cache = RevisionCache()
        let shared = try revisions.map { try #require(cache.make($0).revision) }
        for revision in shared {
            for environment in ["production", "staging"] { _ = revision.evaluator(environment) }
        }
        let older = AndroidRelease.allCases.filter { $0 != .latest }
        var readings = shared.indices.flatMap { revision in older.map { (revision, $0) } }
        readings.shuffle(using: &generator)
        for (revision, release) in readings {
            for environment in ["production", "staging"] {
                _ = shared[revision].evaluator(environment, androidRelease: release)
            }
        }
        try Self.expectDecidedAsAlone(shared, revisions, serial: serial)
    }

    /// More domains than the process-wide memo of compiled rule lists holds, each served by
    /// production and staging to differently named apps, some with a rule only staging serves:
    /// staging's evaluators take production's compiled rules and their older releases' readings
    /// where the lists are equal (the same instances), compile their own where they differ, and
    /// decide every URL as the revision made in a cache of its own.
    @Test(arguments: [UInt64(8), 9])
    func environmentsShareEachDomainsEqualRules(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let domains = (0..<24).map { "d\($0)" }
        var stagingOnly: Set<String> = []
        var files: [SourceFile] = []
        for (number, domain) in domains.enumerated() {
            var rules = (0..<4).map { Self.rule(number * 10 + $0, using: &generator) }
            if Bool.random(using: &generator) {
                stagingOnly.insert(domain)
                rules.insert("      - path: /staging\(number)/*\n        environments: [staging]\n", at: 1)
            }
            let text =
                "applinks:\n  - apps: [shop]\n    rules:\n" + rules.joined() + "emit:\n  android_dynamic_rules: true\n"
            files.append(SourceFile(path: "domains/\(domain).yaml", bytes: Array(text.utf8)))
        }
        for (name, prefix, suffix) in [("production", "", ""), ("staging", "staging.", ".staging")] {
            let text =
                "tier: \(name)\nteam_id: ABCDE12345\napps:\n  shop:\n    android:\n      package: com.example.shop\(suffix)\n"
                + "      fingerprints:\n        play-signing: \"\(RuleExampleConfiguration.fingerprint)\"\nhosts:\n"
                + domains.map { "  \(prefix)\($0).example: \($0)\n" }.joined()
            files.append(SourceFile(path: "environments/\(name).yaml", bytes: Array(text.utf8)))
        }
        let revision = try #require(RevisionCache().make(files).revision)
        let alone = try #require(RevisionCache().make(files).revision)
        for release in AndroidRelease.allCases {
            let production = try #require(revision.evaluator("production", androidRelease: release))
            let staging = try #require(revision.evaluator("staging", androidRelease: release))
            let stagingAlone = try #require(alone.evaluator("staging", androidRelease: release))
            for domain in domains {
                let ours = try #require(
                    staging.compiledAssetLinks(fileHost: "staging.\(domain).example")?
                        .deciding(package: "com.example.shop.staging")?.rules)
                let theirs = try #require(
                    production.compiledAssetLinks(fileHost: "\(domain).example")?
                        .deciding(package: "com.example.shop")?.rules)
                #expect(
                    (storageAddress(ours.rules) == storageAddress(theirs.rules)) == !stagingOnly.contains(domain),
                    "\(domain), \(release)")
                for path in ["/", "/staging1/x", "/a3/x", "/b/12", "/x0", "/x1", "/x2"] {
                    let url = try #require(LinkURL("https://staging.\(domain).example" + path))
                    #expect(
                        staging.verdicts(for: url, platform: .android).map { "\($0.identity) \($0.decision)" }
                            == stagingAlone.verdicts(for: url, platform: .android).map {
                                "\($0.identity) \($0.decision)"
                            }, "\(domain), \(release), \(path)")
                }
            }
        }
    }

    /// Every URL of the rules' paths decided by `shared`'s evaluators, for every environment and
    /// release, as by each revision made in a cache of its own.
    static func expectDecidedAsAlone(_ shared: [CachedRevision], _ revisions: [[SourceFile]], serial: Int) throws {
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
