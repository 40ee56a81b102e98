import Foundation
import LinkwrightTestSupport
import Testing

@testable import LinkwrightCLI

@Suite struct CLITests {
    @Test(arguments: ["--version", "-V", "version"])
    func printsItsVersion(_ spelling: String) throws {
        let result = try runLinkwright([spelling])
        #expect(result.status == 0)
        #expect(result.stdout == "linkwright 0.1.0\n")
        #expect(result.stderr.isEmpty)
    }

    /// Help prose is wrapped to the terminal's width (COLUMNS stands for one here): no line
    /// passes it but a single long word, option rows keep their column, and the text as
    /// written is kept when no width is known.
    @Test func helpIsWrappedToTheTerminalWidth() throws {
        let unwrapped = try runLinkwright(["help", "import"]).stdout
        let narrow = try runLinkwright(["help", "import"], environment: ["COLUMNS": "60"])
        #expect(narrow.status == 0)
        for line in narrow.stdout.split(separator: "\n") {
            #expect(line.count <= 60 || !line.trimmingCharacters(in: .whitespaces).contains(" "), "\(line)")
        }
        #expect(
            narrow.stdout.contains(
                "\n  --host HOST           The host serving the files given\n                        before it; repeatable\n"
            ))
        let words = { (text: String) in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) }
        #expect(words(narrow.stdout) == words(unwrapped), "only the line breaks differ")
        #expect(
            unwrapped.contains(
                "hosts); --from DIR reads DIR/HOST/.well-known/{apple-app-site-association,assetlinks.json},\n"))
        let overview = try runLinkwright(["--help"], environment: ["COLUMNS": "50"]).stdout
        #expect(overview.split(separator: "\n").allSatisfy { $0.count <= 50 || !$0.dropFirst(14).contains(" ") })
    }

    @Test func helpListsEveryCommand() throws {
        let result = try runLinkwright(["--help"])
        #expect(result.status == 0)
        for command in LinkwrightCLI.commands.map({ $0.spec.name }) {
            #expect(result.stdout.contains("\n  \(command) "), "\(command)")
        }
        #expect(result.stdout.contains("Exit codes"))
    }

    @Test func withoutACommandItPrintsTheOverviewAndExits2() throws {
        let result = try runLinkwright([])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Usage: linkwright <command>"))
    }

    /// Also when its help is asked for: `help biuld`.
    @Test(arguments: [["biuld"], ["help", "biuld"]])
    func anUnknownCommandGetsASuggestion(_ arguments: [String]) throws {
        let result = try runLinkwright(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: unknown command \"biuld\"; did you mean \"build\"?\n"))
    }

    @Test func anUnknownOptionIsAUsageError() throws {
        let result = try runLinkwright(["build", "--chek"])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "error: unknown option --chek for build; did you mean --check?\nUsage: linkwright build"))
    }

    @Test func aBadChoiceIsAUsageError() throws {
        let result = try runLinkwright(["lint", "--format", "yaml"])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "error: --format must be one of text, json, github, sarif, junit, markdown, not \"yaml\""))
    }
}

