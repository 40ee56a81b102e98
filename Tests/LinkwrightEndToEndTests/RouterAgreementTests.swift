import Foundation
import LinkwrightCore
import LinkwrightIO
import LinkwrightTestSupport
import Testing

/// The generated Swift routers, compiled with swiftc and run on URLs, decide every URL as the
/// compiled association files do: a destination exactly when the device opens the app (nil for
/// `route: none`), and the destination and arguments the deciding rule's route gives
/// (`RouteResolver`, what `linkwright test` checks expectations with).
@Suite(.serialized) struct RouterAgreementTests {
    /// The example configuration; `RouterFixture` holds rule shapes the example does not use.
    @Test(.enabled(if: SwiftCompiler.available, SwiftCompiler.missing))
    func theExampleRoutersAgreeWithTheAssociationFiles() throws {
        let comparison = try RouterComparison(configuration: RepositoryPaths.root)
        let samples = comparison.samples
        let report = try comparison.run(
            urls: samples.expectationURLs() + samples.ruleSamples() + samples.schemeURLs() + samples.malformedURLs())
        #expect(report.mismatches.isEmpty, "\(report)")
        // The sample reaches every destination and every way of not opening the app.
        #expect(report.destinationsSeen.isSuperset(of: ["exhibition", "ticket", "collection", "exhibitionPreview"]))
        #expect(report.destinationsSeen.isSuperset(of: ["clipExperience", "resetPassword", "incident"]))
        #expect(report.destinationsSeen.isSuperset(of: ["oauthCallback", "oauthFailed"]))
        #expect(report.opened > 50 && report.notOpened > 50, "\(report.opened) opened, \(report.notOpened) not")
    }

    /// An invalid port is refused, and a malformed escape compared as written, as `match` does
    /// (issue 43): the router reads the URL's text, not what Foundation makes of it.
    @Test(.enabled(if: SwiftCompiler.available, SwiftCompiler.missing))
    func malformedURLsAreReadAsMatchReadsThem() throws {
        let comparison = try RouterComparison(configuration: RepositoryPaths.root, environmentScopes: false)
        let urls = [
            "https://museo.example:99999/exhibitions/x", "https://museo.example:443/exhibitions/x",
            "https://museo.example/exhibitions/%%433%A9",
        ]
        let report = try comparison.run(urls: urls)
        #expect(report.mismatches.isEmpty, "\(report)")
        let answers = urls.map { report.answers["Museo_all \($0)"] ?? "missing" }
        #expect(answers[0] == "none" && answers[1] == "exhibition(slug: x)", "\(answers)")
        #expect(answers[2].hasPrefix("exhibition(slug: %C3"), "\(answers)")
    }

    /// Random URLs from a seeded generator built from the rules' own words, compared with the
    /// core matcher.
    @Test(.enabled(if: SwiftCompiler.available, SwiftCompiler.missing))
    func randomURLsAgreeWithTheCoreMatcher() throws {
        let comparison = try RouterComparison(configuration: RepositoryPaths.root)
        var generator = SplitMix64(seed: 17)
        let report = try comparison.run(
            urls: comparison.samples.randomURLs(count: 1500, using: &generator)
                + comparison.samples.randomSchemeURLs(count: 500, using: &generator))
        #expect(report.mismatches.isEmpty, "\(report)")
        #expect(report.opened > 100, "\(report.opened) of 2000 random URLs open an app")
    }

    /// Case-insensitive and decoded rules, whole-query and fragment patterns, entry defaults,
    /// custom variables holding wildcards, predefined variables, int parameters, `route: none`,
    /// several entries for one app and nested wildcard claims.
    @Test(.enabled(if: SwiftCompiler.available, SwiftCompiler.missing))
    func everyRuleShapeAgreesWithTheAssociationFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (path, text) in RouterFixture.files { try folder.write(path, text) }
        let comparison = try RouterComparison(configuration: folder.url)
        var generator = SplitMix64(seed: 1517)
        let urls =
            comparison.samples.expectationURLs() + comparison.samples.ruleSamples()
            + comparison.samples.randomURLs(count: 1500, using: &generator) + comparison.samples.schemeURLs()
            + comparison.samples.randomSchemeURLs(count: 500, using: &generator)
        let report = try comparison.run(urls: urls)
        #expect(report.mismatches.isEmpty, "\(report)")
        #expect(
            report.destinationsSeen.isSuperset(of: ["order", "search", "item", "section", "tour", "stop", "guide"]))
        #expect(report.destinationsSeen.isSuperset(of: ["schemeItem", "schemeOpen", "kioskStop"]))
        #expect(report.noneRoutesSeen > 0, "no URL reached the route: none rule")
    }
}

