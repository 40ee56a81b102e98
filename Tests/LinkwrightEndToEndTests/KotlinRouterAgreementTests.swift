import Foundation
import LinkwrightCore
import LinkwrightIO
import LinkwrightTestSupport
import Testing

/// The generated Kotlin routers, compiled with kotlinc and run on URLs, decide every URL as the
/// compiled configuration decides it on Android (`EnvironmentEvaluator`, what `linkwright test`
/// checks Android expectations with): a destination exactly when the device opens the app through
/// a dynamic rule naming one, and the destination and arguments that rule's route gives
/// (`RouteResolver`). Each URL is tried at API levels 34 (intent filters alone), 35 (dynamic rules
/// as Android 15 first read them) and 36 (as the newest parser reads them).
///
/// kotlinc takes tens of seconds per compile, so every router of the example and of
/// `KotlinRouterFixture` is compiled once, with one harness, and every URL goes through one run
/// of it; the tests below read their part of that run.
@Suite struct KotlinRouterAgreementTests {
    static let run: Result<KotlinRouterRun, any Error>? =
        KotlinCompiler.available ? Result { try KotlinRouterRun.make() } : nil

    private func report(_ part: KotlinRouterRun.Part) throws -> RouterComparison.Report {
        try #require(Self.run).get().reports[part]!
    }

    @Test(.enabled(if: KotlinCompiler.available, KotlinCompiler.missing))
    func theExampleRoutersAgreeWithTheAssociationFiles() throws {
        let report = try report(.exampleSamples)
        #expect(report.mismatches.isEmpty, "\(report)")
        #expect(report.destinationsSeen.isSuperset(of: ["exhibition", "ticket", "collection", "exhibitionPreview"]))
        #expect(report.destinationsSeen.isSuperset(of: ["resetPassword", "verifyEmail", "serviceStatus", "incident"]))
        #expect(report.destinationsSeen.isSuperset(of: ["oauthCallback", "oauthFailed"]))
        #expect(report.opened > 50 && report.notOpened > 50, "\(report.opened) opened, \(report.notOpened) not")
    }

    /// Random URLs from a seeded generator built from the rules' own words.
    @Test(.enabled(if: KotlinCompiler.available, KotlinCompiler.missing))
    func randomURLsAgreeWithTheCoreMatcher() throws {
        let report = try report(.exampleRandom)
        #expect(report.mismatches.isEmpty, "\(report)")
        #expect(report.opened > 100, "\(report.opened) of the random URLs open an app")
    }

    @Test(.enabled(if: KotlinCompiler.available, KotlinCompiler.missing))
    func everyRuleShapeAgreesWithTheAssociationFiles() throws {
        let report = try report(.fixture)
        #expect(report.mismatches.isEmpty, "\(report)")
        #expect(
            report.destinationsSeen.isSuperset(of: [
                "order", "search", "reviews", "category", "file", "deal", "home", "beta", "cafe", "schemeItem",
                "schemeOpen", "kioskStop",
            ]), "\(report.destinationsSeen.sorted())")
        #expect(report.noneRoutesSeen > 0, "no URL reached the route: none rule")
    }

    /// Keywords of both languages and names the router declares, as apps, domains, environments,
    /// routes and parameters, and `café` in two spellings in one query dictionary (`HostileNames`).
    @Test(.enabled(if: KotlinCompiler.available, KotlinCompiler.missing))
    func hostileNamesMakeRoutersThatCompileAndAgree() throws {
        for seed in HostileNames.seeds {
            let report = try report(.hostile(seed))
            #expect(report.mismatches.isEmpty, "seed \(seed): \(report)")
            #expect(report.opened > 20, "seed \(seed): \(report.opened) URLs open an app")
        }
    }

    /// Every component flag, at the value departing from Apple's default (`ComponentFlagFixture`):
    /// Android's dynamic rules have fixed values, which the router keeps.
    @Test(.enabled(if: KotlinCompiler.available, KotlinCompiler.missing), arguments: ComponentFlag.allCases)
    func everyComponentFlagIsReadAsTheCoreReadsIt(_ flag: ComponentFlag) throws {
        let report = try report(.flag(flag))
        #expect(report.mismatches.isEmpty, "\(flag): \(report)")
        #expect(report.opened > 10, "\(flag): \(report.opened) URLs open an app")
    }

    /// Rules looked up by the URL's host (`AndroidHostLookupFixture`), at every API level.
    @Test(.enabled(if: KotlinCompiler.available, KotlinCompiler.missing))
    func rulesAreLookedUpByTheURLsHost() throws {
        let report = try report(.hostLookup)
        #expect(report.mismatches.isEmpty, "\(report)")
        #expect(report.destinationsSeen.isSuperset(of: ["home", "account", "europe"]), "\(report.destinationsSeen)")
    }

    /// The release matters: the example's collection pages (`/?*/coleccion`) never open the app
    /// on Android 15 as first released, and open it below 35 through the intent filter.
    @Test(.enabled(if: KotlinCompiler.available, KotlinCompiler.missing))
    func theAPILevelChoosesHowDynamicRulesAreRead() throws {
        let answers = try #require(Self.run).get().collectionAnswers
        #expect(answers[34] == "collection(lang: es, section: coleccion, artwork: goya)", "\(answers)")
        #expect(answers[35] == "none", "\(answers)")
        #expect(answers[36] == "collection(lang: es, section: coleccion, artwork: goya)", "\(answers)")
    }
}

