import Foundation
import LinkwrightTestSupport
import Testing

/// Inputs a pull request from anyone can put in front of CI: every command refuses them with a
/// clear error (exit 2) instead of accepting them or working without bound.
@Suite struct HostileInputTests {
    let aasa = "dist/production/museo.example/.well-known/apple-app-site-association"

    private func linkwright(_ arguments: [String], input: Data? = nil) throws -> ProcessResult {
        try runLinkwright(arguments, in: RepositoryPaths.root, input: input)
    }

    @Test func hostsOnTheCommandLineGetTheConfigurationsChecks() throws {
        let cases: [([String], String)] = [
            (["match", "--aasa", aasa, "--host", "xn--abc.example", "/x"], "label \"xn--abc\" is not a valid"),
            (["verify", "--host", "museo\u{3002}example"], "\"museo\u{3002}example\" separates labels with U+3002"),
            (
                ["import", "--aasa", aasa, "--host", "mu\u{202E}seo.example", "--env", "x", "--dry-run"],
                "label \"mu\\u{202E}seo\" has the invisible or text-reordering character U+202E"
            ),
        ]
        for (arguments, message) in cases {
            let result = try linkwright(arguments)
            #expect(result.status == 2, "\(arguments[0]): \(result)")
            #expect(result.stderr.contains("error: --host: \(message)"), "\(arguments[0]): \(result)")
        }
    }

    @Test func matchComparesHostsInTheirASCIIForm() throws {
        for (host, url) in [
            ("müseo.example", "https://xn--mseo-0ra.example/x"), ("xn--mseo-0ra.example", "https://müseo.example/x"),
        ] {
            let result = try linkwright(["match", "--aasa", aasa, "--host", host, url])
            #expect(result.status == 0, "\(result)")
        }
    }
}