/// swiftc, found on PATH.
enum SwiftCompiler {
    static let path: String? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()
    static var available: Bool { path != nil }
    /// Swift 6 language mode with complete concurrency checking, every warning an error: what the
    /// generated code must compile under in an app.
    static let strictSwift6 = ["-swift-version", "6", "-strict-concurrency=complete", "-warnings-as-errors"]
    static let missing: Comment = "swiftc is not on PATH, so the generated routers cannot be compiled"
}

/// One configuration's routers, for every app and for every environment alone and all together,
/// compiled into one program, and what the compiled model decides for the same URLs.
struct RouterComparison {
    let configuration: Configuration
    let scopes: [Scope]
    /// Every rule's route, by the rule's location: what decisions name.
    let routes: [LinkwrightCore.SourceLocation: Route]

    /// One generated router: an app over some environments.
    struct Scope {
        var app: String
        var environments: [String]
        var model: RouterModel
        var evaluators: [EnvironmentEvaluator]
        /// The router's type names in the test program, made unique per scope.
        var tag: String { GeneratedTypeName.of(app) + "_" + (environments.first ?? "all") }
    }

    /// The URLs the routers are tried on.
    var samples: RouterSampleURLs { RouterSampleURLs(configuration: configuration) }

    /// The routers of the configuration at `root` over every environment, and over each alone
    /// when `environmentScopes`.
    init(configuration root: URL, environmentScopes: Bool = true) throws {
        let configuration = try RouterSampleURLs.load(root)
        self.configuration = configuration
        routes = configuration.routesByRule
        var scopes: [Scope] = []
        let alone = environmentScopes ? configuration.environments.map { [$0.name] } : []
        for environments in [[]] + alone {
            let compiled = Compiler().compile(configuration, environments: environments).compiled
            for app in compiled.environments.flatMap({ $0.iosApps.map(\.name) }).uniqued() {
                let model = try RouterModel.ios(app: app, configuration: configuration, compiled: compiled)
                scopes.append(
                    Scope(
                        app: app, environments: environments, model: model,
                        evaluators: compiled.environments.map { EnvironmentEvaluator($0) }))
            }
        }
        self.scopes = scopes
    }

    // MARK: Running

    struct Report: CustomStringConvertible {
        var mismatches: [String] = []
        var opened = 0
        var notOpened = 0
        var noneRoutesSeen = 0
        var destinationsSeen: Set<String> = []
        /// Each router's answer by `TAG URL` (Swift) or label.
        var answers: [String: String] = [:]

        /// Counts one router answer and keeps it when it is not what the core decided.
        mutating func record(_ answer: String, expected: (opens: Bool, route: String), for label: String) {
            if expected.opens { opened += 1 } else { notOpened += 1 }
            if expected.opens && expected.route == "none" { noneRoutesSeen += 1 }
            if let name = answer.split(separator: "(").first, answer != "none" {
                destinationsSeen.insert(String(name))
            }
            answers[label] = answer
            if answer != expected.route {
                mismatches.append("\(label): router \(answer), association files \(expected.route)")
            }
        }

        var description: String {
            "\(mismatches.count) mismatches (\(opened) opened, \(notOpened) not):\n"
                + mismatches.prefix(25).joined(separator: "\n")
        }
    }

