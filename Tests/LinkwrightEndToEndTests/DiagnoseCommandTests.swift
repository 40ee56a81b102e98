import Foundation
import LinkwrightTestSupport
import Testing

/// `linkwright diagnose` against a real nginx serving HTTPS on port 443 of a loopback address
/// (as `verify`'s tests do), a URL broken at each layer in turn.
@Suite(.serialized) struct DiagnoseCommandTests {
    static let environment = """
        tier: production
        team_id: ABCDE12345
        apps:
          museo:
            ios:
              bundle_id: com.example.museo
            android:
              package: com.example.museo
              fingerprints:
                play-signing: "\(ShopConfiguration.fingerprint)"
        hosts:
          museo.example: museo

        """
    static let domain = """
        applinks:
          - apps: [museo]
            rules:
              - path: /admin/*
                exclude: true
              - path: /tickets/*
                route: ticket
                params:
                  id?: segment 2 as int

        """

    let folder: TemporaryFolder
    let aasa: [UInt8]
    let assetLinks: [UInt8]

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("environments/production.yaml", Self.environment)
        try folder.write("domains/museo.yaml", Self.domain)
        (aasa, assetLinks) = try builtAssociationFiles(in: folder, host: "museo.example")
    }

    /// museo.example serving `served` as its AASA, and Apple's CDN (cdn.test) serving `cdn`.
    func sites(served: [UInt8]? = nil, cdn: [UInt8]? = nil) -> [TestSite] {
        let json = "application/json"
        return [
            TestSite(
                ["museo.example"],
                routes: [
                    .file("/.well-known/apple-app-site-association", served ?? aasa, contentType: json),
                    .file("/.well-known/assetlinks.json", assetLinks, contentType: json),
                ]),
            TestSite(["cdn.test"], routes: cdn.map { [.file("/a/v1/museo.example", $0, contentType: json)] } ?? []),
        ]
    }

    func diagnose(_ url: String, _ server: NginxTestServer, _ extra: [String] = []) throws -> ProcessResult {
        try runLinkwright(
            ["diagnose", url, "--platform", "ios", "--cdn-base", "https://cdn.test/a/v1", "--timeout", "2"]
                + server.resolveOverrides.flatMap { ["--resolve", $0.description] }
                + ["--cacert", server.certificates.trustedAuthority.certificate.path] + extra,
            in: folder.url)
    }

    /// The `N. layer: status` lines.
    static func statuses(_ result: ProcessResult) -> [String] {
        result.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("     ") }.map {
            String($0.dropFirst(2).prefix { $0 != "—" }).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func aGoodLinkWalksEveryLayerToTheRouter() throws {
        defer { folder.remove() }
        try withNginx(serving: sites(cdn: aasa), standardPort: true) { server in
            let result = try diagnose("https://museo.example/tickets/42", server)
            #expect(result.status == 0, "\(result)")
            #expect(
                Self.statuses(result) == [
                    "1. binary: not checked", "2. origin: ok", "3. content: ok", "4. CDN: ok", "5. device: not checked",
                    "6. app router: ok",
                ], "\(result)")
            #expect(result.stdout.contains("6. app router: ok — the generated router gives ticket(id: 42)"))
            #expect(result.stdout.contains("no broken layer found from here; check the device"))
        }
    }

    @Test func anUnreachableOriginIsTheFirstBrokenLayer() throws {
        defer { folder.remove() }
        let result = try runLinkwright(
            ["diagnose", "https://museo.example/tickets/42", "--connect-to", "::127.0.0.1:1", "--timeout", "2"],
            in: folder.url)
        #expect(result.status == 1, "\(result)")
        #expect(
            Self.statuses(result).prefix(3) == [
                "1. binary: not checked", "2. origin: broken", "3. content: not reached",
            ])
        #expect(result.stdout.contains("first broken layer: origin\n"))
        #expect(result.stdout.contains("on android, environment production:"), "both platforms without --platform")
    }

    @Test func anExcludedURLIsBrokenInTheContentWithItsDecidingRule() throws {
        defer { folder.remove() }
        try withNginx(serving: sites(cdn: aasa), standardPort: true) { server in
            let result = try diagnose("https://museo.example/admin/users", server, ["--format", "json"])
            #expect(result.status == 1, "\(result)")
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
            let diagnosis = (json["diagnoses"] as! [[String: Any]])[0]
            #expect(diagnosis["broken_layer"] as? String == "content")
            let content = (diagnosis["layers"] as! [[String: Any]])[2]
            #expect(
                content["summary"] as? String
                    == "ABCDE12345.com.example.museo stays on the web: an exclusion matched (deciding rule: "
                    + "domains/museo.yaml:4:9)", "\(result)")
        }
    }

    @Test func aServedFileThatDiffersIsBrokenInTheContent() throws {
        defer { folder.remove() }
        let outdated = Array(
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.museo"], "components": [{"/": "/old/*"}]}]}}"#
                .utf8)
        try withNginx(serving: sites(served: outdated, cdn: aasa), standardPort: true) { server in
            let result = try diagnose("https://museo.example/tickets/42", server)
            #expect(result.status == 1, "\(result)")
            #expect(Self.statuses(result)[2] == "3. content: broken", "\(result)")
            #expect(result.stdout.contains("serves a file that differs from the build"))
        }
    }

    @Test func aCDNWithoutTheFileIsBrokenAtTheCDN() throws {
        defer { folder.remove() }
        try withNginx(serving: sites(cdn: nil), standardPort: true) { server in
            let result = try diagnose("https://museo.example/tickets/42", server)
            #expect(result.status == 1, "\(result)")
            #expect(Self.statuses(result)[3] == "4. CDN: broken", "\(result)")
            #expect(result.stdout.contains("first broken layer: CDN\n"))
        }
    }

    @Test func aRouteThatCannotReadTheURLIsBrokenAtTheRouter() throws {
        defer { folder.remove() }
        try withNginx(serving: sites(cdn: aasa), standardPort: true) { server in
            let result = try diagnose("https://museo.example/tickets/annual", server)
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stdout.contains(
                    "6. app router: broken — the generated router gives no destination: id reads \"annual\", not an int"
                ), "\(result)")
        }
    }
}
