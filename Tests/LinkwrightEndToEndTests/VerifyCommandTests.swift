import Foundation
import LinkwrightTestSupport
import Testing

/// `linkwright verify` and `monitor` against a real nginx serving HTTPS on port 443 of a loopback
/// address, with a throwaway CA; `--resolve` and `--cacert` keep every system file untouched.
@Suite(.serialized) struct VerifyCommandTests {
    static let hosts = [
        "good.example", "redirect.example", "type.example", "missing.example", "big.example", "invalid.example",
        "differs.example", "slow.example", "untrusted.example", "stale.example", "written.example",
    ]

    let folder: TemporaryFolder
    let aasa: [UInt8]
    let assetLinks: [UInt8]
    /// The AASA without its exclusion: what an outdated deploy (or CDN copy) serves.
    let outdatedAASA: [UInt8]
    /// The build's rules written otherwise (a rule below one that decides all it matches), so
    /// every URL is decided alike: what a site adopting linkwright often serves.
    let rewrittenAASA = Array(
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/admin/*", "exclude": true}, {"/": "/products/*"}, {"/": "/products/*/reviews"}]}]}}"#
            .utf8)

    init() throws {
        folder = try TemporaryFolder()
        let hostLines = Self.hosts.map { "  \($0): shop\n" }.joined()
        try folder.write(
            "environments/production.yaml",
            ShopConfiguration.production.replacingOccurrences(of: "  shop.example: shop\n", with: hostLines))
        try folder.write("domains/shop.yaml", ShopConfiguration.domain)
        let build = try runLinkwright(["build"], in: folder.url)
        precondition(build.status == 0, "\(build)")
        aasa = Array(
            try Data(
                contentsOf: folder.url.appendingPathComponent(
                    "dist/production/good.example/.well-known/apple-app-site-association")))
        assetLinks = Array(
            try Data(
                contentsOf: folder.url.appendingPathComponent(
                    "dist/production/good.example/.well-known/assetlinks.json")))
        // An older rule set, its keys in another order: only the meaning may count.
        outdatedAASA = Array(
            #"{"applinks": {"details": [{"components": [{"/": "/admin/*", "exclude": true}, {"/": "/products/old/*"}], "appIDs": ["ABCDE12345.com.example.shop"]}]}}"#
                .utf8)
    }

    private var sites: [TestSite] {
        let json = "application/json"
        func files(_ aasaRoute: TestRoute?) -> [TestRoute] {
            [aasaRoute, .file("/.well-known/assetlinks.json", assetLinks, contentType: json)].compactMap { $0 }
        }
        let aasaPath = "/.well-known/apple-app-site-association"
        return [
            TestSite(["good.example", "stale.example"], routes: files(.file(aasaPath, aasa, contentType: json))),
            TestSite(
                ["redirect.example"],
                routes: files(.redirect(aasaPath, status: 301, to: "https://good.example" + aasaPath))),
            TestSite(
                ["type.example"],
                routes: [
                    .file(aasaPath, aasa, contentType: "text/html"),
                    .file("/.well-known/assetlinks.json", assetLinks, contentType: "application/octet-stream"),
                ]),
            TestSite(["missing.example"], routes: []),
            TestSite(
                ["big.example"],
                routes: files(.file(aasaPath, Array(repeating: 32, count: 200_000) + aasa, contentType: json))),
            TestSite(
                ["invalid.example"], routes: files(.file(aasaPath, Array("{\"applinks\": [".utf8), contentType: json))),
            TestSite(["differs.example"], routes: files(.file(aasaPath, outdatedAASA, contentType: json))),
            TestSite(["written.example"], routes: files(.file(aasaPath, rewrittenAASA, contentType: json))),
            TestSite(
                ["slow.example"],
                routes: files(
                    .file(aasaPath, Array(repeating: 32, count: 4000) + aasa, contentType: json, bytesPerSecond: 1000))),
            TestSite(
                ["untrusted.example"], security: .untrusted, routes: files(.file(aasaPath, aasa, contentType: json))),
            TestSite(
                ["cdn.test"],
                routes: [
                    .file("/a/v1/good.example", aasa, contentType: json, headers: [("Age", "120")]),
                    .file(
                        "/a/v1/stale.example", outdatedAASA, contentType: json,
                        headers: [("Age", "7200"), ("Cache-Control", "max-age=3600")]),
                    .file(
                        "/a/v1/missing.example", Array("not found".utf8), contentType: "text/plain",
                        headers: [("Apple-Failure-Reason", "HTTP 404")]),
                ]),
        ]
    }

    private func linkwright(_ arguments: [String], _ server: NginxTestServer) throws -> ProcessResult {
        let resolve = server.resolveOverrides.flatMap { ["--resolve", $0.description] }
        return try runLinkwright(
            arguments + resolve + [
                "--cacert", server.certificates.trustedAuthority.certificate.path, "--timeout", "2",
            ],
            in: folder.url)
    }

