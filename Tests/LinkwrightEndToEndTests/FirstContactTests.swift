import Foundation
import LinkwrightTestSupport
import Testing

/// What `init` and `import` start is something `generate` accepts at once (issue 49): a path
/// given no route opens the app at its start (`route: none` with a reason), the router compiles
/// under Swift 6 strict concurrency and with kotlinc, and a configuration with nothing to route
/// is told which rule to finish and how.
@Suite struct FirstContactTests {
    /// Type-checks `router` as a library under Swift 6 strict concurrency, warnings as errors.
    func expectCompiles(_ router: URL) throws {
        let compile = try runProcess(
            URL(fileURLWithPath: SwiftCompiler.path!),
            SwiftCompiler.strictSwift6 + ["-parse-as-library", "-typecheck", router.path])
        #expect(compile.status == 0, "\(compile)")
    }

    /// A folder `init` filled for shop.example's iOS app with `options` (paths and routes).
    func initialised(_ options: [String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let created = try runLinkwright(
            ["init", "--host", "shop.example", "--team-id", "A1B2C3D4E5", "--bundle-id", "com.example.shop"] + options,
            in: folder.url, input: Data())
        #expect(created.status == 0, "\(created)")
        return folder
    }

    /// A folder holding `files` (path, text).
    func configuration(_ files: [(String, String)]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for (path, text) in files { _ = try folder.write(path, text) }
        return folder
    }

    @Test(.enabled(if: SwiftCompiler.available, SwiftCompiler.missing))
    func initThenGenerateSwiftNeedsNoHandEdits() throws {
        let folder = try initialised(["--path", "/products/*", "--path", "/orders/*", "--exclude", "/account/*"])
        defer { folder.remove() }
        #expect(
            try folder.read("domains/shop.yaml").contains(
                "      - path: /products/*\n        route: none\n        reason: \"no route was given to init; "
                    + "name the screen these URLs open with route: (and params:)\"\n"))
        let generated = try runLinkwright(["generate", "swift", "--out", "router"], in: folder.url)
        #expect(generated.status == 0 && generated.stdout == "wrote router/ShopRouter.swift\n", "\(generated)")
        let router = folder.url.appendingPathComponent("router/ShopRouter.swift")
        #expect(
            try folder.read("router/ShopRouter.swift").contains(
                "enum ShopDestination: Hashable, Sendable {\n    // No rule names a destination yet (route: none): "
                    + "a link that opens the app opens it at its start.\n}\n"))
        try expectCompiles(router)
        #expect(try runLinkwright(["test"], in: folder.url).status == 0)
    }

    /// --route none for one path, a destination for the other: both in one router.
    @Test(.enabled(if: SwiftCompiler.available, SwiftCompiler.missing))
    func initTakesRouteNoneForOnePath() throws {
        let folder = try initialised([
            "--path", "/products/*", "--route", "product", "--path", "/help", "--route", "none",
        ])
        defer { folder.remove() }
        let domain = try folder.read("domains/shop.yaml")
        #expect(
            domain.contains(
                "      - path: /products/*\n        route: product\n      - path: /help\n        route: none\n"))
        #expect(try runLinkwright(["generate", "swift", "--out", "router"], in: folder.url).status == 0)
        #expect(try folder.read("router/ShopRouter.swift").contains("    case product\n"))
        try expectCompiles(folder.url.appendingPathComponent("router/ShopRouter.swift"))
    }

    /// Asked on a terminal (here --interactive): an empty answer gives every path route: none.
    @Test func initAsksForRoutesAndAnEmptyAnswerOpensTheStart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let answers = "shop.example\ncom.example.shop\n\nA1B2C3D4E5\n/products/*\n\n\n"
        let created = try runLinkwright(["init", "--interactive"], in: folder.url, input: Data(answers.utf8))
        #expect(created.status == 0, "\(created)")
        #expect(created.stderr.contains("or none; empty: none for every pattern, opening the app at its start): "))
        #expect(try folder.read("domains/shop.yaml").contains("      - path: /products/*\n        route: none\n"))
        #expect(try runLinkwright(["generate", "swift", "--out", "router"], in: folder.url).status == 0)
    }

    /// Rules with no route at all: the error names each domain file's first such rule, from the
    /// current folder, and says both ways to finish it.
    @Test func nothingToRouteNamesTheRuleAndTheFix() throws {
        let folder = try configuration([
            (
                "links/environments/production.yaml",
                "tier: production\nteam_id: A1B2C3D4E5\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                    + "hosts:\n  shop.example: shop\n  help.example: help\n"
            ),
            (
                "links/domains/shop.yaml",
                "applinks:\n  - apps: [shop]\n    rules:\n      - path: /a/*\n        exclude: true\n      - path: /p/*\n"
            ),
            ("links/domains/help.yaml", "applinks:\n  - apps: [shop]\n    rules:\n      - path: /faq\n"),
        ])
        defer { folder.remove() }
        let result = try runLinkwright(["generate", "swift", "--config", "links"], in: folder.url)
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr
                == "error: links/domains/help.yaml:4:9, links/domains/shop.yaml:6:9: no rule opening shop names a "
                + "route, so its router would have no destination\n  hint: give every rule of those files that "
                + "opens shop a route: name where its URLs lead with route: <destination> (and params:), or write "
                + "route: none with a reason: to open the app at its start (docs/configuration.md, Routes)\n",
            "\(result)")
        #expect(!folder.exists("links/generated"))
    }

    /// An app whose hosts' rules all leave it out: nothing to route, said as such.
    @Test func anAppNoRuleOpensIsToldSo() throws {
        let folder = try configuration([
            (
                "environments/production.yaml",
                "tier: production\nteam_id: A1B2C3D4E5\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                    + "  guide:\n    ios: {bundle_id: com.example.guide}\nhosts:\n  shop.example: shop\n"
            ),
            (
                "domains/shop.yaml",
                "applinks:\n  - apps: [guide]\n    rules:\n      - path: /g/*\n        route: guide\n"
                    + "  - apps: [shop]\n    rules:\n      - path: /a/*\n        exclude: true\n"
            ),
        ])
        defer { folder.remove() }
        let result = try runLinkwright(["generate", "swift", "--app", "shop"], in: folder.url)
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "error: no rule of shop's hosts opens it, so its router would have nothing to route\n"),
            "\(result)")
    }

    /// A real site's files, imported: every rule opening an app gets route: none with a reason,
    /// and both routers are written and compile.
    @Test(
        .enabled(if: RepositoryPaths.sharedCorpus != nil, Comment(rawValue: RepositoryPaths.sharedCorpusMissing)),
        .enabled(if: SwiftCompiler.available, SwiftCompiler.missing))
    func importOfARealSiteThenGenerateBothRouters() throws {
        let corpus = try #require(RepositoryPaths.sharedCorpus)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let imported = try runLinkwright(
            [
                "import", "--aasa",
                corpus.appendingPathComponent(
                    "aasa/felleslosninger__minid.no__static_.well-known_apple-app-site-association"
                )
                .path,
                "--assetlinks",
                corpus.appendingPathComponent(
                    "assetlinks/felleslosninger__minid.no__static_.well-known_assetlinks.json"
                )
                .path,
                "--host", "minid.no", "--env", "production",
            ], in: folder.url)
        #expect(imported.status == 0, "\(imported)")
        let domain = try folder.read("domains/minid.yaml")
        #expect(
            domain.contains(
                "      - path: /app/*\n        comment: Matches any URL with a path that starts with /app/.\n"
                    + ImportCommandTests.unknownRoute), "\(domain)")
        #expect(try runLinkwright(["test"], in: folder.url).status == 0)
        let swift = try runLinkwright(["generate", "swift", "--out", "swift"], in: folder.url)
        #expect(swift.status == 0, "\(swift)")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("swift").path)
        {
            try expectCompiles(folder.url.appendingPathComponent("swift/" + name))
        }
        let kotlin = try runLinkwright(["generate", "kotlin", "--out", "kotlin"], in: folder.url)
        #expect(kotlin.status == 0, "\(kotlin)")
        let sources = try FileManager.default.contentsOfDirectory(
            atPath: folder.url.appendingPathComponent("kotlin").path
        ).map { folder.url.appendingPathComponent("kotlin/" + $0).path }
        #expect(!sources.isEmpty)
        guard let kotlinc = KotlinCompiler.kotlinc else {
            print("FirstContactTests: \(KotlinCompiler.missing)")
            return
        }
        let compile = try runProcess(
            URL(fileURLWithPath: kotlinc),
            ["-Werror"] + sources + ["-d", folder.url.appendingPathComponent("classes").path],
            timeout: 600)
        #expect(compile.status == 0, "\(compile)")
    }
}
