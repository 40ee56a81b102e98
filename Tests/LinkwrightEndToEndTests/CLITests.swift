import Foundation
import LinkwrightTestSupport
import Testing

@Suite struct CLITests {
    @Test func printsItsVersion() throws {
        let result = try runLinkwright(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "linkwright 0.1.0\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func helpListsEveryCommand() throws {
        let result = try runLinkwright(["--help"])
        #expect(result.status == 0)
        for command in ["build", "lint", "rules", "schema"] {
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

    /// Values the tool refuses, the published schema refuses too, so an editor flags them
    /// before `lint` does: each probe breaks one value of the example, and both must say no.
    @Test(arguments: [
        ("environments/production.yaml", "package: com.example.museo\n", "package: museo\n", "environment"),
        (
            "domains/museo.yaml", "- url: /exhibitions/monet\n", "- url: http://museo.example/exhibitions/monet\n",
            "domain"
        ),
        ("domains/museo.yaml", "- url: /exhibitions/monet\n", "- url: exhibitions/monet\n", "domain"),
        ("policies/merge.yaml", "- path: /oauth/callback\n", "- path: oauth/callback\n", "policy"),
        (
            "policies/merge.yaml", "forbidden_paths:\n",
            "approvals:\n  - finding: nonsense\n    reason: r\nforbidden_paths:\n", "policy"
        ),
        (
            "policies/merge.yaml", "forbidden_paths:\n",
            "approvals:\n  - finding: NO_SUCH_RULE/0123456789abcdef\n    reason: r\nforbidden_paths:\n", "policy"
        ),
    ])
    func theSchemaRefusesWhatTheToolRefuses(_ file: String, _ value: String, _ broken: String, _ kind: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        let text = try folder.read(file)
        #expect(text.contains(value))
        try folder.write(file, text.replacingOccurrences(of: value, with: broken))
        let lint = try runLinkwright(["lint"], in: folder.url)
        #expect(lint.status == 2, "\(lint)")
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
        #expect(checked.stdout.hasPrefix("refused:"), "\(checked)")
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
