import Foundation
import LinkwrightTestSupport
import Testing

/// `check`, `diff`, `changelog` and `promote` report URLs whose router destination changes, in
/// repositories holding the example configuration.
@Suite struct RouteChangeCommandTests {
    private func linkwright(_ arguments: [String], _ fixture: GitFixture) throws -> ProcessResult {
        try runLinkwright(
            arguments, in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder])
    }

    /// The example's environments, domains and policies as the repository holds them.
    static func example() throws -> [String: String?] {
        var files: [String: String?] = [:]
        for folder in ["environments", "domains", "policies"] {
            let url = RepositoryPaths.root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                files["\(folder)/\(name)"] = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
            }
        }
        return files
    }

    static func museo(_ files: [String: String?]) -> String { (files["domains/museo.yaml"] ?? nil) ?? "" }

    /// v1 the example; v2 renames the exhibition destination `event`.
    private func renamedDestination() throws -> GitFixture {
        let fixture = try GitFixture()
        let files = try Self.example()
        try fixture.commit("Example", files)
        try fixture.git("tag", "v1")
        let renamed = Self.museo(files).replacingOccurrences(of: "route: exhibition\n", with: "route: event\n")
            .replacingOccurrences(of: "\"exhibition(slug:", with: "\"event(slug:")
        #expect(renamed != Self.museo(files))
        try fixture.commit("Exhibitions are events", ["domains/museo.yaml": renamed])
        try fixture.git("tag", "v2")
        return fixture
    }

    static let change =
        "production museo.example ios: A1B2C3D4E5.com.example.museo now routes to event(slug: nil) instead of exhibition(slug: nil)\n    e.g. https://museo.example/exhibitions\n"

    @Test func diffListsTheRouteChangeWithItsWitness() throws {
        let fixture = try renamedDestination()
        let result = try linkwright(["diff", "v1", "v2"], fixture)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(Self.change), "\(result)")
        #expect(
            result.stdout.contains(
                "staging staging.museo.example android: com.example.museo.staging now routes to event"))
        let json = try linkwright(["diff", "v1", "v2", "--format", "json"], fixture)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let changes = try #require(root["changes"] as? [[String: Any]])
        let route = try #require(changes.first { $0["kind"] as? String == "changes_route" })
        #expect(
            route["before"] as? String == "exhibition(slug: nil)" && route["after"] as? String == "event(slug: nil)")
        #expect(route["witnesses"] as? [String] == ["https://museo.example/exhibitions"])
        #expect(route["exact"] as? Bool == true)
    }

    @Test func checkReportsTheRouteChangeBesideTheRemovedRoute() throws {
        let fixture = try renamedDestination()
        let result = try linkwright(["check", "--against", "v1"], fixture)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("[ROUTE_REMOVED]") || result.stderr.contains("[ROUTE_REMOVED]"), "\(result)")
        #expect(result.stdout.contains(Self.change), "\(result)")
    }

    @Test func changelogNotesTheRouteChange() throws {
        let fixture = try renamedDestination()
        let result = try linkwright(["changelog"], fixture)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains(
                "A1B2C3D4E5.com.example.museo now routes to event(slug: nil) instead of exhibition(slug: nil)"),
            "\(result)")
    }

    /// A staging rule in front of a production one takes some of its URLs to its own
    /// destination: promoting it changes where production's router takes them.
    @Test func promoteShowsTheProductionURLsWhoseDestinationChanges() throws {
        let fixture = try GitFixture()
        var files = try Self.example()
        files["domains/museo.yaml"] = Self.museo(files).replacingOccurrences(
            of: "      - path: /exhibitions/*\n",
            with: """
                      - path: /exhibitions/vip
                        environments: [staging]
                        route: vipExhibition
                      - path: /exhibitions/*

                """)
        try fixture.commit("A VIP screen on staging", files)
        let result = try linkwright(["promote", "staging", "production"], fixture)
        #expect(
            result.stdout.contains(
                "production museo.example ios: A1B2C3D4E5.com.example.museo now routes to vipExhibition instead of exhibition(slug: vip)"
            ), "\(result)")
        #expect(result.stdout.contains("e.g. https://museo.example/exhibitions/vip"), "\(result)")
    }
}
