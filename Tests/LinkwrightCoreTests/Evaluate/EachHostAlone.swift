import Testing

@testable import LinkwrightCore

/// What the seeded differentials of `test` share (`AlikeGroupTests`, `IndexedDecisionTests`): a
/// fleet's environments with a random part of their apps built, and every check `test` must
/// make, each decided alone on its host from its evaluator's verdicts, with strings.
enum EachHostAlone {
    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    /// The `apps:` of an environment called `name`: every app on both platforms when `buildsAll`,
    /// else each platform of each app with a probability of 0.7, under the first environment's
    /// IDs or the environment's own.
    static func apps(_ apps: [String], of name: String, buildsAll: Bool, _ random: inout SplitMix64) -> String {
        func some(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
        var text = "apps:\n"
        for app in apps {
            let ios = buildsAll || some(0.7)
            let android = buildsAll || some(0.7)
            guard ios || android else { continue }
            let id = "com.example.\(app)" + (some(0.5) ? "" : ".\(name)")
            text += "  \(app):\n"
            if ios { text += "    ios: {bundle_id: \(id)}\n" }
            if android { text += "    android: {package: \(id), fingerprints: {play-signing: \"\(fingerprint)\"}}\n" }
        }
        return text
    }

    /// `files` loaded and compiled, with no error.
    static func load(_ files: [String: String]) throws -> (Configuration, CompiledConfiguration) {
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let loaded = try #require(configuration, "\(diagnostics)")
        let (compiled, compileDiagnostics) = Compiler().compile(loaded)
        #expect(!compileDiagnostics.contains { $0.severity == .error }, "\(compileDiagnostics)")
        return (loaded, compiled)
    }

    /// Each result `test` gives, as a line: where, the URL, what was expected and got, whether
    /// it passed and the line of the deciding rule; sorted.
    static func results(_ configuration: Configuration, _ compiled: CompiledConfiguration) -> [String] {
        ExpectationRunner.run(configuration, compiled).map { result in
            line(
                result.environment, result.host, result.platform, result.url, result.expected, result.actual,
                result.passed, result.decidingRule)
        }
        .sorted()
    }

    /// What `results` must be: every expectation on every platform, environment and host it
    /// concerns (an absolute URL on the bindings serving its host), decided alone.
    static func expected(_ configuration: Configuration, _ compiled: CompiledConfiguration) throws -> [String] {
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
                        lines.append(
                            line(
                                environment.name, binding.host.value.name, platform, url.description, expected,
                                actual, passed, subject?.decision.origin))
                    }
                }
            }
        }
        return lines.sorted()
    }

    private static func line(
        _ environment: String, _ host: String, _ platform: Platform, _ url: String, _ expected: String,
        _ actual: String, _ passed: Bool, _ rule: LinkwrightCore.SourceLocation?
    ) -> String {
        "\(environment) \(host) \(platform.rawValue) \(url) \(expected) \(actual) \(passed) \(rule.map { "\($0.line)" } ?? "-")"
    }
}
