import Foundation
import LinkwrightCore

/// Writes synthetic configurations of realistic shape, the same for the same seed: mostly
/// literal and prefix paths, some `?*`, query items, exclusions and substitution variables.
public struct ScaleGenerator {
    /// The sizes the benchmark issue names.
    public struct Size: Sendable, Equatable {
        public var name: String
        public var hosts: Int
        public var environments: Int
        public var rulesPerDomain: Int
        public var expectationURLs: Int
        /// How many domains share the hosts; nil for about ten hosts per environment each.
        public var domainCount: Int? = nil

        public static let smoke = Size(name: "smoke", hosts: 3, environments: 2, rulesPerDomain: 8, expectationURLs: 20)
        public static let s = Size(name: "S", hosts: 5, environments: 2, rulesPerDomain: 20, expectationURLs: 100)
        public static let m = Size(name: "M", hosts: 200, environments: 3, rulesPerDomain: 50, expectationURLs: 5_000)
        public static let l = Size(
            name: "L", hosts: 2_000, environments: 3, rulesPerDomain: 200, expectationURLs: 100_000)
        public static let all = [smoke, s, m, l]

        public static func named(_ name: String) -> Size? { all.first { $0.name.lowercased() == name.lowercased() } }

        /// `domainCount`, or domains of about ten hosts per environment each.
        public var domains: Int { domainCount ?? max(1, hosts / (environments * 10)) }
        public var hostsPerDomainPerEnvironment: Int { max(1, hosts / (environments * domains)) }
    }

    public var random: SplitMix64
    /// What `random` started from: association files for matching are drawn afresh from it.
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        random = SplitMix64(seed: seed)
    }

    static let words = [
        "shop", "news", "blog", "help", "account", "orders", "products", "offers", "events", "tickets", "search",
        "profile", "videos", "music", "maps", "docs", "store", "cart", "deals", "sport", "world", "travel", "food",
    ]
    static let tiers = ["production", "staging", "development"]

    /// `count` domain files of one rule (about 60 bytes each), each served by a host of its own:
    /// the shape that made validation quadratic in files. The hosts are split over production
    /// environments of 20,000 each, so no environment file passes the 1 MiB a file may hold.
    public static func manyDomains(_ count: Int) -> [(path: String, text: String)] {
        let perEnvironment = 20_000
        let environments = stride(from: 0, to: count, by: perEnvironment).map { first in
            let hosts = (first..<min(count, first + perEnvironment)).map { "  h\($0).example: d\($0)\n" }.joined()
            return (
                "environments/production-\(first / perEnvironment).yaml",
                "tier: production\nteam_id: ABCDE10000\napps:\n  a:\n    ios: {bundle_id: com.example.a}\nhosts:\n"
                    + hosts
            )
        }
        return environments
            + (0..<count).map { ("domains/d\($0).yaml", "applinks:\n  - apps: [a]\n    rules:\n      - path: /p/*\n") }
    }

    /// Every file of a configuration, path → text.
    public mutating func configuration(_ size: Size) -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        for environment in 0..<size.environments {
            let name = Self.tiers[environment % 3] + (environment >= 3 ? "-\(environment)" : "")
            var text = "tier: \(Self.tiers[environment % 3])\nteam_id: ABCDE\(10000 + environment)\n"
            if environment > 0 { text += "entitlements_mode: developer\n" }
            text += "apps:\n"
            for app in 0..<2 {
                let suffix = environment == 0 ? "" : ".\(name)"
                text += "  app\(app):\n    ios:\n      bundle_id: com.example.app\(app)\(suffix)\n"
                text +=
                    "    android:\n      package: com.example.app\(app)\(suffix.replacingOccurrences(of: "-", with: "_"))\n"
                text += "      fingerprints:\n        play-signing: \"\(fingerprint())\"\n"
            }
            text += "hosts:\n"
            for domain in 0..<size.domains {
                for host in 0..<size.hostsPerDomainPerEnvironment {
                    let prefix = environment == 0 ? "" : "\(name)."
                    text += "  \(prefix)h\(host).d\(domain).example: d\(domain)\n"
                }
            }
            files.append(("environments/\(name).yaml", text))
        }
        let expectationsPerDomain = max(1, size.expectationURLs / size.domains)
        for domain in 0..<size.domains {
            files.append(
                ("domains/d\(domain).yaml", domainText(rules: size.rulesPerDomain, expectations: expectationsPerDomain))
            )
        }
        return files
    }

    /// One domain: two apps, `rules` rules of the usual shapes, and expectations.
    public mutating func domainText(rules: Int, expectations: Int) -> String {
        var text = "variables:\n  section: [\(Self.words.prefix(6).joined(separator: ", "))]\n"
        text += "applinks:\n  - apps: [app0, app1]\n    rules:\n"
        var paths: [String] = []
        for index in 0..<rules {
            let (rule, path) = self.rule(index)
            text += rule
            paths.append(path)
        }
        text += "emit:\n  android_dynamic_rules: true\n  size_budget: 131072\nexpectations:\n"
        for index in 0..<expectations {
            let path = paths[next(paths.count)]
            let url = path.replacingOccurrences(of: "$(section)", with: "shop").replacingOccurrences(
                of: "*", with: "x\(index)"
            )
            .replacingOccurrences(of: "?", with: "q")
            text += "  - url: \(url)\n    opens_app: true\n    platforms: [ios]\n"
        }
        return text
    }

    /// A rule of one of the shapes real files use, and a path it matches.
    mutating func rule(_ index: Int) -> (String, String) {
        let word = Self.words[next(Self.words.count)]
        let base = "/\(word)\(index)"
        switch next(20) {
        case 0..<8: return ("      - path: \(base)\n", base)
        case 8..<14: return ("      - path: \(base)/*\n", base + "/*")
        case 14: return ("      - path: \(base)/?*\n", base + "/?*")
        case 15, 16: return ("      - path: \(base)/*\n        query: {ref: \"?*\"}\n", base + "/*")
        case 17: return ("      - path: \(base)/private/*\n        exclude: true\n", base + "/private/*")
        default: return ("      - path: /$(section)/\(word)\(index)/*\n", "/$(section)/\(word)\(index)/*")
        }
    }

    mutating func fingerprint() -> String {
        (0..<32).map { _ in
            let byte = String(next(256), radix: 16, uppercase: true)
            return byte.count == 1 ? "0" + byte : byte
        }.joined(separator: ":")
    }

    mutating func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
}
