import Testing

@testable import LinkwrightCore

/// `test` evaluates the environments side by side and checks the domains side by side: what it
/// reports must still come in the configuration's order, whichever finishes first. Seeded fleets
/// of five environments, the first with many more hosts than the others (so it is grouped last
/// when the environments are evaluated at once), over three domains.
@Suite struct EnvironmentOrderTests {
    private static let environments = ["production", "staging", "qa", "preview", "development"]
    private static let domains = ["shop", "blog", "help"]

    /// A fleet drawn from `seed`: every environment binds hosts of every domain in a shuffled
    /// order, under its own prefix, and builds its own part of the apps.
    private func fleet(seed: UInt64) throws -> (Configuration, CompiledConfiguration) {
        var random = SplitMix64(seed: seed)
        func some(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
        func pick(_ names: [String]) -> String { names.randomElement(using: &random)! }
        let apps = ["a0", "a1", "a2"]
        let words = ["p", "q", "beta", "x"]
        var files: [String: String] = [:]
        for domain in Self.domains {
            var text = "applinks:\n"
            // Every app in the first entry (an expectation may name any), random ones in the other.
            for entry in 0..<2 {
                let listed = entry == 0 ? apps : apps.filter { _ in some(0.6) }
                text += "  - apps: [\((listed.isEmpty ? ["a0"] : listed).joined(separator: ", "))]\n"
                text += "    rules:\n"
                for _ in 0..<3 {
                    text += "      - path: /\(pick(words))/\(some(0.5) ? pick(words) : "")*\n"
                    if some(0.2) { text += "        exclude: true\n" }
                    if some(0.3) { text += "        environments: [\(pick(Self.environments))]\n" }
                }
            }
            text += "expectations:\n"
            for index in 0..<8 {
                text += "  - url: /\(pick(words))/\(pick(words))\(index)\n"
                text += "    \(pick(["opens_app: true", "opens_web: true", "opens_app: \(pick(apps))"]))\n"
            }
            files["domains/\(domain).yaml"] = text
        }
        for (position, name) in Self.environments.enumerated() {
            var text = "tier: \(position == 0 ? "production" : pick(["staging", "development"]))\n"
            text += "team_id: ABCDE12345\n"
            text += EachHostAlone.apps(apps, of: name, buildsAll: position == 0, &random)
            let bindings = (0..<(position == 0 ? 40 : 2 + Int.random(in: 0..<4, using: &random))).map { host in
                "  \(name)-h\(host).example: \(pick(Self.domains))\n"
            }
            text += "hosts:\n" + bindings.shuffled(using: &random).joined()
            files["environments/\(name).yaml"] = text
        }
        return try EachHostAlone.load(files)
    }

    @Test(arguments: 0..<8 as Range<UInt64>)
    func checksOutcomesAndPlacesComeInTheConfigurationsOrder(seed: UInt64) throws {
        let (configuration, compiled) = try fleet(seed: seed)
        let order = Dictionary(uniqueKeysWithValues: compiled.environments.map(\.name).enumerated().map { ($1, $0) })
        let (checks, _) = ExpectationRunner.checks(configuration, compiled, keeping: .everyPlace)
        #expect(!checks.isEmpty)
        // The checks: domain by domain, each expectation on its platforms in turn.
        let written = configuration.domains.flatMap { domain in
            domain.expectations.flatMap { expectation in expectation.platforms.map { (expectation.location, $0) } }
        }
        #expect(checks.map(\.location) == written.map(\.0))
        #expect(checks.map(\.platform) == written.map(\.1))
        // Every host of a domain here is in one situation, so its group lists them as bound.
        let bindingOrder = Dictionary(
            uniqueKeysWithValues: configuration.environments.flatMap { environment in
                environment.hosts.enumerated().map { ("\(environment.name) \($1.host.value.name)", $0) }
            })
        for check in checks {
            for outcome in check.outcomes {
                for environment in order.keys {
                    let bound = outcome.places.filter { $0.environment == environment }.map {
                        bindingOrder["\(environment) \($0.host)"]!
                    }
                    #expect(bound == bound.sorted(), "\(check.url) in \(environment)")
                }
            }
            // Each outcome's places, and the outcomes by their first place, in environment order.
            let placeOrder = check.outcomes.map { $0.places.map { order[$0.environment]! } }
            #expect(placeOrder.allSatisfy { $0 == $0.sorted() }, "\(check.url)")
            #expect(placeOrder.map { $0[0] } == placeOrder.map { $0[0] }.sorted(), "\(check.url)")
        }
        // Some outcomes span several environments, so their order is there to see.
        #expect(checks.contains { check in check.outcomes.contains { Set($0.places.segmentEnvironments).count >= 3 } })
        // And the same again, to the place.
        let again = ExpectationRunner.checks(configuration, compiled, keeping: .everyPlace).checks
        #expect(Self.places(again) == Self.places(checks))
    }

    /// Every check's outcomes and their places, as lines.
    private static func places(_ checks: [ExpectationRunner.Check]) -> [String] {
        checks.flatMap { check in
            check.outcomes.flatMap { outcome in
                outcome.places.map {
                    "\(check.location) \(check.platform) \(outcome.actual) \($0.environment) \($0.host)"
                }
            }
        }
    }
}
