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

    static func museo(_ files: [String: String?]) -> String { (files["domains/museo.yaml"] ?? nil) ?? "" }

    /// v1 the example; v2 renames the exhibition destination `event`.
    private func renamedDestination() throws -> GitFixture {
        let fixture = try GitFixture()
        let files = try GitFixture.exampleFiles()
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
        let notes = try output(["changelog"], try renamedDestination())
        #expect(
            notes.contains(
                "- Links to `/exhibitions` still open museo, now at `event(slug: nil)` instead of at `exhibition(slug: nil)`."
            ),
            "\(notes)")
    }

    /// A staging rule in front of a production one takes some of its URLs to its own
    /// destination: promoting it changes where production's router takes them.
    @Test func promoteShowsTheProductionURLsWhoseDestinationChanges() throws {
        let fixture = try GitFixture()
        var files = try GitFixture.exampleFiles()
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

    /// The example's museo domain without its campaign ticket rule and the expectations on it.
    static func withoutTickets(_ files: [String: String?]) throws -> String {
        let museo = museo(files)
        let rule = try #require(museo.range(of: "      - path: /tickets/*\n"))
        let next = try #require(museo.range(of: "      - path: /$(lang)", range: rule.upperBound..<museo.endIndex))
        var trimmed = museo
        trimmed.removeSubrange(rule.lowerBound..<next.lowerBound)
        for expectation in [
            "  - url: /tickets/annual\n    opens_web: true\n"
                + "    comment: Without a source query item the ticket page stays on the web\n",
            "  - url: /tickets/annual?source=newsletter\n    opens_app: museo\n"
                + "    route: \"ticket(id: annual, source: newsletter)\"\n",
        ] {
            #expect(trimmed.contains(expectation))
            trimmed = trimmed.replacingOccurrences(of: expectation, with: "")
        }
        return trimmed
    }

    /// v1 without the ticket rule, v2 the example (the rule added), v3 without it again.
    private func ticketsAddedAndRemoved() throws -> GitFixture {
        let fixture = try GitFixture()
        let files = try GitFixture.exampleFiles()
        let without = try Self.withoutTickets(files)
        try fixture.commit("Example without tickets", files.merging(["domains/museo.yaml": without]) { $1 })
        try fixture.git("tag", "v1")
        try fixture.commit("Campaign tickets open the app", ["domains/museo.yaml": Self.museo(files)])
        try fixture.git("tag", "v2")
        try fixture.commit("Tickets are sold on the web again", ["domains/museo.yaml": without])
        try fixture.git("tag", "v3")
        return fixture
    }

    /// What a command that must succeed prints.
    private func output(_ arguments: [String], _ fixture: GitFixture) throws -> String {
        let result = try linkwright(arguments, fixture)
        #expect(result.status == 0, "\(result)")
        return result.stdout
    }

    /// A link gained names where it now goes; a link lost, where it went.
    @Test func diffNamesTheDestinationOnTheSideThatOpens() throws {
        let fixture = try ticketsAddedAndRemoved()
        let gainedText = try output(["diff", "v1", "v2"], fixture)
        let lostText = try output(["diff", "v2", "v3"], fixture)
        #expect(
            gainedText.contains(
                "  production museo.example ios: now opens A1B2C3D4E5.com.example.museo at ticket(id: nil, source: a) instead of the web\n"
                    + "    e.g. https://museo.example/tickets?source=a\n"), "\(gainedText)")
        #expect(
            gainedText.contains(
                "  staging staging.museo.example android: now opens com.example.museo.staging at ticket(id: nil, source: a) instead of the web\n"
            ), "\(gainedText)")
        #expect(
            lostText.contains(
                "  production museo.example android: no longer opens com.example.museo at ticket(id: nil, source: a); it stays on the web\n"
                    + "    e.g. https://museo.example/tickets?source=a\n    e.g. https://museo.example/tickets/?source=a\n"
            ),
            "\(lostText)")
        #expect(!lostText.contains("now stays on the web"), "\(lostText)")
        let json = try linkwright(["diff", "v1", "v2", "--format", "json"], fixture)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let changes = try #require(root["changes"] as? [[String: Any]])
        let gained = changes.filter { $0["kind"] as? String == "opens_app" }
        #expect(gained.count == 8, "\(gained)")
        #expect(gained.allSatisfy { $0["route_after"] as? String == "ticket(id: nil, source: a)" }, "\(gained)")
        #expect(gained.allSatisfy { $0["route_before"] == nil && $0["before"] as? String == "web" }, "\(gained)")
        // Structural changes name no route.
        #expect(
            changes.filter { !["opens_app", "changes_route"].contains($0["kind"] as? String) }.allSatisfy {
                $0["route_after"] == nil && $0["route_before"] == nil
            })
    }

    @Test func checkNamesTheLostDestinationAndItsJSONFollowsTheSchema() throws {
        let fixture = try ticketsAddedAndRemoved()
        let result = try linkwright(["check", "--against", "v2"], fixture)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains(
                "  production entradas.museo.example ios: no longer opens A1B2C3D4E5.com.example.museo at ticket(id: nil, source: a); it stays on the web\n"
            ), "\(result)")
        let json = try linkwright(["check", "--against", "v2", "--format", "json"], fixture)
        let script = """
            import json, sys, jsonschema
            report = json.loads(sys.argv[2])
            jsonschema.validate(report, json.load(open(sys.argv[1])))
            lost = [c for c in report["changes"] if c["kind"] == "opens_web"]
            print(len(lost), sorted({c.get("route_before") for c in lost}), any("route_after" in c for c in lost))
            """
        let checked = try python(
            script,
            [RepositoryPaths.root.appendingPathComponent("docs/schema/check-report.schema.json").path, json.stdout])
        #expect(checked.stdout == "8 ['ticket(id: nil, source: a)'] False\n", "\(checked)")
    }

    /// Release notes show a readable URL of the rule; the destination's arguments are its own.
    @Test func changelogNamesBothDestinations() throws {
        let notes = try output(["changelog"], try ticketsAddedAndRemoved())
        #expect(
            notes.contains(
                "- Links to `/tickets/example?source=example` now open museo at "
                    + "`ticket(id: example, source: example)` instead of the web.\n"), "\(notes)")
        #expect(
            notes.contains(
                "- Links to `/tickets/example?source=example` no longer open museo at "
                    + "`ticket(id: example, source: example)`; they stay on the web.\n"), "\(notes)")
    }
}