    /// Compiles every router with a harness reading `TAG URL` lines, runs it on every URL for
    /// every scope, and compares each answer with the compiled model's.
    func run(urls: [String]) throws -> Report {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var sources: [URL] = []
        for scope in scopes {
            sources.append(try folder.write("\(scope.tag).swift", renamed(scope)))
        }
        sources.append(try folder.write("main.swift", harness()))
        let binary = folder.url.appendingPathComponent("routers")
        // Apps compile in either language mode; a warning in either is a failure too.
        let typecheck = try runProcess(
            URL(fileURLWithPath: SwiftCompiler.path!),
            ["-typecheck", "-swift-version", "5", "-warnings-as-errors"] + sources.map(\.path), timeout: 600)
        guard typecheck.status == 0 else { throw RouterTestFailure("swiftc -swift-version 5 failed:\n\(typecheck)") }
        let compile = try runProcess(
            URL(fileURLWithPath: SwiftCompiler.path!),
            SwiftCompiler.strictSwift6 + ["-Onone", "-o", binary.path] + sources.map(\.path), timeout: 600)
        guard compile.status == 0 else { throw RouterTestFailure("swiftc failed:\n\(compile)") }
        let lines = scopes.flatMap { scope in urls.map { "\(scope.tag) \($0)" } }
        let result = try runProcess(binary, [], input: Data(lines.joined(separator: "\n").utf8 + [10]), timeout: 600)
        guard result.status == 0 else { throw RouterTestFailure("the router program failed:\n\(result)") }
        let answers = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard answers.count == lines.count else {
            throw RouterTestFailure("\(answers.count) answers for \(lines.count) URLs")
        }
        var report = Report()
        var index = 0
        for scope in scopes {
            for url in urls {
                defer { index += 1 }
                let answer = String(answers[index])
                report.record(answer, expected: expectation(url, scope: scope), for: "\(scope.tag) \(url)")
            }
        }
        return report
    }

    /// What the compiled model decides for `url` in `scope`: whether the app opens, and the
    /// route (`none` when it does not, or opens without a destination). Over several
    /// environments, the environment claiming the host most specifically decides, as the
    /// router's host lookup does.
    func expectation(_ text: String, scope: Scope) -> (opens: Bool, route: String) {
        if let answer = samples.schemeExpectation(text, app: scope.app, in: scope.environments, on: .ios) {
            return answer
        }
        guard let url = LinkURL(text), url.scheme == "https" else { return (false, "none") }
        var best: (verdict: EnvironmentEvaluator.Verdict, rank: Int)?
        for evaluator in scope.evaluators {
            guard let verdict = evaluator.verdicts(for: url, platform: .ios).first(where: { $0.app == scope.app })
            else { continue }
            let rank: Int
            switch verdict.claim {
            case .exact: rank = Int.max
            case .wildcard(let entry): rank = entry.count
            case .none: continue
            }
            if rank > best?.rank ?? -1 { best = (verdict, rank) }
        }
        guard let verdict = best?.verdict, verdict.opens else { return (false, "none") }
        return (true, Self.destination(decidedBy: verdict.decision.origin, routes: routes, url: url))
    }

    /// The destination a router returns for `url`, which the rule at `origin` opened, written as
    /// `RouteValue` writes it; `none` when the rule names none or the router has none.
    static func destination(
        decidedBy origin: LinkwrightCore.SourceLocation?, routes: [LinkwrightCore.SourceLocation: Route], url: LinkURL
    ) -> String {
        guard let origin, let route = routes[origin], case .success(let value) = RouteResolver.resolve(route, url: url)
        else { return "none" }
        return shown(value, of: route)
    }

    /// `value` as a router prints it: `none` without a destination, and numbers without the
    /// text's sign or leading zeros, since the router holds them as numbers.
    static func shown(_ value: RouteValue, of route: Route) -> String {
        guard value.destination != nil else { return "none" }
        var value = value
        for (position, parameter) in route.parameters.enumerated() where parameter.type == .int {
            value.arguments[position].value = value.arguments[position].value.flatMap { Int($0) }.map(String.init)
        }
        return value.description
    }

    // MARK: The program

    /// The generated source with its two type names made unique to the scope.
    private func renamed(_ scope: Scope) -> String {
        let type = GeneratedTypeName.of(scope.app)
        let source = SwiftRouterWriter.source(scope.model, command: "linkwright generate swift")
        return source.replacingOccurrences(of: "\(type)Router", with: "\(scope.tag)Router")
            .replacingOccurrences(of: "\(type)Destination", with: "\(scope.tag)Destination")
    }

