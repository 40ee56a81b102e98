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
                    query: {code: "?*", state: "?*", error: ""}  # absent or empty: an error never signs in
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

    /// v1 the example; v2 lets production's sign-in entry take redirects carrying an error too
    /// (it comes first), which staging and development take with `routes_from`, and the
    /// museum's kiosk schemes of production and staging are for replies from another app.
    private func widenedSignIn() throws -> GitFixture {
        let fixture = try GitFixture()
        let files = try GitFixture.exampleFiles()
        try fixture.commit("Example", files)
        try fixture.git("tag", "v1")
        let production = try #require(files["environments/production.yaml"] ?? nil)
        #expect(production.contains(Self.signIn + Self.failed))
        let widened = production.replacingOccurrences(
            of: Self.signIn, with: Self.signIn.replacingOccurrences(of: ", error: \"\"}", with: "}")
        )
        .replacingOccurrences(
            of: "      com.example.museo:\n        purpose: deep-links",
            with: "      com.example.museo:\n        purpose: app-callback")
        let staging = try #require(files["environments/staging.yaml"] ?? nil)
        let replies = staging.replacingOccurrences(
            of: "      com.example.museo.staging:\n        purpose: deep-links",
            with: "      com.example.museo.staging:\n        purpose: app-callback")
        #expect(replies != staging)
        try fixture.commit(
            "Sign in whatever the error; kiosk replies",
            ["environments/production.yaml": widened, "environments/staging.yaml": replies])
        try fixture.git("tag", "v2")
        return fixture
    }

    static let routeChange =
        "  production scheme es.emergencias.app: emergencias now routes to oauthCallback(code: a, state: a) instead of oauthFailed(error: a, state: a)\n"
        + "    e.g. es.emergencias.app:/oauth/callback?code=a&error=a&state=a\n"
        // Apple's dictionaries need every occurrence of an item to match: an empty `error` beside
        // another kept the base's sign-in entry from matching, and the error entry too.
        + "  production scheme es.emergencias.app: emergencias now routes to oauthCallback(code: a, state: a) instead of no destination (no route entry matches)\n"
        + "    e.g. es.emergencias.app:/oauth/callback?code=a&error&error=a&state=a\n"
    static let purposeChange =
        "  production scheme com.example.museo: changed for museo: deep-links → app-callback\n"
        + "  staging scheme com.example.museo.staging: changed for museo: deep-links → app-callback\n"

    @Test func diffListsTheSchemesChangesAndItsJSONFollowsTheSchema() throws {
        let fixture = try widenedSignIn()
        let text = try linkwright(["diff", "v1", "v2"], fixture)
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.hasPrefix("changes:\n" + Self.purposeChange), "\(text)")
        #expect(text.stdout.contains(Self.routeChange), "\(text)")
        // The environments taking production's routes change with them.
        #expect(
            text.stdout.contains(
                "  staging scheme es.emergencias.app.staging: emergencias now routes to oauthCallback(code: a, state: a) "
                    + "instead of oauthFailed(error: a, state: a)\n"
                    + "    e.g. es.emergencias.app.staging:/oauth/callback?code=a&error=a&state=a\n"), "\(text)")
        #expect(text.stdout.hasSuffix("6 behaviour changes\n"), "\(text)")
        // The pull-request comment's table names the scheme where a host would be.
        let markdown = try linkwright(["diff", "v1", "v2", "--format", "markdown"], fixture)
        #expect(
            markdown.stdout.contains(
                "| scheme com.example.museo |  | changed for museo: deep-links → app-callback |  |\n"
                    + "| scheme es.emergencias.app |  | emergencias now routes to oauthCallback(code: a, state: a) instead of "
                    + "oauthFailed(error: a, state: a) | `es.emergencias.app:/oauth/callback?code=a&error=a&state=a` |\n"
            ),
            "\(markdown)")
        let json = try linkwright(["diff", "v1", "v2", "--format", "json"], fixture)
        let script = """
            import json, sys, jsonschema
            report = json.loads(sys.argv[2])
            jsonschema.validate(report, json.load(open(sys.argv[1])))
            for c in report["changes"]:
                if c["environment"] != "production": continue
                print(c["kind"], c.get("scheme"), c["host"], c["platform"], c["app"], c["before"], "->", c["after"], c["witnesses"], c["exact"])
            """
        let checked = try python(
            script,
            [RepositoryPaths.root.appendingPathComponent("docs/schema/check-report.schema.json").path, json.stdout])
        #expect(
            checked.stdout
                == "scheme_changed com.example.museo None None museo deep-links -> app-callback [] True\n"
                + "changes_route es.emergencias.app None None emergencias oauthFailed(error: a, state: a) -> "
                + "oauthCallback(code: a, state: a) ['es.emergencias.app:/oauth/callback?code=a&error=a&state=a'] True\n"
                + "changes_route es.emergencias.app None None emergencias no destination (no route entry matches) -> "
                + "oauthCallback(code: a, state: a) ['es.emergencias.app:/oauth/callback?code=a&error&error=a&state=a'] True\n",
            "\(checked)")
    }

    /// The example's expectation of a redirect carrying a code and an error fails too.
    @Test func checkReportsTheRouteChangeWithItsWitness() throws {
        let result = try linkwright(["check", "--against", "v1"], try widenedSignIn())
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout.contains(
                "error=server_error on android: expected emergencias at oauthFailed(error: server_error, state: c81d), "
                    + "got emergencias at oauthCallback(code: 4f2a, state: c81d)"), "\(result)")
        #expect(result.stdout.contains(Self.purposeChange), "\(result)")
        #expect(result.stdout.contains(Self.routeChange), "\(result)")
    }

    @Test func changelogWritesTheSchemesChangesUnderTheirOwnHeadings() throws {
        let result = try linkwright(["changelog"], try widenedSignIn())
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains(
                "- Changed for museo: `deep-links → app-callback`\n"
                    + "  - production: `scheme com.example.museo`; staging: `scheme com.example.museo.staging`\n"),
            "\(result)")
        #expect(
            result.stdout.contains(
                "- Links to `es.emergencias.app:/oauth/callback?code=a&error=a&state=a` now open emergencias at "
                    + "`oauthCallback(code: a, state: a)` instead of at `oauthFailed(error: a, state: a)`.\n"
                    + "  - production: `scheme es.emergencias.app`\n"),
            "\(result)")
    }

    /// v2 drops production's OAuth error entry: the provider's error redirects still open the app.
    @Test func checkBlocksARemovedSchemeRouteProductionStillDeclares() throws {
        let fixture = try GitFixture()
        let files = try GitFixture.exampleFiles()
        try fixture.commit("Example", files)
        try fixture.git("tag", "v1")
        let production = try #require(files["environments/production.yaml"] ?? nil)
        let expected = ["access_denied", "server_error"].map { "route: \"oauthFailed(error: \($0), state: c81d)\"" }
        #expect(expected.allSatisfy(production.contains))
        try fixture.commit(
            "No error screen",
            [
                "environments/production.yaml": production.replacingOccurrences(of: Self.failed, with: "")
                    .replacingOccurrences(of: expected[0], with: "route: none")
                    .replacingOccurrences(of: expected[1], with: "route: none")
            ])
        let result = try linkwright(["check", "--against", "v1"], fixture)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout.contains(
                "route oauthFailed is removed from scheme es.emergencias.app, but production still declares it for "
                    + "emergencias in production, and its URLs open the app (now no destination) [ROUTE_REMOVED]"),
            "\(result)")
        #expect(
            result.stdout.contains(
                "  production scheme es.emergencias.app: emergencias now routes to no destination (no route entry matches) "
                    + "instead of oauthFailed(error: a, state: nil)\n    e.g. es.emergencias.app:/oauth/callback?error=a\n"
            ),
            "\(result)")
    }

    /// Each environment's builds own their schemes: promoting staging says what stays there.
    @Test func promoteKeepsStagingsSchemesAndSaysSo() throws {
        let fixture = try GitFixture()
        try fixture.commit("Example", try GitFixture.exampleFiles())
        let result = try linkwright(["promote", "staging", "production"], fixture)
        #expect(
            result.stdout.contains("  not promoted: museo: scheme com.example.museo.staging stays in staging\n"),
            "\(result)")
        #expect(
            result.stdout.contains("  not promoted: emergencias: scheme es.emergencias.app.staging stays in staging\n"))
        #expect(!result.stdout.contains("scheme_") && !result.stdout.contains(" scheme com.example.museo:"))
    }
}
