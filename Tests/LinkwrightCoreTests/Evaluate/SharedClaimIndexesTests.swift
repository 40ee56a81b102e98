import Foundation
import Testing

@testable import LinkwrightCore

/// The evaluators of one cache take the apps' claim indexes made for the revision before when
/// what the apps claim is the same (`EnvironmentEvaluator.AppClaims`): a seeded chain of
/// revisions adding, dropping and rebinding hosts (exact and `*.`) and renaming the apps' identities
/// must index and decide every host as the revisions made alone.
@Suite struct SharedClaimIndexesTests {
    /// The hosts a revision may serve, each `*.` host with the domain of its root (which serves
    /// its files); the others serve either domain.
    static let pool = [
        "shop.example", "*.shop.example", "m.shop.example", "news.example", "*.news.example", "a.news.example",
    ]
    static let fixedDomain = [
        "shop.example": "shop", "*.shop.example": "shop", "news.example": "news", "*.news.example": "news",
    ]

    static func files(hosts: [(host: String, domain: String)], suffix: String) -> [SourceFile] {
        // An iOS app reading the shop's rules and an Android app reading the news', so a host
        // bound to another domain changes what one platform's app claims only.
        let apps =
            "  shop:\n    ios:\n      bundle_id: com.example.shop\(suffix)\n"
            + "  news:\n    android:\n      package: com.example.news\(suffix)\n      fingerprints:\n"
            + "        play-signing: \"\(RuleExampleConfiguration.fingerprint)\"\n"
        let environment =
            "tier: production\nteam_id: ABCDE12345\napps:\n" + apps + "hosts:\n"
            + hosts.map { "  \"\($0.host)\": \($0.domain)\n" }.joined()
        return [
            ("domains/shop.yaml", "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\n"),
            ("domains/news.yaml", "applinks:\n  - apps: [news]\n    rules:\n      - path: /n/*\n"),
            ("environments/production.yaml", environment),
        ].map { SourceFile(path: $0.0, bytes: Array($0.1.utf8)) }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func claimIndexesTakenFromTheRevisionBeforeIndexAsRevisionsMadeAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var hosts: [(host: String, domain: String)] = [("shop.example", "shop"), ("news.example", "news")]
        var suffix = ""
        var revisions = [Self.files(hosts: hosts, suffix: suffix)]
        for _ in 0..<16 {
            let host = Self.pool.randomElement(using: &generator)!
            let domain = Self.fixedDomain[host] ?? (Bool.random(using: &generator) ? "shop" : "news")
            switch Int.random(in: 0..<4, using: &generator) {
            case 0 where hosts.count > 1 && hosts.contains(where: { $0.host == host }):
                hosts.removeAll { $0.host == host }
            case 1: suffix = suffix.isEmpty ? ".next" : ""
            case 2: break
            default:
                if let position = hosts.firstIndex(where: { $0.host == host }) {
                    hosts[position].domain = domain
                } else {
                    hosts.insert((host, domain), at: Int.random(in: 0...hosts.count, using: &generator))
                }
            }
            revisions.append(Self.files(hosts: hosts, suffix: suffix))
        }
        let cache = RevisionCache()
        let shared = try revisions.map { try #require(cache.make($0).revision) }
        for (index, files) in revisions.enumerated() {
            let alone = try #require(RevisionCache().make(files).revision)
            let one = try #require(shared[index].evaluator("production"))
            let other = try #require(alone.evaluator("production"))
            #expect(one.iosClaims.map(\.exact) == other.iosClaims.map(\.exact), "revision \(index)")
            #expect(one.iosClaims.map(\.wildcards) == other.iosClaims.map(\.wildcards), "revision \(index)")
            #expect(one.exactFilters == other.exactFilters, "revision \(index)")
            #expect(one.wildcardFilters == other.wildcardFilters, "revision \(index)")
            #expect(one.declaredDomains == other.declaredDomains, "revision \(index)")
            #expect(
                one.declaredWildcards.map { $0.map { [$0.domain, $0.fileHost] } }
                    == other.declaredWildcards.map { $0.map { [$0.domain, $0.fileHost] } }, "revision \(index)")
            for host in Self.pool.map({ $0.replacingOccurrences(of: "*", with: "b") }) {
                for path in ["/p/1", "/n/1", "/x"] {
                    let url = try #require(LinkURL("https://" + host + path))
                    for platform in Platform.allCases {
                        let decided = one.verdicts(for: url, platform: platform).map { "\($0.identity) \($0.opens)" }
                        #expect(
                            decided
                                == other.verdicts(for: url, platform: platform).map { "\($0.identity) \($0.opens)" },
                            "revision \(index), \(url), \(platform)")
                    }
                }
            }
        }
    }
}
