import Testing

@testable import LinkwrightCore

/// `test` observes a path expectation once for all host groups, of any environments, that decide
/// every path alike (`EnvironmentEvaluator.DecidingKey`). Seeded fleets whose environments differ
/// in the apps they build, their apps' IDs and the rules they keep check every result
/// against the host's own evaluator deciding the URL alone.
@Suite struct AlikeGroupTests {
    private static let apps = ["shop", "kiosk", "tv"]
    private static let paths = [
        "/p/1", "/p/private/x", "/beta/2", "/kiosk/3", "/search?q=shoes", "/search", "/tv/live#now", "/other",
    ]

    /// A domain and three to five environments drawn from `seed`: the first builds every app on
    /// both platforms (a domain's apps must exist somewhere); the others build a random part of
    /// them, under their own IDs, and rules may be kept to some environments.
    private func fleet(seed: UInt64) throws -> (Configuration, CompiledConfiguration) {
        var random = SplitMix64(seed: seed)
        let environments = (0..<Int.random(in: 3...5, using: &random)).map { "e\($0)" }
        func some(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
        func kept() -> String {
            guard some(0.4) else { return "" }
            let chosen = environments.filter { _ in some(0.5) }
            return "        environments: [\((chosen.isEmpty ? [environments[0]] : chosen).joined(separator: ", "))]\n"
        }
        var domain = "applinks:\n  - apps: [shop, kiosk]\n    rules:\n"
        domain += "      - path: /p/private/*\n        exclude: true\n" + kept()
        domain += "      - path: /beta/*\n" + kept()
        domain += "      - path: /p/*\n" + kept()
        domain += "      - path: /search\n        query: {q: \"?*\"}\n" + kept()
        domain += "  - apps: [kiosk, tv]\n    rules:\n"
        domain += "      - path: /kiosk/*\n" + kept()
        domain += "      - path: /tv/*\n" + kept()
        if some(0.5) { domain += "emit:\n  android_dynamic_rules: true\n" }
        domain += "expectations:\n"
        for path in Self.paths {
            let outcome = ["opens_app: true", "opens_web: true"] + Self.apps.map { "opens_app: \($0)" }
            domain += "  - url: \(path)\n    \(outcome.randomElement(using: &random)!)\n"
        }
        var files = ["domains/shop.yaml": domain]
        for (position, name) in environments.enumerated() {
            var text = "tier: \(position == 0 ? "production" : "staging")\nteam_id: ABCDE12345\n"
            text += EachHostAlone.apps(Self.apps, of: name, buildsAll: position == 0, &random)
            text += "hosts:\n  \(name).h1.example: shop\n  \(name).h2.example: shop\n"
            if some(0.5) { text += "  \"*.\(name).w.example\": shop\n" }
            files["environments/\(name).yaml"] = text
        }
        return try EachHostAlone.load(files)
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func everyHostGetsWhatItDecidesAlone(seed: UInt64) throws {
        let (configuration, compiled) = try fleet(seed: seed)
        #expect(EachHostAlone.results(configuration, compiled) == (try EachHostAlone.expected(configuration, compiled)))
    }
}