/// kotlinc and kotlin, found on PATH.
enum KotlinCompiler {
    static func tool(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let kotlinc = tool("kotlinc")
    static let kotlin = tool("kotlin")
    static var available: Bool { kotlinc != nil && kotlin != nil }
    static let missing: Comment =
        "kotlinc is not on PATH, so the generated Kotlin routers cannot be compiled: apt-get install -y kotlin (Kotlin 1.3.31), or scripts/install-deps.sh --with-kotlin as make test runs it"
}

/// One compile of every Kotlin router and one run of them on every URL, compared with the core.
struct KotlinRouterRun: Sendable {
    enum Part: Sendable, Hashable {
        case exampleSamples, exampleRandom, fixture
        /// The configuration `HostileNames` makes from a seed.
        case hostile(UInt64)
        /// `ComponentFlagFixture` with the flag departing from Apple's default.
        case flag(ComponentFlag)
        case hostLookup
    }

    /// The API levels every URL is decided at.
    static let levels = [34, KotlinRouterWriter.android15APILevel, KotlinRouterWriter.latestAPILevel]

    var reports: [Part: RouterComparison.Report] = [:]
    /// What the example's museo router answers for `/es/coleccion/goya` at each API level.
    var collectionAnswers: [Int: String] = [:]

    /// One generated router: an Android app over some environments, declared in its own package.
    struct Scope {
        var app: String
        var model: AndroidRouterModel
        /// Each compiled environment with its evaluators for the newest release and for 15-initial.
        var environments:
            [(environment: CompiledEnvironment, latest: EnvironmentEvaluator, initial: EnvironmentEvaluator)]
        var routes: [LinkwrightCore.SourceLocation: Route]
        var package: String
        var type: String { "\(package).\(KotlinRouterWriter.typeName(model))" }
    }

