import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// `check` on pull requests as CI shows them: findings one cause at a time within GitHub's limits
/// (10 annotations of each level per step), a comment under its size limit, every format usable
/// when the head does not compile, `--fail-on` and `--format approvals`.
@Suite struct PullRequestScaleTests {
    /// The example configuration, committed on `main`, and a branch to edit.
    static func exampleRepository() throws -> GitFixture {
        let fixture = try GitFixture()
        try fixture.commit("Example links", try GitFixture.exampleFiles())
        try fixture.git("checkout", "-q", "-b", "change")
        return fixture
    }

    static func read(_ fixture: GitFixture, _ path: String) throws -> String {
        try String(contentsOfFile: fixture.repository + "/" + path, encoding: .utf8)
    }

    /// The three risky edits: drop the App Clip from production, add a `"*"` catch-all, and put
    /// `/*/login` above the `/admin/*` exclusion.
    static func threeEdits(_ fixture: GitFixture) throws {
        let production = try read(fixture, "environments/production.yaml")
        let clip = "  museo-clip:\n    ios:\n      bundle_id: com.example.museo.Clip\n      app_clip: true\n"
        #expect(production.contains(clip))
        var domain = try read(fixture, "domains/museo.yaml")
        let exclusion = "      - path: /admin/*\n        exclude: true"
        let preview =
            "      - path: /preview/*\n        environments: [staging]\n"
            + "        comment: Exhibition previews, tried on staging before they are promoted\n"
            + "        route: exhibitionPreview\n        params:\n          slug?: segment 2"
        #expect(domain.contains(exclusion) && domain.contains(preview))
        // The example names routes, so every rule added names one.
        domain = domain.replacingOccurrences(
            of: exclusion, with: "      - path: /*/login\n        route: none\n        reason: sign-in\n" + exclusion)
        domain = domain.replacingOccurrences(
            of: preview, with: preview + "\n      - path: \"*\"\n        route: none\n        reason: the home screen")
        try fixture.write([
            "environments/production.yaml": production.replacingOccurrences(of: clip, with: ""),
            "domains/museo.yaml": domain,
        ])
    }