    /// A `main.swift` answering `TAG URL` lines with the router's destination for the text,
    /// written as `RouteValue` writes one (`ticket(id: annual, source: nil)`), or `none`. Where
    /// Foundation takes the text as a `URL` and keeps it as written, `destination(for: URL)` must
    /// answer alike (`url differs` otherwise).
    private func harness() -> String {
        var text = """
            import Foundation

            func show(_ value: String?) -> String { value ?? "nil" }
            func show(_ value: Int?) -> String { value.map(String.init) ?? "nil" }

            func answer(_ tag: String, _ text: String) -> String {
                switch tag {

            """
        for scope in scopes {
            text += """
                    case "\(scope.tag)":
                        let answer = describe(\(scope.tag)Router.destination(for: text))
                        guard let url = URL(string: text), url.absoluteString == text else { return answer }
                        return describe(\(scope.tag)Router.destination(for: url)) == answer ? answer : "url differs"

                """
        }
        text += "    default: fatalError(\"unknown router \\(tag)\")\n    }\n}\n"
        for scope in scopes {
            text += "\nfunc describe(_ destination: \(scope.tag)Destination?) -> String {\n"
            text += "    guard let destination else { return \"none\" }\n    switch destination {\n"
            for destination in scope.model.destinations {
                let names = destination.parameters.map(\.name)
                let name = SwiftRouterWriter.identifier(destination.name)
                if names.isEmpty {
                    text += "    case .\(name): return \"\(destination.name)\"\n"
                    continue
                }
                let bindings = names.map { "let \(SwiftRouterWriter.identifier($0))" }.joined(separator: ", ")
                let shown = names.map { "\($0): \\(show(\(SwiftRouterWriter.identifier($0))))" }
                text +=
                    "    case .\(name)(\(bindings)): return \"\(destination.name)(\(shown.joined(separator: ", ")))\"\n"
            }
            text += "    }\n}\n"
        }
        text += """

            while let line = readLine() {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                print(answer(parts[0], parts.count == 2 ? parts[1] : ""))
            }

            """
        return text
    }
}

/// The URLs both platforms' routers are compared with the core on, made from one configuration's
/// hosts, rules and expectations.
struct RouterSampleURLs {
    let configuration: Configuration

    static func load(_ root: URL) throws -> Configuration {
        guard let configuration = try ConfigLoader().load(from: DiskSourceTree(root: root)).configuration else {
            throw RouterTestFailure("the configuration at \(root.path) does not load")
        }
        return configuration
    }

    /// The hosts URLs are tried on: every host bound, a subdomain under each wildcard, a nested
    /// one, an upper-case spelling, and a host nobody claims.
    var hosts: [String] {
        let bound = configuration.environments.flatMap(\.hosts).map(\.host.value)
        var hosts = bound.map { URLSamples.host(for: $0, avoiding: Set(bound.map(\.name))) }
        hosts += bound.filter(\.isWildcard).map { "a.b." + $0.fileHost.name }
        hosts += bound.prefix(1).map { $0.fileHost.name.uppercased() }
        return (hosts + ["unclaimed.example"]).uniqued()
    }

    /// Text Foundation's `URL` reads differently from `match` on some platforms, on every host:
    /// ports out of range or not a number (refused), a user name (refused), malformed escapes and
    /// raw non-ASCII text (compared as written), and a good port beside them.
    func malformedURLs() -> [String] {
        let paths =
            ["/%%433%A9/news", "/exhibitions/%%433%A9", "/exhibitions/%zz", "/tickets/a%?source=%E9x"]
            + ["/es/coleccion/%%433%A9", "/exhibitions/caf\u{E9}", "/exhibitions/cafe\u{301}?source=caf\u{E9}"]
        let ports = [":99999", ":65536", ":-1", ":", ":+443", ":443", ":0x1"]
        return hosts.flatMap { host in
            paths.map { "https://\(host)\($0)" }
                + ports.map { "https://\(host)\($0)/exhibitions/x" }
                + ["https://user@\(host)/exhibitions/x", "https://\(host):99999/tickets/x?source=a"]
        }
    }

    /// Every expectation's URL, on every host (a path) or as written (an absolute URL).
    func expectationURLs() -> [String] {
        configuration.domains.flatMap(\.expectations).flatMap { expectation -> [String] in
            let url = expectation.url.value
            return url.hasPrefix("/") ? hosts.map { "https://\($0)\(url)" } : [url]
        }
    }