    static func make() throws -> KotlinRouterRun {
        let fixture = try TemporaryFolder()
        defer { fixture.remove() }
        for (path, text) in KotlinRouterFixture.files { try fixture.write(path, text) }
        let example = try RouterSampleURLs.load(RepositoryPaths.root)
        let shop = try RouterSampleURLs.load(fixture.url)
        var scopes: [Scope] = []
        var parts: [(part: Part, scopes: Range<Int>, urls: [String])] = []
        var exampleGenerator = SplitMix64(seed: 17)
        var fixtureGenerator = SplitMix64(seed: 1517)
        let exampleSamples = RouterSampleURLs(configuration: example)
        let exampleScopes = try Self.scopes(example, numberedFrom: 0)
        scopes += exampleScopes
        parts.append(
            (
                .exampleSamples, 0..<scopes.count,
                exampleSamples.expectationURLs() + exampleSamples.ruleSamples() + exampleSamples.schemeURLs()
                    + exampleSamples.malformedURLs()
            ))
        parts.append(
            (
                .exampleRandom, 0..<scopes.count,
                exampleSamples.randomURLs(count: 1500, using: &exampleGenerator)
                    + exampleSamples.randomSchemeURLs(count: 500, using: &exampleGenerator)
            ))
        let fixtureSamples = RouterSampleURLs(configuration: shop)
        let fixtureScopes = try Self.scopes(shop, numberedFrom: scopes.count)
        parts.append(
            (
                .fixture, scopes.count..<(scopes.count + fixtureScopes.count),
                fixtureSamples.expectationURLs() + fixtureSamples.ruleSamples()
                    + fixtureSamples.randomURLs(count: 1500, using: &fixtureGenerator) + fixtureSamples.schemeURLs()
                    + fixtureSamples.randomSchemeURLs(count: 500, using: &fixtureGenerator)
            ))
        scopes += fixtureScopes
        var samples = scopes.indices.map { exampleScopes.indices.contains($0) ? exampleSamples : fixtureSamples }
        // Generated configurations, each router over every environment.
        var generated: [(part: Part, files: [(path: String, text: String)], urls: (RouterSampleURLs) -> [String])] =
            HostileNames.seeds.map { seed in
                (.hostile(seed), HostileNames.configuration(seed: seed), { HostileNames.urls($0, seed: seed) })
            }
        generated += ComponentFlag.allCases.map { flag in
            (.flag(flag), ComponentFlagFixture.files(departing: flag), ComponentFlagFixture.urls)
        }
        generated.append((.hostLookup, AndroidHostLookupFixture.files, AndroidHostLookupFixture.urls))
        for (part, files, urls) in generated {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            for (path, text) in files { try folder.write(path, text) }
            let configuration = try RouterSampleURLs.load(folder.url)
            let partSamples = RouterSampleURLs(configuration: configuration)
            let partScopes = try Self.scopes(configuration, numberedFrom: scopes.count, environmentScopes: false)
            parts.append((part, scopes.count..<(scopes.count + partScopes.count), urls(partSamples)))
            scopes += partScopes
            samples += partScopes.map { _ in partSamples }
        }
        let collection = "https://museo.example/es/coleccion/goya"
        guard let museo = scopes.firstIndex(where: { $0.app == "museo" }) else {
            throw RouterTestFailure("the example has no Android router for museo")
        }

        var lines: [String] = []
        for part in parts {
            for scope in part.scopes {
                for level in levels { lines += part.urls.map { "\(scope) \(level) \($0)" } }
            }
        }
        lines += levels.map { "\(museo) \($0) \(collection)" }
        let answers = try Self.answers(scopes: scopes, lines: lines)

        var run = KotlinRouterRun()
        var index = 0
        for part in parts {
            var report = RouterComparison.Report()
            for scope in part.scopes {
                for level in levels {
                    for url in part.urls {
                        defer { index += 1 }
                        let environments = scopes[scope].model.environments.map(\.name)
                        report.record(
                            answers[index],
                            expected: expectation(url, scope: scopes[scope], level: level, samples: samples[scope]),
                            for: "\(scopes[scope].app) over \(environments) at API \(level) \(url)")
                    }
                }
            }
            run.reports[part.part] = report
        }
        for level in levels {
            run.collectionAnswers[level] = answers[index]
            index += 1
        }
        return run
    }

    /// A router per Android app naming routes, over every environment and over each alone.
    private static func scopes(_ configuration: Configuration, numberedFrom first: Int, environmentScopes: Bool = true)
        throws -> [Scope]
    {
        var scopes: [Scope] = []
        for environments in [[]] + (environmentScopes ? configuration.environments.map { [$0.name] } : []) {
            let compiled = Compiler().compile(configuration, environments: environments).compiled
            for app in compiled.environments.flatMap({ $0.androidApps.map(\.name) }).uniqued() {
                let model = try AndroidRouterModel.android(app: app, configuration: configuration, compiled: compiled)
                scopes.append(
                    Scope(
                        app: app, model: model,
                        environments: compiled.environments.map {
                            ($0, EnvironmentEvaluator($0), EnvironmentEvaluator($0, androidRelease: .android15Initial))
                        },
                        routes: configuration.routesByRule, package: "routers.scope\(first + scopes.count)"))
            }
        }
        return scopes
    }