    static func environment(_ fixture: GitFixture, _ extra: [String: String] = [:]) -> [String: String] {
        ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder].merging(extra) { $1 }
    }

    static func check(_ fixture: GitFixture, _ arguments: [String], _ extra: [String: String] = [:]) throws
        -> ProcessResult
    {
        try runLinkwright(
            ["check", "--against", "main"] + arguments, in: URL(fileURLWithPath: fixture.repository),
            environment: environment(fixture, extra))
    }

    static func annotations(_ output: String, _ level: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.hasPrefix("::\(level) ") }
    }

    @Test func threeRiskyEditsAreNineCausesWithTheWorstFirst() throws {
        let fixture = try Self.exampleRepository()
        try Self.threeEdits(fixture)
        let summary = fixture.folder + "/step-summary.md"
        try Data("earlier step\n".utf8).write(to: URL(fileURLWithPath: summary))
        let result = try Self.check(fixture, ["--format", "github"], ["GITHUB_STEP_SUMMARY": summary])
        #expect(result.status == 1, "\(result)")
        let errors = Self.annotations(result.stdout, "error")
        #expect(errors.count <= 9, "\(result.stdout)")
        let titles = errors.map { $0.firstMatch(of: /title=([A-Z_]+)/).map { String($0.1) } ?? "" }
        // Who may open links first (the OAuth callback the catch-all opens), the failed
        // expectations these causes explain last.
        #expect(Array(titles.prefix(2)) == ["PRODUCTION_APP_REMOVED", "CALLBACK_ON_VERIFIED_LINK"])
        #expect(titles.drop { $0 != "EXPECTATION_FAILED" }.allSatisfy { $0 == "EXPECTATION_FAILED" }, "\(titles)")
        // The App Clip, gone from both production hosts for applinks and appclips, is one cause.
        #expect(errors[0].contains("title=PRODUCTION_APP_REMOVED (4 findings)"))
        #expect(
            Set(titles) == [
                "PRODUCTION_APP_REMOVED", "EXCLUSION_REORDERED", "FORBIDDEN_PATH", "CATCH_ALL_ADDED",
                "EXPECTATION_FAILED",
                // The catch-all also opens the emergency app's OAuth callback path on the museum's hosts.
                "CALLBACK_ON_VERIFIED_LINK",
            ])
        // One expectation broken on four hosts and two platforms is one annotation listing them.
        let expectation = try #require(errors.first { $0.contains("/admin/login on ") })
        #expect(expectation.contains("title=EXPECTATION_FAILED (8 findings)"))
        #expect(expectation.contains("%0Awhere: production: "))
        let written = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(written.hasPrefix("earlier step\n<!-- linkwright-check -->\n### linkwright check: ❌"))
    }

    /// 50 production hosts: each broken expectation is one cause whatever the number of hosts;
    /// what does not fit GitHub's limits is said, and the comment stays under its limit.
    @Test func fiftyHostsStayWithinGitHubsLimits() throws {
        let fixture = try Self.exampleRepository()
        let hosts = (1...50).map { "  h\($0).museo.example: museo\n" }.joined()
        let production = try Self.read(fixture, "environments/production.yaml")
        try fixture.commit(
            "Fifty hosts",
            ["environments/production.yaml": production.replacingOccurrences(of: "hosts:\n", with: "hosts:\n" + hosts)])
        try fixture.git("checkout", "-q", "main")
        try fixture.git("merge", "-q", "--ff-only", "change")
        try fixture.git("checkout", "-q", "change")
        try Self.threeEdits(fixture)
        var domain = try Self.read(fixture, "domains/museo.yaml")
        // More causes than GitHub shows: an expectation per exhibition, all broken by the catch-all.
        domain += (1...15).map { "  - url: /tienda/\($0)\n    opens_web: true\n" }.joined()
        try fixture.write(["domains/museo.yaml": domain])
        let github = try Self.check(fixture, ["--format", "github"])
        #expect(github.status == 1)
        for level in ["error", "warning", "notice"] {
            #expect(Self.annotations(github.stdout, level).count <= 10, "\(level): \(github.stdout)")
        }
        #expect(Self.annotations(github.stdout, "error").count == 10)
        #expect(github.stdout.contains("::notice title=more findings::"))
        let logged = github.stdout.split(separator: "\n").filter { $0.hasPrefix("error: https://") }
        #expect(logged.contains { $0.contains("/tienda/") }, "log lines for the rest: \(github.stdout)")
        #expect(github.stdout.contains("h10.museo.example (ios), and 42 more hosts"))
        let markdown = try Self.check(fixture, ["--format", "markdown"])
        #expect(markdown.status == 1)
        #expect(markdown.stdout.count < 60_000, "\(markdown.stdout.count) characters")
        #expect(markdown.stdout.hasPrefix("<!-- linkwright-check -->\n"))
        let rows = markdown.stdout.split(separator: "\n").filter { $0.hasPrefix("| ❌ |") }
        #expect(rows.first?.contains("`PRODUCTION_APP_REMOVED`") == true)
    }

    /// A head whose YAML does not load: exit 2, and every machine format still says why, located.
    @Test(arguments: OutputFormat.findings.filter { $0 != .text })
    func anUnusableHeadIsReportedInTheChosenFormat(_ format: OutputFormat) throws {
        let fixture = try Self.exampleRepository()
        let domain = try Self.read(fixture, "domains/museo.yaml")
        try fixture.write(["domains/museo.yaml": domain.replacingOccurrences(of: "exclude: true", with: "exlude: true")]
        )
        let result = try Self.check(fixture, ["--format", format.rawValue])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("error: the configuration does not compile"), "\(result.stderr)")
        #expect(result.stdout.contains("UNKNOWN_KEY"), "\(result.stdout)")
        let checker = """
            import json, sys, xml.etree.ElementTree as ET
            format, text = sys.argv[1], sys.stdin.read()
            if format == "json":
                report = json.loads(text)
                assert report["usable"] is False and report["diagnostics"][0]["file"] == "domains/museo.yaml"
            elif format == "sarif":
                run = json.loads(text)["runs"][0]
                assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "domains/museo.yaml"
                assert run["results"][0]["ruleId"] in [rule["id"] for rule in run["tool"]["driver"]["rules"]]
            elif format == "junit":
                root = ET.fromstring(text)
                assert root.get("failures") != "0"
            elif format == "github":
                assert text.startswith("::error file=domains/museo.yaml,line="), text
            else:
                assert "⛔ the input cannot be used" in text
            """
        let validated = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", checker, format.rawValue],
            input: Data(result.stdout.utf8))
        #expect(validated.status == 0, "\(validated)")
    }

    @Test func failOnMovesTheThresholdAndApprovalsApproveEveryOpenFinding() throws {
        let fixture = try Self.exampleRepository()
        try Self.threeEdits(fixture)
        #expect(try Self.check(fixture, ["--fail-on", "never"]).status == 0)
        let approvals = try Self.check(fixture, ["--format", "approvals"])
        #expect(approvals.status == 1)
        #expect(approvals.stdout.hasPrefix("approvals:\n  # PRODUCTION_APP_REMOVED at environments/production.yaml:"))
        // Without a reason the approvals do not load; with one, nothing blocks any more.
        try fixture.write(["policies/approved.yaml": approvals.stdout])
        let unreasoned = try Self.check(fixture, [])
        #expect(unreasoned.status == 2, "\(unreasoned)")
        #expect(unreasoned.stderr.contains("reason is empty"), "\(unreasoned.stderr)")
        try fixture.write([
            "policies/approved.yaml": approvals.stdout.replacingOccurrences(
                of: "reason:  # why", with: "reason: release 2.0, approved by the release team  # why")
        ])
        let approved = try Self.check(fixture, [])
        #expect(approved.status == 0, "\(approved)")
        #expect(approved.stdout.contains(": 0 blocking findings, 46 approved"), "\(approved.stdout)")
    }

    @Test func aWarningBlocksOnlyFromFailOnWarning() throws {
        let fixture = try Self.exampleRepository()
        let domain = try Self.read(fixture, "domains/museo.yaml")
        try fixture.write([
            "domains/museo.yaml": domain.replacingOccurrences(
                of: "emit:\n", with: "emit:\n  size_budget: 100\n")
        ])
        let result = try Self.check(fixture, [])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("[SIZE_BUDGET]"))
        #expect(try Self.check(fixture, ["--fail-on", "warning"]).status == 1)
    }

    /// `lint` and `build --check` speak the same formats.
    @Test func lintAndBuildCheckAnnotateToo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        let built = try runLinkwright(["build"], in: folder.url)
        #expect(built.status == 0, "\(built)")
        try folder.write("dist/production/museo.example/.well-known/assetlinks.json", "[]\n")
        let stale = try runLinkwright(["build", "--check", "--format", "github"], in: folder.url)
        #expect(stale.status == 1, "\(stale)")
        #expect(
            stale.stdout.hasPrefix(
                "::error title=OUTPUT_OUT_OF_DATE::dist/production/museo.example/.well-known/assetlinks.json differs from the build"
            ), "\(stale.stdout)")
        let domain = try folder.read("domains/museo.yaml")
        try folder.write("domains/museo.yaml", domain.replacingOccurrences(of: "exclude: true", with: "exlude: true"))
        let lint = try runLinkwright(["lint", "--format", "sarif"], in: folder.url)
        #expect(lint.status == 2, "\(lint)")
        #expect(lint.stdout.contains("\"ruleId\": \"UNKNOWN_KEY\""), "\(lint.stdout)")
    }
}