    /// For every rule, a URL its patterns match (with the query items and fragments the domain's
    /// rules name, `URLSamples`) and near misses of it: a letter changed, upper case, percent-
    /// encoded, a trailing slash, a segment more or less, on every host and over plain HTTP.
    func ruleSamples() -> [String] {
        var paths: [String] = []
        for domain in configuration.domains {
            let variables = domain.variables.map { AASAVariable(name: $0.name.value, values: $0.values.map(\.value)) }
            for rule in domain.applinks.flatMap(\.rules) {
                let path = URLSamples.instance(of: rule.path?.value ?? "/", variables: variables)
                var variants = [path, path + "/", path + "/x", path + "x", String(path.dropLast()), path.uppercased()]
                variants += [path.replacingOccurrences(of: "/", with: "//"), encodingFirstLetter(path)]
                if let cut = path.dropLast().lastIndex(of: "/") { variants.append(String(path[..<cut])) }
                paths += variants.flatMap { URLSamples.around(path: $0.isEmpty ? "/" : $0, in: domain) }
            }
        }
        let urls = paths.uniqued().flatMap { path in hosts.map { "https://\($0)\(path)" } }
        return urls + urls.prefix(40).map { "http" + $0.dropFirst("https".count) }
    }

    // MARK: Custom schemes

    /// What a router of `app` over `environments` (every one when empty) must answer for a URL of
    /// a custom scheme, `nil` for any other text: the app opens when it declares the scheme in one
    /// of them (iOS reads schemes without case, Android exactly), at the destination
    /// `CompiledSchemeRoutes` gives.
    func schemeExpectation(_ text: String, app: String, in environments: [String], on platform: Platform) -> (
        opens: Bool, route: String
    )? {
        guard let url = LinkURL.customScheme(text) else { return nil }
        for environment in configuration.environments
        where environments.isEmpty || environments.contains(environment.name) {
            guard
                let declared = environment.apps(receiving: url, on: platform).first(where: { $0.app.name.value == app })
            else { continue }
            let answer = CompiledSchemeRoutes(declared.scheme).answer(for: url)
            guard case .route(let value, let origin) = answer,
                let route = declared.scheme.routes.first(where: { $0.location == origin })?.route
            else { return (true, "none") }
            return (true, RouterComparison.shown(value, of: route))
        }
        return (false, "none")
    }

    /// The schemes URLs are tried on: every one declared, an upper-case spelling, and one nobody
    /// declares.
    private var schemes: [String] {
        let declared = configuration.environments.flatMap { $0.apps.flatMap(\.schemes) }.map(\.name.value)
        return (declared + declared.prefix(1).map { $0.uppercased() } + ["com.example.undeclared"]).uniqued()
    }

    /// Every scheme route entry of every app.
    private var schemeRoutes: [Rule] {
        configuration.environments.flatMap { $0.apps.flatMap(\.schemes) }.flatMap(\.routes)
    }

    /// Every scheme expectation's URL, and for every scheme route entry a URL it matches and near
    /// misses of it (as `ruleSamples` makes them), with none, all, each and empty query items the
    /// entries name, on every scheme, and with an authority (`scheme://`).
    func schemeURLs() -> [String] {
        var urls = configuration.environments.flatMap { $0.apps.flatMap(\.schemes) }.flatMap(\.expectations)
            .map(\.url.value)
        let names = Set(
            schemeRoutes.flatMap { rule -> [String] in
                guard case .items(let items)? = rule.query?.value else { return [] }
                return items.map(\.name)
            }
        ).sorted()
        let queries =
            [""] + ["?" + names.map { "\($0)=v" }.joined(separator: "&")] + names.map { "?\($0)=v\($0)" }
            + ["?" + names.map { "\($0)=" }.joined(separator: "&"), "?x=1"]
        for rule in schemeRoutes {
            let path = URLSamples.instance(of: rule.path?.value ?? "/")
            var variants = [path, path + "/", path + "/x", path + "x", String(path.dropLast()), path.uppercased()]
            variants += [String(path.drop { $0 == "/" }), encodingFirstLetter(path), "/x" + path]
            for variant in variants {
                for scheme in schemes {
                    urls += queries.map { scheme + ":" + variant + $0 }
                    urls.append(scheme + "://" + variant.drop { $0 == "/" } + queries[1])
                }
            }
        }
        return urls.uniqued()
    }