    /// What the compiled configuration decides for `text` at `level`: whether the app opens, and
    /// the route (`none` when it does not, or opens without a destination). Of several
    /// environments, the one whose intent filters name the host most specifically decides, as the
    /// router's `claimsOf` does. Below 35 the intent filter alone opens the app, and the
    /// destination is the newest reading's.
    private static func expectation(_ text: String, scope: Scope, level: Int, samples: RouterSampleURLs) -> (
        opens: Bool, route: String
    ) {
        // A custom scheme's routes are read alike at every API level.
        let environments = scope.model.environments.map(\.name)
        if let answer = samples.schemeExpectation(text, app: scope.app, in: environments, on: .android) {
            return answer
        }
        // Android compares schemes as written (IntentFilter.matchData).
        guard text.hasPrefix("https://"), let url = LinkURL(text), let host = url.host else { return (false, "none") }
        var best: (index: Int, rank: Int)?
        for (index, environment) in scope.environments.map(\.environment).enumerated() {
            guard let app = environment.androidApps.first(where: { $0.name == scope.app }) else { continue }
            for declared in app.intentFilters.flatMap(\.hosts)
            where HostPattern.androidFilter(declared.name, matches: host) {
                let rank = declared.isWildcard ? declared.name.count : Int.max
                if rank > best?.rank ?? -1 { best = (index, rank) }
            }
        }
        guard let index = best?.index else { return (false, "none") }
        let evaluators = scope.environments[index]
        let evaluator = level == KotlinRouterWriter.android15APILevel ? evaluators.initial : evaluators.latest
        guard let verdict = evaluator.verdicts(for: url, platform: .android).first(where: { $0.app == scope.app })
        else { return (false, "none") }
        let opens = level < KotlinRouterWriter.android15APILevel ? verdict.claim != .none : verdict.opens
        guard verdict.opens else { return (opens, "none") }
        return (opens, RouterComparison.destination(decidedBy: verdict.decision.origin, routes: scope.routes, url: url))
    }

    /// Compiles every router with a harness reading `SCOPE LEVEL URL` lines and returns its
    /// answers, one per line.
    private static func answers(scopes: [Scope], lines: [String]) throws -> [String] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var sources: [URL] = []
        for (index, scope) in scopes.enumerated() {
            let source = KotlinRouterWriter.source(scope.model, package: scope.package, command: "linkwright")
            sources.append(try folder.write("Router\(index).kt", source))
        }
        sources.append(try folder.write("main.kt", harness(scopes)))
        let classes = folder.url.appendingPathComponent("classes")
        // kotlinc's default heap runs out on the routers of a score of hostile seeds at once.
        let compile = try runProcess(
            URL(fileURLWithPath: KotlinCompiler.kotlinc!),
            ["-Werror", "-J-Xmx3g"] + sources.map(\.path) + ["-d", classes.path],
            timeout: 900)
        guard compile.status == 0 else { throw RouterTestFailure("kotlinc failed:\n\(compile)") }
        let result = try runProcess(
            URL(fileURLWithPath: KotlinCompiler.kotlin!), ["-cp", classes.path, "MainKt"],
            input: Data(lines.joined(separator: "\n").utf8 + [10]), timeout: 600)
        guard result.status == 0 else { throw RouterTestFailure("the router program failed:\n\(result)") }
        let answers = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        guard answers.count == lines.count else {
            throw RouterTestFailure("\(answers.count) answers for \(lines.count) URLs:\n\(result)")
        }
        return answers
    }

    /// A `main.kt` answering each line with the destination written as `RouteValue` writes one
    /// (`ticket(id: annual, source: nil)`), or `none`.
    private static func harness(_ scopes: [Scope]) -> String {
        var text = "fun show(value: Any?): String = value?.toString() ?: \"nil\"\n"
        for (index, scope) in scopes.enumerated() {
            text += "\nprivate fun describe\(index)(destination: \(scope.type)?): String = when (destination) {\n"
            text += "    null -> \"none\"\n"
            for destination in scope.model.destinations {
                let className = KotlinRouterWriter.className(destination.name, in: scope.model)
                let arguments = destination.parameters.map {
                    "\($0.name): \" + show(destination.\(KotlinRouterWriter.identifier($0.name))) + \""
                }
                let shown =
                    arguments.isEmpty ? destination.name : "\(destination.name)(\(arguments.joined(separator: ", ")))"
                text += "    is \(scope.type).\(className) -> \"\(shown)\"\n"
            }
            text += "}\n"
        }
        text += """

            fun main() {
                val out = StringBuilder()
                while (true) {
                    val line = readLine() ?: break
                    val first = line.indexOf(' ')
                    val second = line.indexOf(' ', first + 1)
                    val scope = line.substring(0, first).toInt()
                    val level = line.substring(first + 1, second).toInt()
                    val url = line.substring(second + 1)
                    val answer = when (scope) {

            """
        for (index, scope) in scopes.enumerated() {
            text += "            \(index) -> describe\(index)(\(scope.type).parse(url, level))\n"
        }
        text += """
                        else -> throw IllegalArgumentException("unknown router " + scope)
                    }
                    out.append(answer).append('\\n')
                }
                print(out)
            }

            """
        return text
    }
}
