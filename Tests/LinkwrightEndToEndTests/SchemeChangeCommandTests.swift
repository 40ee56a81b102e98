import Foundation
import LinkwrightTestSupport
import Testing

/// `check`, `diff`, `changelog` and `promote` on custom schemes: a scheme's declaration that
/// changes, and scheme URLs whose router destination changes, in repositories holding the
/// example configuration.
@Suite struct SchemeChangeCommandTests {
    private func linkwright(_ arguments: [String], _ fixture: GitFixture) throws -> ProcessResult {
        try runLinkwright(
            arguments, in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder])
    }

    static let signIn = """
                  - path: /oauth/callback
                    query: {code: "?*", state: "?*"}
                    route: oauthCallback
                    params: {code: query code, state: query state}

        """
    static let failed = """
                  - path: /oauth/callback
                    query: {error: "?*"}
                    route: oauthFailed  # RFC 6749, section 4.1.2.1: the provider's error response
                    params:
                      error: query error
                      state?: query state

        """

    /// v1 the example; v2 tries production's OAuth error entry first, and the museum's kiosk
    /// scheme is for replies from another app.
    private func swappedEntries() throws -> GitFixture {
        let fixture = try GitFixture()
        let files = try RouteChangeCommandTests.example()
        try fixture.commit("Example", files)
        try fixture.git("tag", "v1")
        let production = try #require(files["environments/production.yaml"] ?? nil)
        #expect(production.contains(Self.signIn + Self.failed))
        let swapped = production.replacingOccurrences(of: Self.signIn + Self.failed, with: Self.failed + Self.signIn)
            .replacingOccurrences(
                of: "      com.example.museo:\n        purpose: deep-links",
                with: "      com.example.museo:\n        purpose: app-callback")
        try fixture.commit("Errors first; kiosk replies", ["environments/production.yaml": swapped])
        try fixture.git("tag", "v2")
        return fixture
    }

    static let routeChange =
        "  production scheme es.emergencias.app: emergencias now routes to oauthFailed(error: a, state: a) instead of oauthCallback(code: a, state: a)\n"
        + "    e.g. es.emergencias.app:/oauth/callback?code=a&error=a&state=a\n"
    static let purposeChange = "  production scheme com.example.museo: changed for museo: deep-links → app-callback\n"

    @Test func diffListsTheSchemesChangesAndItsJSONFollowsTheSchema() throws {
        let fixture = try swappedEntries()
        let text = try linkwright(["diff", "v1", "v2"], fixture)
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains(Self.purposeChange + Self.routeChange), "\(text)")
        #expect(text.stdout.hasSuffix("1 behaviour change\n"), "\(text)")
        let json = try linkwright(["diff", "v1", "v2", "--format", "json"], fixture)
        let script = """
            import json, sys, jsonschema
            report = json.loads(sys.argv[2])
            jsonschema.validate(report, json.load(open(sys.argv[1])))
            for c in report["changes"]:
                print(c["kind"], c.get("scheme"), c["host"], c["platform"], c["app"], c["before"], "->", c["after"], c["witnesses"], c["exact"])
            """
        let checked = try python(
            script,
            [RepositoryPaths.root.appendingPathComponent("docs/schema/check-report.schema.json").path, json.stdout])
        #expect(
            checked.stdout
                == "scheme_changed com.example.museo None None museo deep-links -> app-callback [] True\n"
                + "changes_route es.emergencias.app None None emergencias oauthCallback(code: a, state: a) -> "
                + "oauthFailed(error: a, state: a) ['es.emergencias.app:/oauth/callback?code=a&error=a&state=a'] True\n",
            "\(checked)")
    }

    @Test func checkReportsTheRouteChangeWithItsWitness() throws {
        let result = try linkwright(["check", "--against", "v1"], try swappedEntries())
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(Self.purposeChange + Self.routeChange), "\(result)")
    }

    @Test func changelogWritesTheSchemesChangesUnderTheirOwnHeadings() throws {
        let result = try linkwright(["changelog"], try swappedEntries())
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains(
                "### production · scheme com.example.museo\n\n- Changed for museo: deep-links → app-callback\n"),
            "\(result)")
        #expect(
            result.stdout.contains(
                "### production · scheme es.emergencias.app\n\n- Links to "
                    + "`es.emergencias.app:/oauth/callback?code=a&error=a&state=a` now open emergencias at "
                    + "`oauthFailed(error: a, state: a)` instead of at `oauthCallback(code: a, state: a)`.\n"),
            "\(result)")
    }

    /// Each environment's builds own their schemes: promoting staging says what stays there.
    @Test func promoteKeepsStagingsSchemesAndSaysSo() throws {
        let fixture = try GitFixture()
        try fixture.commit("Example", try RouteChangeCommandTests.example())
        let result = try linkwright(["promote", "staging", "production"], fixture)
        #expect(
            result.stdout.contains("  not promoted: museo: scheme com.example.museo.staging stays in staging\n"),
            "\(result)")
        #expect(
            result.stdout.contains("  not promoted: emergencias: scheme es.emergencias.app.staging stays in staging\n"))
        #expect(!result.stdout.contains("scheme_") && !result.stdout.contains(" scheme com.example.museo:"))
    }
}
