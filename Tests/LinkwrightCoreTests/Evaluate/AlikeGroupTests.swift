import Testing

@testable import LinkwrightCore

/// `test` observes a path expectation once for all host groups, of any environments, that decide
/// every path alike (`EnvironmentEvaluator.DecidingKey`). Seeded fleets whose environments differ
/// in the apps they build, their apps' IDs and the rules they keep check every result
/// against the host's own evaluator deciding the URL alone.
@Suite struct AlikeGroupTests {
    private static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
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
            var text = "tier: \(position == 0 ? "production" : "staging")\nteam_id: ABCDE12345\napps:\n"
            for app in Self.apps {
                let ios = position == 0 || some(0.7)
                let android = position == 0 || some(0.7)
                guard ios || android else { continue }
                // IDs of the first environment's apps, or of the environment's own.
                let id = "com.example.\(app)" + (some(0.5) ? "" : ".\(name)")
                text += "  \(app):\n"
                if ios { text += "    ios: {bundle_id: \(id)}\n" }
                if android {
                    text += "    android: {package: \(id), fingerprints: {play-signing: \"\(Self.fingerprint)\"}}\n"
                }
            }
            text += "hosts:\n  \(name).h1.example: shop\n  \(name).h2.example: shop\n"
            if some(0.5) { text += "  \"*.\(name).w.example\": shop\n" }
            files["environments/\(name).yaml"] = text
        }
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let loaded = try #require(configuration, "\(diagnostics)")
        let (compiled, compileDiagnostics) = Compiler().compile(loaded)
        #expect(!compileDiagnostics.contains { $0.severity == .error }, "\(compileDiagnostics)")
        return (loaded, compiled)
    }

    /// What `test` must say for every expectation, platform and host, each decided alone.
    private func expected(_ configuration: Configuration, _ compiled: CompiledConfiguration) throws -> [String] {
        var lines: [String] = []
        for expectation in configuration.domains.flatMap(\.expectations) {
            let written = try #require(LinkURL(expectation.url.value))
            for platform in expectation.platforms {
                for environment in compiled.environments {
                    let declared = try #require(configuration.environment(named: environment.name))
                    let evaluator = EnvironmentEvaluator(environment)
                    for binding in declared.hosts {
                        let url = written.on(
                            host: URLSamples.host(for: binding.host.value, avoiding: declared.boundHostNames))
                        let verdicts = evaluator.verdicts(for: url, platform: platform)
                        let opening = verdicts.filter(\.opens)
                        let actual = opening.isEmpty ? "web" : opening.map(\.app).joined(separator: ", ")
                        let (passed, subject): (Bool, EnvironmentEvaluator.Verdict?)
                        switch expectation.outcome {
                        case .opensWeb: (passed, subject) = (opening.isEmpty, opening.first)
                        case .opensApp(nil):
                            (passed, subject) = (!opening.isEmpty, verdicts.first { $0.decision.origin != nil })
                        case .opensApp(let name?):
                            let app = declared.app(named: name.value)
                            guard platform == .ios ? app?.ios != nil : app?.android != nil else { continue }
                            (passed, subject) = (
                                opening.contains { $0.app == name.value }, verdicts.first { $0.app == name.value }
                            )
                        }
                        let rule = subject?.decision.origin.map { "\($0.line)" } ?? "-"
                        lines.append(
                            "\(environment.name) \(binding.host.value.name) \(platform.rawValue) \(url) \(actual) \(passed) \(rule)"
                        )
                    }
                }
            }
        }
        return lines.sorted()
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func everyHostGetsWhatItDecidesAlone(seed: UInt64) throws {
        let (configuration, compiled) = try fleet(seed: seed)
        let results = ExpectationRunner.run(configuration, compiled).map { result in
            let rule = result.decidingRule.map { "\($0.line)" } ?? "-"
            return "\(result.environment) \(result.host) \(result.platform.rawValue) \(result.url) \(result.actual) "
                + "\(result.passed) \(rule)"
        }
        #expect(results.sorted() == (try expected(configuration, compiled)))
    }
}