    /// Random URLs of the schemes made of the words their routes use.
    func randomSchemeURLs(count: Int, using generator: inout SplitMix64) -> [String] {
        var words: Set<String> = ["x", "42", "-7", "007", "%C3%A9", "%2F", ""]
        var itemNames: Set<String> = ["x"]
        for rule in schemeRoutes {
            words.formUnion((rule.path?.value ?? "").split(whereSeparator: { "/*?".contains($0) }).map(String.init))
            if case .items(let items)? = rule.query?.value { itemNames.formUnion(items.map(\.name)) }
        }
        let vocabulary = words.sorted()
        let names = itemNames.sorted()
        let schemes = self.schemes
        func pick<T>(_ list: [T]) -> T { list[Int(generator.next() % UInt64(list.count))] }
        func chance(_ percent: UInt64) -> Bool { generator.next() % 100 < percent }
        return (0..<count).map { _ in
            var url = pick(schemes) + (chance(10) ? "://" : ":")
            for _ in 0..<Int(generator.next() % 4) { url += (chance(90) ? "/" : "") + pick(vocabulary) }
            if chance(15) { url += "/" }
            if chance(60) {
                let items = (0..<Int(1 + generator.next() % 3)).map { _ in
                    pick(names) + (chance(15) ? "" : "=" + (chance(20) ? "" : pick(vocabulary)))
                }
                url += "?" + items.joined(separator: "&")
            }
            if chance(10) { url += "#" + pick(vocabulary) }
            return url
        }
    }

    private func encodingFirstLetter(_ path: String) -> String {
        guard let letter = path.firstIndex(where: \.isLetter), let ascii = path[letter].asciiValue else { return path }
        return path[..<letter] + "%" + String(ascii, radix: 16, uppercase: true) + path[path.index(after: letter)...]
    }

    /// URLs made of the words the rules use, random segments, escapes, case changes, query items
    /// the rules name and fragments.
    func randomURLs(count: Int, using generator: inout SplitMix64) -> [String] {
        // Escapes as a browser writes them: Foundation rewrites a raw `é` or a malformed escape.
        var words: Set<String> = ["x", "42", "-7", "+3", "007", "%C3%A9", "%c3%a9", "%FF", "%2F", "a%20b", ""]
        var itemNames: Set<String> = ["x"]
        for domain in configuration.domains {
            words.formUnion(domain.variables.flatMap(\.values).map(\.value))
            for rule in domain.applinks.flatMap(\.rules) {
                let patterns = [rule.path?.value, rule.fragment?.value].compactMap { $0 }
                for pattern in patterns {
                    words.formUnion(pattern.split(whereSeparator: { "/*?$()".contains($0) }).map(String.init))
                }
                if case .items(let items) = rule.query?.value {
                    itemNames.formUnion(items.map(\.name))
                    words.formUnion(items.map(\.pattern).filter { !$0.contains("*") && !$0.contains("?") })
                }
            }
        }
        let vocabulary = words.sorted()
        let names = itemNames.sorted()
        let hosts = self.hosts
        func pick<T>(_ list: [T]) -> T { list[Int(generator.next() % UInt64(list.count))] }
        func chance(_ percent: UInt64) -> Bool { generator.next() % 100 < percent }
        func word() -> String {
            var word = pick(vocabulary)
            if chance(15) { word = word.uppercased() }
            if chance(10) { word += pick(vocabulary) }
            return word
        }
        return (0..<count).map { _ in
            var url = "https://" + pick(hosts)
            for _ in 0..<Int(generator.next() % 4) { url += "/" + word() }
            if chance(20) { url += "/" }
            if chance(50) {
                let items = (0..<Int(1 + generator.next() % 3)).map { _ in
                    chance(15) ? pick(names) : pick(names) + "=" + (chance(20) ? "" : word())
                }
                url += "?" + items.joined(separator: "&")
            }
            if chance(25) { url += "#" + word() }
            return url
        }
    }
}

struct RouterTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
