import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// Golden outputs of `check` in every format, for a change that trips several rules: an exclusion
/// moved below a catch-all, developer mode in production, a signing key removed (approved) and
/// a size budget exceeded (a warning).
@Suite struct CheckFormatTests {
    static let golden = RepositoryPaths.root.appendingPathComponent("Tests/LinkwrightEndToEndTests/Golden/check")

    static let baseDomain = """
        applinks:
          - apps: [shop]
            rules:
              - path: /admin/*
                exclude: true
              - path: "/*"
        emit:
          android_dynamic_rules: true

        """

    static let headDomain = """
        applinks:
          - apps: [shop]
            rules:
              - path: "/*"
              - path: /admin/*
                exclude: true
        emit:
          android_dynamic_rules: true
          size_budget: 200

        """

    static let upload =
        "AA:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    /// The repository, built once per test with a fixed history (the fixture's clock makes the
    /// commit IDs the same every run).
    private func repository() throws -> GitFixture {
        let fixture = try GitFixture()
        try fixture.commit(
            "Shop links",
            [
                "environments/production.yaml": ShopConfiguration.production.replacingOccurrences(
                    of: "        play-signing: \"\(ShopConfiguration.fingerprint)\"\n",
                    with:
                        "        play-signing: \"\(ShopConfiguration.fingerprint)\"\n        upload: \"\(Self.upload)\"\n"
                ),
                "domains/shop.yaml": Self.baseDomain,
            ])
        try fixture.git("checkout", "-q", "-b", "change")
        try fixture.commit(
            "Catch-all first, developer mode, drop the upload key",
            [
                "environments/production.yaml": ShopConfiguration.production.replacingOccurrences(
                    of: "tier: production\n", with: "tier: production\nentitlements_mode: developer\n"),
                "domains/shop.yaml": Self.headDomain,
                "policies/merge.yaml": """
                approvals:
                  - finding: PRODUCTION_APP_REMOVED/c05591bc5b058c85
                    reason: the upload key was rotated (SEC-12)

                """,
            ])
        return fixture
    }

    /// Every format a report of findings offers, so a new one needs its golden file.
    @Test(arguments: OutputFormat.findings)
    func matchesTheGoldenOutput(_ format: OutputFormat) throws {
        let fixture = try repository()
        let result = try runLinkwright(
            ["check", "--against", "main", "--format", format.rawValue], in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let file = Self.golden.appendingPathComponent("check.\(format.rawValue).\(Self.fileExtension(format))")
        if let mismatch = Golden.mismatch(result.stdout, golden: file) { Issue.record(Comment(rawValue: mismatch)) }
    }

    /// A golden file's extension, so editors show it as what it is.
    static func fileExtension(_ format: OutputFormat) -> String {
        switch format {
        case .text, .github: "txt"
        case .json: "json"
        case .sarif: "sarif"
        case .junit: "xml"
        case .markdown: "md"
        case .html: "html"
        case .approvals: "yaml"
        }
    }

    @Test func jsonFollowsThePublishedSchemaAndSarifIsWellFormed() throws {
        let fixture = try repository()
        let environment = ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder]
        let directory = URL(fileURLWithPath: fixture.repository)
        let json = try runLinkwright(
            ["check", "--against", "main", "--format", "json"], in: directory, environment: environment)
        let sarif = try runLinkwright(
            ["check", "--against", "main", "--format", "sarif"], in: directory, environment: environment)
        let junit = try runLinkwright(
            ["check", "--against", "main", "--format", "junit"], in: directory, environment: environment)
        let script = """
            import json, sys, jsonschema, xml.etree.ElementTree as ET
            schema = json.load(open(sys.argv[1]))
            report = json.loads(sys.argv[2])
            jsonschema.validate(report, schema)
            sarif = json.loads(sys.argv[3])
            run = sarif["runs"][0]
            assert sarif["version"] == "2.1.0"
            ids = {rule["id"] for rule in run["tool"]["driver"]["rules"]}
            assert all(result["ruleId"] in ids for result in run["results"])
            assert any("suppressions" in result for result in run["results"])
            suites = ET.fromstring(sys.argv[4])
            assert int(suites.get("failures")) >= 2
            print("ok")
            """
        let checked = try python(
            script,
            [
                RepositoryPaths.root.appendingPathComponent("docs/schema/check-report.schema.json").path, json.stdout,
                sarif.stdout, junit.stdout,
            ])
        #expect(checked.stdout == "ok\n", "\(checked)")
    }
}