    @Test func reportsEveryHostingMistakePrecisely() throws {
        defer { folder.remove() }
        try withNginx(serving: sites, standardPort: true) { server in
            let result = try linkwright(["verify"], server)
            #expect(result.status == 1, "\(result)")
            let out = result.stdout
            #expect(
                out.contains("production good.example: apple-app-site-association ok, assetlinks.json ok\n"), "\(out)")
            #expect(out.contains("production stale.example: apple-app-site-association ok, assetlinks.json ok\n"))
            #expect(
                out.contains(
                    "https://redirect.example/.well-known/apple-app-site-association: redirects (301) to https://good.example/.well-known/apple-app-site-association; devices do not follow redirects [ORIGIN_REDIRECT]"
                ))
            #expect(
                out.contains(
                    "warning: https://type.example/.well-known/apple-app-site-association: Content-Type text/html; application/json is recommended [ORIGIN_CONTENT_TYPE]"
                ))
            #expect(
                out.contains(
                    "error: https://type.example/.well-known/assetlinks.json: Content-Type application/octet-stream; Android requires application/json [ORIGIN_CONTENT_TYPE]"
                ))
            #expect(
                out.contains(
                    "https://missing.example/.well-known/apple-app-site-association: answers 404, not 200 [ORIGIN_STATUS]"
                ))
            #expect(
                out.contains(
                    "https://big.example/.well-known/apple-app-site-association: is larger than 131072 bytes [ORIGIN_TOO_LARGE]"
                ))
            #expect(
                out.contains(
                    "https://invalid.example/.well-known/apple-app-site-association: is not valid: line 1, column 15:"))
            #expect(
                out.contains(
                    "https://differs.example/.well-known/apple-app-site-association: serves a file that differs from the build"
                ))
            #expect(
                out.contains(
                    "ios: now opens ABCDE12345.com.example.shop (was web), e.g. https://differs.example/products"),
                "\(out)")
            // Written otherwise, decided alike: a note, which blocks nothing.
            #expect(
                out.contains(
                    "note: https://written.example/.well-known/apple-app-site-association: serves a file written otherwise than the build, which decides every URL alike for the same apps: ios: "
                ), "\(out)")
            let written = try linkwright(["verify", "--host", "written.example"], server)
            #expect(written.status == 0, "\(written)")
            #expect(out.contains("  witness: https://differs.example/products\n"), "\(out)")
            #expect(
                out.contains(
                    "https://slow.example/.well-known/apple-app-site-association: the server did not answer in time (curl error 28"
                ))
            #expect(
                out.contains(
                    "https://untrusted.example/.well-known/apple-app-site-association: the server's certificate is not trusted"
                ))
            // Findings point at the host's line in the environment file.
            #expect(out.contains("environments/production.yaml:13:3: error: https://redirect.example/"))
        }
    }

    @Test func comparesApplesCDNCopyWithTheBuild() throws {
        defer { folder.remove() }
        try withNginx(serving: sites, standardPort: true) { server in
            let cdnBase = "https://cdn.test/a/v1"
            let result = try linkwright(
                [
                    "verify", "--cdn", "--cdn-base", cdnBase, "--host", "good.example", "--host", "stale.example",
                    "--host", "missing.example",
                ],
                server)
            #expect(result.status == 1)
            #expect(
                result.stdout.contains(
                    "production good.example: apple-app-site-association ok, assetlinks.json ok, CDN ok (Age: 120)\n"),
                "\(result)")
            #expect(
                result.stdout.contains(
                    "Apple's CDN for stale.example: still serves an older copy (Age: 7200, Cache-Control: max-age=3600)"
                ))
            #expect(result.stdout.contains("Apple's CDN for missing.example: answers 200") == false)
            #expect(!result.stdout.contains("production redirect.example"), "--host limits the round")
        }
    }

    @Test func monitorToleratesCDNLagForTheGracePeriodOnly() throws {
        defer { folder.remove() }
        try withNginx(serving: sites, standardPort: true) { server in
            let common = [
                "monitor", "--state", "state.json", "--grace", "24h", "--cdn-base", "https://cdn.test/a/v1", "--host",
                "stale.example",
            ]
            let first = try linkwright(common + ["--now", "2026-11-29T08:00:00Z"], server)
            #expect(first.status == 0, "\(first)")
            #expect(first.stdout.contains("CDN still serving the previous version for 0s (blocks after 1d)"))
            let later = try linkwright(common + ["--now", "2026-11-29T11:12:00Z"], server)
            #expect(later.status == 0)
            #expect(later.stdout.contains("CDN still serving the previous version for 3h12m (blocks after 1d)"))
            #expect(try folder.read("state.json").contains("\"production/stale.example\": \"2026-11-29T08:00:00Z\""))
            let tooLong = try linkwright(common + ["--now", "2026-11-30T09:00:00Z"], server)
            #expect(tooLong.status == 1)
            #expect(tooLong.stdout.contains("for 1d1h, longer than the grace period of 1d [CDN_DIFFERS]"))
            // An origin problem blocks at once.
            let origin = try linkwright(
                [
                    "monitor", "--state", "other.json", "--cdn-base", "https://cdn.test/a/v1", "--host",
                    "missing.example",
                ], server)
            #expect(origin.status == 1)
            #expect(origin.stdout.contains("[ORIGIN_STATUS]"))
        }
    }

    @Test func aBrokenStateFileIsALocatedError() throws {
        defer { folder.remove() }
        try folder.write("state.json", "{\"cdn_differs_since\": {\"production/x\": \"yesterday\"}}\n")
        let result = try runLinkwright(["monitor", "--state", "state.json"], in: folder.url)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "state.json:1:40: error: a bad timestamp in the monitor state file [INVALID_STATE]"), "\(result)")
    }
}
