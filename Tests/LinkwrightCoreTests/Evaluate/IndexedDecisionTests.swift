import Testing

@testable import LinkwrightCore

/// `test` decides with numbers: each group's apps decide through rule lists numbered once per
/// group, the apps a URL opens are a set of positions, and an outcome's text is named once per
/// set. Seeded fleets with every kind of expectation (any app, a named app, the web, kept to some
/// environments, on an absolute URL) and with more apps than one word of bits holds check every
/// result against the host's own evaluator deciding the URL alone, with strings.
@Suite struct IndexedDecisionTests {
    private static let environments = ["production", "staging", "development"]

    /// A fleet of three environments drawn from `seed` with `apps` apps: the first environment
    /// builds every app on both platforms, the others a random part of them under their own IDs.
    private func fleet(seed: UInt64, apps count: Int) throws -> (Configuration, CompiledConfiguration) {
        var random = SplitMix64(seed: seed)
        func some(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
        func pick(_ names: [String]) -> String { names.randomElement(using: &random)! }
        let apps = (0..<count).map { "a\($0)" }
        let words = ["p", "q", "beta", "x"]
        var domain = "applinks:\n"
        // Every app in the first entry (an expectation may name any), random ones in the others.
        for entry in 0..<3 {
            let listed = entry == 0 ? apps : apps.filter { _ in some(0.5) }
            domain += "  - apps: [\((listed.isEmpty ? [apps[count - 1]] : listed).joined(separator: ", "))]\n"
            domain += "    rules:\n"
            for _ in 0..<4 {
                domain += "      - path: /\(pick(words))/\(some(0.5) ? pick(words) : "")*\n"
                if some(0.2) { domain += "        exclude: true\n" }
                if some(0.2) { domain += "        environments: [\(pick(Self.environments))]\n" }
            }
        }
        if some(0.5) { domain += "emit:\n  android_dynamic_rules: true\n" }
        domain += "expectations:\n"
        for index in 0..<24 {
            let path = "/\(pick(words))/\(pick(words))\(index)"
            let host = "\(pick(["", "staging.", "dev."]))h\(Int.random(in: 1...2, using: &random)).example"
            domain += "  - url: \(some(0.25) ? "https://" + host : "")\(path)\n"
            domain += "    \(pick(["opens_app: true", "opens_web: true", "opens_app: \(pick(apps))"]))\n"
            if some(0.25) { domain += "    environments: [\(pick(Self.environments))]\n" }
            if some(0.25) { domain += "    platforms: [\(pick(["ios", "android"]))]\n" }
        }
        var files = ["domains/shop.yaml": domain]
        for (position, name) in Self.environments.enumerated() {
            var text = "tier: \(name)\nteam_id: ABCDE12345\n"
            text += EachHostAlone.apps(apps, of: name, buildsAll: position == 0, &random)
            let prefix = ["", "staging.", "dev."][position]
            text += "hosts:\n  \(prefix)h1.example: shop\n  \(prefix)h2.example: shop\n"
            files["environments/\(name).yaml"] = text
        }
        return try EachHostAlone.load(files)
    }

    @Test(arguments: 0..<24 as Range<UInt64>)
    func everyKindOfExpectationIsEachHostsOwn(seed: UInt64) throws {
        let (configuration, compiled) = try fleet(seed: seed, apps: 2 + Int(seed % 4))
        let results = EachHostAlone.results(configuration, compiled)
        #expect(!results.isEmpty)
        #expect(results == (try EachHostAlone.expected(configuration, compiled)))
    }

    /// Apps past the 64th of an environment are named in order after the others.
    @Test(arguments: [101, 102] as [UInt64])
    func appsPastASixtyFourthOpenAsEachHostsOwn(seed: UInt64) throws {
        let (configuration, compiled) = try fleet(seed: seed, apps: 70)
        #expect(
            ExpectationRunner.run(configuration, compiled).contains { result in
                result.actual.split(separator: ", ").contains { (Int($0.dropFirst()) ?? 0) >= 64 }
            })
        #expect(EachHostAlone.results(configuration, compiled) == (try EachHostAlone.expected(configuration, compiled)))
    }
}
