import Foundation
import LinkwrightTestSupport
import Testing

/// `linkwright init`: a configuration from flags or answers that builds and tests green at once.
@Suite struct InitCommandTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let files = ["environments/production.yaml", "domains/shop.yaml", "policies/merge.yaml"]

    /// lint finds nothing, build writes the files, test passes on the expectations init pinned.
    func expectGreen(_ folder: TemporaryFolder, checks: Int, built: String) throws {
        let lint = try runLinkwright(["lint"], in: folder.url)
        #expect(lint.status == 0 && lint.stdout == ".: configuration is valid (0 errors, 0 warnings)\n", "\(lint)")
        let build = try runLinkwright(["build"], in: folder.url)
        #expect(build.status == 0, "\(build)")
        #expect(folder.exists("dist/production/shop.example/.well-known/\(built)"))
        let test = try runLinkwright(["test"], in: folder.url)
        #expect(test.status == 0 && test.stdout.hasPrefix("\(checks) checks passed"), "\(test)")
    }

    @Test func flagsScaffoldAConfigurationThatBuildsAndTestsGreen() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runLinkwright(
            [
                "init", "--host", "shop.example", "--team-id", "A1B2C3D4E5", "--bundle-id", "com.example.shop",
                "--package", "com.example.shop", "--fingerprint", Self.fingerprint, "--path", "/products/*",
                "--path", "/orders/*", "--exclude", "/account/*",
            ], in: folder.url, input: Data())
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.hasPrefix(
                "created environments/production.yaml, domains/shop.yaml, policies/merge.yaml with 3 expectations\n"),
            "\(result)")
        for (path, kind) in zip(Self.files, ["environment", "domain", "policy"]) {
            #expect(
                try folder.read(path).hasPrefix("# yaml-language-server: $schema=../docs/schema/\(kind).schema.json\n"))
        }
        let domain = try folder.read("domains/shop.yaml")
        #expect(domain.contains("      - path: /account/*\n        exclude: true\n      - path: /products/*\n"))
        #expect(domain.contains("  - url: /account/example\n    opens_web: true\n"))
        #expect(domain.contains("  - url: /orders/example\n    opens_app: shop\n"))
        #expect(try folder.read("policies/merge.yaml").contains("required_fingerprint_channels: [play-signing]\n"))
        try expectGreen(folder, checks: 6, built: "apple-app-site-association")
    }

    /// With --interactive the answers come from standard input, one per line; a wrong answer is
    /// said and asked again.
    @Test func answersOnStandardInputFillWhatTheFlagsLeaveOut() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let answers =
            "shop.example\n\ncom.example.shop\nnot-a-fingerprint\n\(Self.fingerprint)\n/products/:id\n"
            + "/products/* /orders/*\n/products/admin/*\nproduct\nproduct order\n"
        let result = try runLinkwright(
            ["init", "--interactive"], in: folder.url, input: Data(answers.utf8), timeout: 60)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("Host that serves the association files (e.g. shop.example): "))
        #expect(result.stderr.contains("iOS bundle ID (empty: no iOS app): Android package (empty: no Android app): "))
        #expect(
            result.stderr.components(separatedBy: "SHA-256 fingerprint of com.example.shop's signing certificate: ")
                .count == 3, "asked twice: \(result)")
        // Router syntax is no pattern: said, with the pattern meant, and asked again.
        #expect(
            result.stderr.contains(
                "  /products/:id matches a segment spelt \":…\" literally (router syntax, not a pattern); /products/* opens every value"
            ), "\(result)")
        #expect(result.stderr.contains("Path patterns kept on the web, decided first"))
        #expect(result.stderr.contains("  give 2 route names, one per pattern\n"), "\(result)")
        let environment = try folder.read("environments/production.yaml")
        #expect(!environment.contains("ios:") && environment.contains("      package: com.example.shop\n"))
        let domain = try folder.read("domains/shop.yaml")
        #expect(
            domain.contains(
                "      - path: /products/admin/*\n        exclude: true\n      - path: /products/*\n        route: product\n"
                    + "      - path: /orders/*\n        route: order\n"), "\(domain)")
        try expectGreen(folder, checks: 4, built: "assetlinks.json")
        let router = try runLinkwright(["generate", "kotlin", "--out", "router"], in: folder.url)
        #expect(router.status == 0, "a configuration with routes has a router: \(router)")
    }

    /// Flags name routes per path; a lowercase team ID is taken as Apple issues it; a path in a
    /// router's syntax is written as given, with a warning.
    @Test func routesAndTeamIDsFromFlags() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runLinkwright(
            [
                "init", "--host", "shop.example", "--team-id", "a1b2c3d4e5", "--bundle-id", "com.example.shop",
                "--path", "/products/*", "--route", "product", "--path", "/p/:id", "--route", "legacyProduct",
            ], in: folder.url, input: Data())
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderr
                == "warning: /p/:id matches a segment spelt \":…\" literally (router syntax, not a pattern); /p/* opens every value, and a route's params: name it (segment N)\n",
            "\(result)")
        #expect(try folder.read("environments/production.yaml").contains("team_id: A1B2C3D4E5\n"))
        #expect(
            try folder.read("domains/shop.yaml").contains("      - path: \"/p/:id\"\n        route: legacyProduct\n"))
        let router = try runLinkwright(["generate", "swift", "--out", "router"], in: folder.url)
        #expect(router.status == 0, "\(router)")
        let mismatched = try runLinkwright(
            [
                "init", "--env", "staging", "--host", "shop.example", "--team-id", "A1B2C3D4E5", "--bundle-id",
                "com.example.shop", "--path", "/a/*", "--path", "/b/*", "--route", "a",
            ], in: folder.url, input: Data())
        #expect(mismatched.status == 2)
        #expect(
            mismatched.stderr.hasPrefix(
                "error: 1 --route for 2 --paths: give each --path its --route, or none\n"), "\(mismatched)")
    }

    /// Without a terminal nobody answers: a missing flag is a usage error at once, never a wait.
    @Test func withoutATerminalMissingFlagsAreAUsageError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runLinkwright(["init", "--host", "shop.example"], in: folder.url, input: Data(), timeout: 60)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "error: init needs --bundle-id or --package, --path (standard input is not a terminal; --interactive reads answers from it)\n"
            ), "\(result)")
        #expect(!folder.exists("environments") && !folder.exists("domains"))
        let ended = try runLinkwright(
            ["init", "--interactive"], in: folder.url, input: Data("shop.example\n".utf8), timeout: 60)
        #expect(ended.status == 2)
        #expect(
            ended.stderr.contains(
                "error: standard input ended before \"iOS bundle ID (empty: no iOS app)\" was answered"), "\(ended)")
        let invalid = try runLinkwright(
            [
                "init", "--host", "shop.example", "--team-id", "short", "--bundle-id", "com.example.shop", "--path",
                "/x",
            ],
            in: folder.url, input: Data())
        #expect(invalid.status == 2)
        #expect(invalid.stderr.hasPrefix("error: --team-id short: "), "\(invalid)")
    }

    @Test func existingFilesAreNeverOverwritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let arguments = [
            "init", "--host", "shop.example", "--team-id", "A1B2C3D4E5", "--bundle-id", "com.example.shop", "--path",
            "/products/*",
        ]
        #expect(try runLinkwright(arguments, in: folder.url, input: Data()).status == 0)
        try folder.write("domains/shop.yaml", "# edited\n")
        let again = try runLinkwright(arguments, in: folder.url, input: Data())
        #expect(again.status == 2)
        #expect(
            again.stderr.hasPrefix(
                "error: environments/production.yaml, domains/shop.yaml already exist; init overwrites nothing, so nothing was written\n"
            ), "\(again)")
        #expect(try folder.read("domains/shop.yaml") == "# edited\n")
        // policies/ has a file already: the configuration keeps its own policies.
        for path in ["environments/production.yaml", "domains/shop.yaml"] {
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent(path))
        }
        let keeping = try runLinkwright(arguments, in: folder.url, input: Data())
        #expect(keeping.status == 0, "\(keeping)")
        #expect(
            keeping.stdout.hasPrefix("created environments/production.yaml, domains/shop.yaml with 1 expectation\n"),
            "\(keeping)")
    }
}