@Suite struct SchemaCommandTests {
    @Test(arguments: ["environment", "domain", "policy"])
    func printsThePublishedSchema(_ kind: String) throws {
        let result = try runLinkwright(["schema", kind])
        #expect(result.status == 0)
        let published = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("docs/schema/\(kind).schema.json"), encoding: .utf8)
        #expect(result.stdout == published, "docs/schema is stale: run `linkwright schema --write docs/schema`")
    }

    @Test func theExampleConfigurationValidatesAgainstTheSchemaWithAnIndependentValidator() throws {
        // Python's jsonschema and PyYAML: consumers that share no code with ours.
        let script = """
            import glob, json, sys, yaml, jsonschema
            root = sys.argv[1]
            for kind, folder in [("environment", "environments"), ("domain", "domains"), ("policy", "policies")]:
                schema = json.load(open(f"{root}/docs/schema/{kind}.schema.json"))
                jsonschema.Draft7Validator.check_schema(schema)
                for path in sorted(glob.glob(f"{root}/{folder}/*.yaml")):
                    jsonschema.validate(yaml.safe_load(open(path)), schema)
                    print(path)
            bad = yaml.safe_load("tier: production\\napps: {}\\nhosts: {}\\nteam: X\\n")
            try:
                jsonschema.validate(bad, json.load(open(f"{root}/docs/schema/environment.schema.json")))
                print("accepted an unknown key")
            except jsonschema.ValidationError:
                print("rejected unknown key")
            """
        let result = try python(script, [RepositoryPaths.root.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("domains/museo.yaml"))
        #expect(result.stdout.hasSuffix("rejected unknown key\n"))
    }

    /// The example with one value replaced, checked by `lint` and by Python's jsonschema against
    /// the published schema: (lint's result, "accepted" or "refused: …").
    func probe(_ file: String, _ value: String, _ replacement: String, _ kind: String) throws -> (
        lint: ProcessResult, schema: String
    ) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        let text = try folder.read(file)
        #expect(text.contains(value), "the example no longer holds \(value)")
        try folder.write(file, text.replacingOccurrences(of: value, with: replacement))
        let lint = try runLinkwright(["lint"], in: folder.url)
        let script = """
            import json, sys, yaml, jsonschema
            schema = json.load(open(sys.argv[1]))
            try:
                jsonschema.validate(yaml.safe_load(open(sys.argv[2])), schema)
                print("accepted")
            except jsonschema.ValidationError as error:
                print("refused:", error.message)
            """
        let checked = try python(
            script,
            [
                RepositoryPaths.root.appendingPathComponent("docs/schema/\(kind).schema.json").path,
                folder.url.appendingPathComponent(file).path,
            ])
        return (lint, checked.stdout)
    }

    static let host = "  museo.example: museo\n"
    static let entitlements = "entitlements: examples/app/ios/Museo/Production.entitlements"
    static let expectation = "    opens_web: true\n"
    static let policy = "forbidden_paths:\n"
    static let parameter = "          poster?: segment 2\n"
    static let schemeRoute =
        "            route: oauthFailed  # RFC 6749, section 4.1.2.1: the provider's error response\n"
    static let errorEntry = "          - path: /oauth/callback\n            query: {error: \"?*\"}\n"
    static let schemeRoutes = "        routes:\n          - path: /oauth/callback\n            query: {code"

    /// Values the tool refuses, the published schema refuses too, so an editor flags them
    /// before `lint` does: each probe breaks one value of the example, and both must say no.
    /// What the schema language cannot say is listed in docs/configuration.md.
    @Test(arguments: [
        ("environments/production.yaml", "package: com.example.museo\n", "package: museo\n", "environment"),
        ("environments/production.yaml", host, host + "  Museo.example: museo\n", "environment"),
        ("environments/production.yaml", host, host + "  museo.example.: museo\n", "environment"),
        ("environments/production.yaml", host, host + "  a_b.museo.example: museo\n", "environment"),
        ("environments/production.yaml", host, host + "  -a.museo.example: museo\n", "environment"),
        ("environments/production.yaml", host, host + "  1.2.3.4: museo\n", "environment"),
        ("environments/production.yaml", schemeRoute, "            route: none\n", "environment"),
        ("environments/production.yaml", schemeRoute, schemeRoute + "            fragment: top\n", "environment"),
        (
            "environments/production.yaml", errorEntry,
            "          - path: /oauth/callback\n            query: \"error=*\"\n", "environment"
        ),
        (
            "environments/production.yaml", errorEntry,
            "          - path: /oauth/$(lang)\n            query: {error: \"?*\"}\n", "environment"
        ),
        (
            "environments/production.yaml", "          - url: es.emergencias.app:/oauth/callback?state=c81d\n",
            "          - url: /oauth/callback?state=c81d\n", "environment"
        ),
        (
            "environments/production.yaml",
            "      fingerprints:\n        play-signing: \"2C:F0:D7:85:52:59:58:D7:4E:29:8E:E9:82:0F:06:5C:08:56:41:90:23:7B:F9:05:05:E1:75:E1:0B:95:F2:28\"\n        upload: \"36:06:B0:78:5E:91:56:8D:37:DD:55:02:23:50:18:E9:66:B5:9B:47:17:79:16:2F:08:32:8F:33:4F:ED:69:CA\"\n",
            "      fingerprints: {}\n", "environment"
        ),
        ("environments/production.yaml", entitlements, "entitlements: /App/Museo.entitlements", "environment"),
        ("environments/production.yaml", entitlements, "entitlements: App/./Museo.entitlements", "environment"),
        ("environments/production.yaml", "      activity: .MainActivity\n", "", "environment"),
        ("environments/production.yaml", "activity: .MainActivity", "activity: Main Activity", "environment"),
        ("domains/museo.yaml", "  - apps: [museo-clip]\n", "  - apps: []\n", "domain"),
        (
            "domains/museo.yaml", "  - apps: [museo-clip]\n    rules:\n",
            "  - apps: [museo-clip]\n    rules: []\n    x:\n", "domain"
        ),
        ("domains/museo.yaml", "variables:\n", "variables:\n  none: []\n", "domain"),
        ("domains/museo.yaml", "variables:\n", "variables:\n  lang: [es]\n", "domain"),
        ("domains/museo.yaml", "      - path: /admin/*\n", "      - path: /admin/$(\n", "domain"),
        ("domains/museo.yaml", "      - path: /admin/*\n", "      - path: /admin/*\n        query: {}\n", "domain"),
        ("domains/museo.yaml", "        route: clipExperience\n", "        route: none\n", "domain"),
        ("domains/museo.yaml", parameter, "          poster?: segment 02\n", "domain"),
        ("domains/museo.yaml", parameter, "          poster?: segment +2\n", "domain"),
        ("domains/museo.yaml", expectation, "    comment: no verdict\n", "domain"),
        ("domains/museo.yaml", expectation, expectation + "    opens_app: museo\n", "domain"),
        ("domains/museo.yaml", expectation, "    opens_web: false\n", "domain"),
        ("domains/museo.yaml", expectation, "    opens_app: false\n", "domain"),
        ("domains/museo.yaml", expectation, expectation + "    route: none\n", "domain"),
        (
            "domains/museo.yaml", "- url: /exhibitions/monet\n", "- url: http://museo.example/exhibitions/monet\n",
            "domain"
        ),
        ("domains/museo.yaml", "- url: /exhibitions/monet\n", "- url: exhibitions/monet\n", "domain"),
        ("domains/museo.yaml", "- url: /exhibitions/monet\n", "- url: https://\n", "domain"),
        ("domains/museo.yaml", "- url: /exhibitions/monet\n", "- url: /exhibitions/monet lisa\n", "domain"),
        ("policies/merge.yaml", "- path: /oauth/callback\n", "- path: oauth/callback\n", "policy"),
        ("policies/merge.yaml", policy, "approvals:\n  - finding: nonsense\n    reason: r\n" + policy, "policy"),
        (
            "policies/merge.yaml", policy,
            "approvals:\n  - finding: NO_SUCH_RULE/0123456789abcdef\n    reason: r\n" + policy, "policy"
        ),
        (
            "policies/merge.yaml", policy,
            "approvals:\n  - finding: CATCH_ALL_ADDED/0123456789abcdef\n    reason: \" \"\n" + policy, "policy"
        ),
        ("policies/merge.yaml", policy, "rules:\n  except: [ALL]\n" + policy, "policy"),
        ("policies/merge.yaml", policy, "rules:\n  severity: {NO_SUCH_RULE: note}\n" + policy, "policy"),
        ("policies/merge.yaml", policy, "ignore:\n  - rule: ALL\n    reason: r\n" + policy, "policy"),
    ])
    func theSchemaRefusesWhatTheToolRefuses(_ file: String, _ value: String, _ broken: String, _ kind: String) throws {
        let (lint, schema) = try probe(file, value, broken, kind)
        #expect(lint.status == 2, "\(lint)")
        #expect(schema.hasPrefix("refused:"), "\(schema)")
    }

    /// And what the tool accepts, the schema accepts: the stricter patterns leave room for every
    /// valid value (internationalised hosts, typed parameters, `opens_app: true`, `ALL`).
    @Test(arguments: [
        ("environments/production.yaml", host, host + "  m\u{FC}nchen.example: museo\n", "environment"),
        ("environments/production.yaml", host, host + "  xn--mnchen-3ya.example: museo\n", "environment"),
        ("environments/production.yaml", host, host + "  a-b.x1.museo.example: museo\n", "environment"),
        (
            "environments/production.yaml", schemeRoutes,
            "        routes:\n          - path: /oauth/logout\n            route: none\n            reason: nothing to show\n"
                + "          - path: /oauth/callback\n            query: {code", "environment"
        ),
        (
            "environments/production.yaml", "            opens_app: emergencias\n",
            "            opens_app: emergencias\n            platforms: [ios]\n", "environment"
        ),
        ("environments/production.yaml", entitlements, "entitlements: ../ios/Museo.entitlements", "environment"),
        ("domains/museo.yaml", parameter, "          poster?: segment 2 as string\n", "domain"),
        ("domains/museo.yaml", parameter, "          poster?: segment 12\n", "domain"),
        ("domains/museo.yaml", expectation, "    opens_app: true\n", "domain"),
        (
            "domains/museo.yaml", "- url: /exhibitions/monet\n", "- url: https://museo.example/exhibitions/monet\n",
            "domain"
        ),
        ("domains/museo.yaml", "variables:\n", "variables:\n  sala: [a, b]\n", "domain"),
        ("domains/museo.yaml", "      - path: /admin/*\n", "      - path: /admin/$(collection)$x(\n", "domain"),
        ("policies/merge.yaml", policy, "rules:\n  use: [ALL]\n  except: [CATCH_ALL_ADDED]\n" + policy, "policy"),
    ])
    func theSchemaAcceptsWhatTheToolAccepts(_ file: String, _ value: String, _ valid: String, _ kind: String) throws {
        let (lint, schema) = try probe(file, value, valid, kind)
        #expect(lint.status != 2, "\(lint)")
        #expect(schema == "accepted\n", "\(schema)")
    }

    @Test func needsAKindOrAFolder() throws {
        #expect(try runLinkwright(["schema"]).status == 2)
        #expect(try runLinkwright(["schema", "domian"]).stderr.hasPrefix("error: unknown schema \"domian\""))
    }
}

/// Runs a Python 3 script (independent consumers of our output: json, plistlib, xml, jsonschema).
func python(_ script: String, _ arguments: [String]) throws -> ProcessResult {
    try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments)
}
