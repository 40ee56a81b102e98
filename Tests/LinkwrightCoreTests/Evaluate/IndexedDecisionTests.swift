import Testing

@testable import LinkwrightCore

/// `test` decides with numbers: each group's apps decide through rule lists numbered once per
/// group, the apps a URL opens are a set of positions, and an outcome's text is named once per
/// set. Seeded fleets with every kind of expectation (any app, a named app, the web, kept to some
/// environments, on an absolute URL) and with more apps than one word of bits holds check every
/// result against the host's own evaluator deciding the URL alone, with strings.
@Suite struct IndexedDecisionTests {
    private static let fingerprint = Array(repeating: "CD", count: 32).joined(separator: ":")
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
            var text = "tier: \(name)\nteam_id: ABCDE12345\napps:\n"
            for app in apps {
                let ios = position == 0 || some(0.7)
                let android = position == 0 || some(0.7)
                guard ios || android else { continue }
                let id = "com.example.\(app)" + (some(0.5) ? "" : ".\(name)")
                text += "  \(app):\n"
                if ios { text += "    ios: {bundle_id: \(id)}\n" }
                if android {
                    text += "    android: {package: \(id), fingerprints: {play-signing: \"\(Self.fingerprint)\"}}\n"
                }
            }
            let prefix = ["", "staging.", "dev."][position]
            text += "hosts:\n  \(prefix)h1.example: shop\n  \(prefix)h2.example: shop\n"
            files["environments/\(name).yaml"] = text
        }
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let loaded = try #require(configuration, "\(diagnostics)")
        let (compiled, compileDiagnostics) = Compiler().compile(loaded)
        #expect(!compileDiagnostics.contains { $0.severity == .error }, "\(compileDiagnostics)")
        return (loaded, compiled)
    }

    /// Every check `test` must make, each decided alone on its host from the verdicts' strings.
    private func expected(_ configuration: Configuration, _ compiled: CompiledConfiguration) throws -> [String] {
        var lines: [String] = []
        for expectation in configuration.domains.flatMap(\.expectations) {
            let written = try #require(LinkURL(expectation.url.value))
            for platform in expectation.platforms {
                for environment in compiled.environments
                where expectation.environments?.contains(where: { $0.value == environment.name }) ?? true {
                    let declared = try #require(configuration.environment(named: environment.name))
                    let evaluator = EnvironmentEvaluator(environment)
                    for binding in declared.hosts {
                        let url: LinkURL
                        if let own = written.host {
                            guard HostPattern.appleEntitlement(binding.host.value.name, matches: own) else { continue }
                            url = written
                        } else {
                            url = written.on(
                                host: URLSamples.host(for: binding.host.value, avoiding: declared.boundHostNames))
                        }
                        let verdicts = evaluator.verdicts(for: url, platform: platform)
                        let opening = verdicts.filter(\.opens)
                        let actual = opening.isEmpty ? "web" : opening.map(\.app).joined(separator: ", ")
                        let (expected, passed, subject): (String, Bool, EnvironmentEvaluator.Verdict?)
                        switch expectation.outcome {
                        case .opensWeb: (expected, passed, subject) = ("web", opening.isEmpty, opening.first)
                        case .opensApp(nil):
                            (expected, passed, subject) = (
                                "an app", !opening.isEmpty, verdicts.first { $0.decision.origin != nil }
                            )
                        case .opensApp(let name?):
                            let app = declared.app(named: name.value)
                            guard platform == .ios ? app?.ios != nil : app?.android != nil else { continue }
                            (expected, passed, subject) = (
                                name.value, opening.contains { $0.app == name.value },
                                verdicts.first { $0.app == name.value }
                            )
                        }
                        let rule = subject?.decision.origin.map { "\($0.line)" } ?? "-"
                        lines.append(
                            "\(environment.name) \(binding.host.value.name) \(platform.rawValue) \(url) "
                                + "\(expected) \(actual) \(passed) \(rule)")
                    }
                }
            }
        }
        return lines.sorted()
    }

    private func results(_ configuration: Configuration, _ compiled: CompiledConfiguration) -> [String] {
        ExpectationRunner.run(configuration, compiled).map { result in
            let rule = result.decidingRule.map { "\($0.line)" } ?? "-"
            return "\(result.environment) \(result.host) \(result.platform.rawValue) \(result.url) "
                + "\(result.expected) \(result.actual) \(result.passed) \(rule)"
        }
        .sorted()
    }

    @Test(arguments: 0..<24 as Range<UInt64>)
    func everyKindOfExpectationIsEachHostsOwn(seed: UInt64) throws {
        let (configuration, compiled) = try fleet(seed: seed, apps: 2 + Int(seed % 4))
        let results = results(configuration, compiled)
        #expect(!results.isEmpty)
        #expect(results == (try expected(configuration, compiled)))
    }

    /// Apps past the 64th of an environment are named in order after the others.
    @Test(arguments: [101, 102] as [UInt64])
    func appsPastASixtyFourthOpenAsEachHostsOwn(seed: UInt64) throws {
        let (configuration, compiled) = try fleet(seed: seed, apps: 70)
        #expect(
            ExpectationRunner.run(configuration, compiled).contains { result in
                result.actual.split(separator: ", ").contains { (Int($0.dropFirst()) ?? 0) >= 64 }
            })
        #expect(results(configuration, compiled) == (try expected(configuration, compiled)))
    }
}
