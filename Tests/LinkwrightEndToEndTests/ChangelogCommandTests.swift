import Foundation
import LinkwrightTestSupport
import Testing

/// `linkwright changelog` over tagged histories built in temporary repositories.
@Suite struct ChangelogCommandTests {
    static let golden = RepositoryPaths.root.appendingPathComponent("Tests/LinkwrightEndToEndTests/Golden/changelog")

    private func linkwright(_ arguments: [String], _ fixture: GitFixture) throws -> ProcessResult {
        try runLinkwright(
            arguments, in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder])
    }

    /// v1.0 the shop; v1.1 adds offers; v1.2 touches only the README; v1.3 breaks the YAML;
    /// v1.10 fixes it and drops the Android app (tags sort as versions: v1.10 comes last).
    private func configurationHistory() throws -> GitFixture {
        let fixture = try GitFixture()
        try fixture.commit("Shop", ShopConfiguration.files())
        try fixture.git("tag", "-a", "v1.0", "-m", "v1.0")
        let offers = ShopConfiguration.domain.replacingOccurrences(
            of: "      - path: /products/*\n", with: "      - path: /products/*\n      - path: /offers/*\n")
        try fixture.commit("Offers", ["domains/shop.yaml": offers])
        try fixture.git("tag", "v1.1")
        try fixture.commit("Readme", ["README.md": "the shop\n"])
        try fixture.git("tag", "v1.2")
        try fixture.commit("Broken", ["domains/shop.yaml": offers + "  - url: [\n"])
        try fixture.git("tag", "v1.3")
        let production = ShopConfiguration.production.replacingOccurrences(
            of:
                "    android:\n      package: com.example.shop\n      fingerprints:\n        play-signing: \"\(ShopConfiguration.fingerprint)\"\n",
            with: "")
        try fixture.commit(
            "Fixed, iOS only", ["domains/shop.yaml": offers, "environments/production.yaml": production])
        try fixture.git("tag", "v1.10")
        return fixture
    }

    @Test(arguments: [("markdown", "md"), ("json", "json"), ("html", "html")])
    func matchesTheGoldenReleaseNotes(_ format: String, _ suffix: String) throws {
        let fixture = try configurationHistory()
        let result = try linkwright(["changelog", "--format", format], fixture)
        #expect(result.status == 0, "\(result)")
        if let mismatch = Golden.mismatch(
            result.stdout, golden: Self.golden.appendingPathComponent("configuration.\(suffix)"))
        {
            Issue.record(Comment(rawValue: mismatch))
        }
    }

    @Test func aRangeAndAGlobSelectTheReleases() throws {
        let fixture = try configurationHistory()
        /// "from..to" of each release, newest first, as the JSON lists them.
        func ranges(_ output: String) throws -> [String] {
            let root = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let releases = try #require(root["releases"] as? [[String: Any]])
            return releases.map { release in
                let (from, to) = (release["from"] as? [String: String], release["to"] as? [String: String])
                return "\(from?["name"] ?? "?")..\(to?["name"] ?? "?")"
            }
        }
        let range = try linkwright(["changelog", "v1.1..v1.10", "--format", "json"], fixture)
        #expect(try ranges(range.stdout) == ["v1.3..v1.10", "v1.2..v1.3", "v1.1..v1.2"])
        let glob = try linkwright(["changelog", "--tags", "v1.1*", "--format", "json"], fixture)
        #expect(try ranges(glob.stdout) == ["v1.1..v1.10"])
    }

    @Test func needsTwoRevisions() throws {
        let fixture = try GitFixture()
        try fixture.commit("Shop", ShopConfiguration.files())
        let result = try linkwright(["changelog"], fixture)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: the changelog needs at least two revisions"))
    }

    /// A repository with only a hand-written AASA, renamed once, broken once.
    @Test func followsARawArtifactThroughRenamesAndBreakage() throws {
        let fixture = try GitFixture()
        let legacy =
            #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.shop", "paths": ["NOT /admin/*", "/products/*"]}]}}"#
        try fixture.commit("Legacy file", ["public/apple-app-site-association.json": legacy + "\n"])
        try fixture.git("tag", "v1")
        let modern =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/admin/*", "exclude": true}, {"/": "/products/*"}, {"/": "/offers/*"}]}]}}"#
        try fixture.commit(
            "Move to .well-known, add offers",
            [
                "public/apple-app-site-association.json": nil,
                "public/.well-known/apple-app-site-association": modern + "\n",
            ])
        try fixture.git("tag", "v2")
        try fixture.commit("Oops", ["public/.well-known/apple-app-site-association": "{\"applinks\": \n"])
        try fixture.git("tag", "v3")
        try fixture.commit("Fixed", ["public/.well-known/apple-app-site-association": modern + "\n"])
        try fixture.git("tag", "v4")
        let arguments = [
            "changelog", "--artifact", "public/.well-known/apple-app-site-association", "--artifact",
            "public/apple-app-site-association.json", "--host", "shop.example",
        ]
        let result = try linkwright(arguments, fixture)
        #expect(result.status == 0, "\(result)")
        // Without the host, every URL would be shown on a made-up one.
        let hostless = try linkwright(Array(arguments.dropLast(2)), fixture)
        #expect(hostless.status == 2, "\(hostless)")
        #expect(hostless.stderr.hasPrefix("error: --artifact needs --host HOST"), "\(hostless)")
        if let mismatch = Golden.mismatch(result.stdout, golden: Self.golden.appendingPathComponent("artifact.md")) {
            Issue.record(Comment(rawValue: mismatch))
        }
        #expect(result.stdout.contains("now opens ABCDE12345.com.example.shop (was web)"))
        #expect(result.stdout.contains("is not valid JSON"))
    }
}
