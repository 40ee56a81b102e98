import Testing

@testable import LinkwrightCore

/// Output streamed a piece at a time (`CommandOutput.stream`) is byte for byte what printing it
/// whole gives, so `test --format json` on a fleet keeps its documented shape.
@Suite struct StreamedOutputTests {
    private func report(expectations: String) throws -> ExpectationReport {
        let files = [
            "environments/production.yaml":
                "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                + "hosts:\n  a.example: shop\n  b.example: shop\n",
            "domains/shop.yaml":
                "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\n" + expectations,
        ]
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let loaded = try #require(configuration, "\(diagnostics)")
        return ExpectationReport(
            loaded, Compiler().compile(loaded).compiled, keeping: .everyPlace, pathPrefix: "config/")
    }

    private func streamed(_ report: ExpectationReport, _ format: OutputFormat) -> (String, pieces: Int)? {
        var bytes: [UInt8] = []
        var pieces = 0
        let streams = report.stream(as: format, style: .plain) {
            bytes += $0
            pieces += 1
        }
        return streams ? (String(decoding: bytes, as: UTF8.self), pieces) : nil
    }

    @Test(arguments: [OutputFormat.json, .junit])
    func streamedIsPrinted(_ format: OutputFormat) throws {
        let full = try report(
            expectations: "expectations:\n  - url: /p/1\n    opens_app: shop\n  - url: /q\n    opens_app: shop\n"
                + "  - url: /p/%C3%A9?y=1#top\n    opens_web: true\n")
        let printed = try #require(full.printed(as: format, style: .plain, version: "1")).out
        let (text, pieces) = try #require(streamed(full, format))
        #expect(text == printed)
        #expect(pieces > 3, "one piece per expectation, not one string")
    }

    @Test func noExpectationsStreamAnEmptyList() throws {
        let empty = try report(expectations: "")
        let printed = try #require(empty.printed(as: .json, style: .plain, version: "1")).out
        #expect(streamed(empty, .json)?.0 == printed)
        #expect(printed.contains("\"expectations\": []\n}"))
        #expect(streamed(empty, .junit)?.0 == empty.printed(as: .junit, style: .plain, version: "1")?.out)
    }

    @Test func formatsPrintedWholeAreNotStreamed() throws {
        let full = try report(expectations: "expectations:\n  - url: /q\n    opens_app: shop\n")
        for format in [OutputFormat.github, .sarif, .markdown] {
            #expect(streamed(full, format) == nil)
        }
    }

    @Test func renderedBytesAreTheRenderedText() {
        let values: [JSON] = [
            .null, .array([]), .object([]),
            .object([
                ("a", .array([.int(-12), .bool(true), .string("é\u{1F600}\n\"\\\u{7F}")])),
                ("nested", .object([("x", .array([.object([("y", .null)])]))])),
            ]),
            // Indented past the 64 spaces a string is indented from at a time.
            (0..<40).reduce(JSON.string("deep")) { inner, _ in .array([inner]) },
        ]
        for value in values {
            #expect(value.renderedBytes() == Array(value.rendered().utf8))
        }
        #expect(values.last!.rendered().contains("\n" + String(repeating: " ", count: 80) + "\"deep\"\n"))
    }

    /// Streamed arrays anywhere in an object, empty or longer than a batch rendered on every
    /// core, give the object's rendered text; an empty object too.
    @Test func aStreamedObjectIsItsRenderedText() {
        let long = JSON.streamedBatch + 7
        let element: @Sendable (Int) -> JSON = { .object([("n", .int($0)), ("s", .string("é\($0)\n"))]) }
        let objects: [[(String, JSON.StreamedMember)]] = [
            [],
            [("a", .elements(count: 0, element: element))],
            [
                ("version", .value(.int(1))), ("first", .elements(count: long, element: element)),
                ("middle", .value(.array([.null, .bool(false)]))), ("empty", .elements(count: 0, element: element)),
                ("last", .elements(count: 3, element: element)),
            ],
        ]
        for members in objects {
            var bytes: [UInt8] = []
            JSON.render(object: members, to: { bytes += $0 })
            #expect(String(decoding: bytes, as: UTF8.self) == JSON.object(members.map { ($0, $1.value) }).rendered())
        }
    }

    /// A changelog's JSON streams its releases newest first, as printing it whole writes them:
    /// changes, notes, a release not compared, the forge's links, and no releases at all.
    @Test func aStreamedChangelogIsItsPrintedJSON() throws {
        func point(_ name: String) -> Changelog.Point {
            Changelog.Point(name: name, commit: "abc\(name.count)", date: "2026-12-06")
        }
        let change = LinkChange(
            kind: .opensApp, environment: "production", host: "a.example", platform: .ios, app: "shop",
            after: "/p/*", witnesses: ["https://a.example/p/\u{E9}\"q"])
        let releases = [
            Changelog.Release(from: point("v1.0"), to: point("v1.1"), changes: [change, change]),
            Changelog.Release(
                from: point("v1.1"), to: point("v1.2"), changes: [], notes: ["v1.2: no contract"], compared: false),
            Changelog.Release(from: point("v1.2"), to: point("v1.10"), changes: [change]),
        ]
        let links = try #require(CompareLinks(remote: "https://github.com/example/site.git"))
        for changelog in [
            Changelog(releases: releases, compareLinks: links), Changelog(releases: releases), Changelog(releases: []),
        ] {
            let printed = try #require(changelog.printed(as: .json, style: .plain, version: "1")).out
            var bytes: [UInt8] = []
            #expect(changelog.stream(as: .json, style: .plain) { bytes += $0 })
            #expect(String(decoding: bytes, as: UTF8.self) == printed)
            #expect(!changelog.stream(as: .markdown, style: .plain) { _ in Issue.record("markdown is printed whole") })
        }
        let newestFirst = try #require(Changelog(releases: releases).printed(as: .json, style: .plain, version: "1"))
            .out
        #expect(newestFirst.range(of: "\"v1.10\"")!.lowerBound < newestFirst.range(of: "\"v1.0\"")!.lowerBound)
    }

    /// A change as a value, member by member as the documented shape lists them
    /// (docs/schema/check-report.schema.json): what streaming describes straight to text.
    private static func plainJSON(_ change: LinkChange) -> JSON {
        var members: [(String, JSON)] = [
            ("environment", .string(change.environment)), ("host", change.host.map(JSON.string) ?? .null),
            ("platform", change.platform.map { .string($0.rawValue) } ?? .null),
            ("app", change.app.map(JSON.string) ?? .null), ("kind", .string(change.kind.rawValue)),
            ("before", change.before.map(JSON.string) ?? .null), ("after", change.after.map(JSON.string) ?? .null),
            ("witnesses", .array(change.witnesses.map(JSON.string))), ("exact", .bool(!change.approximate)),
        ]
        if let scheme = change.scheme { members.append(("scheme", .string(scheme))) }
        if let route = change.routeBefore { members.append(("route_before", .string(route))) }
        if let route = change.routeAfter { members.append(("route_after", .string(route))) }
        return .object(members)
    }

    /// Seeded changelogs stream, each release and change described straight to text without a
    /// value made for it, the text of their value made member by member; each change's own
    /// value (`check`, `diff`) is that value too.
    @Test func seededChangelogsStreamTheirValuesText() throws {
        let texts = [
            "", "production", "a.example", "/p/*", "caf\u{E9}\"q\\", "line\nbreak", "\u{2028}", "ticket(id: 4)",
        ]
        for seed in 0..<60 {
            var generator = SplitMix64(seed: UInt64(seed))
            func text() -> String { texts.randomElement(using: &generator)! }
            func maybe() -> String? { Bool.random(using: &generator) ? text() : nil }
            func point() -> Changelog.Point { Changelog.Point(name: text(), commit: text(), date: text()) }
            let releases = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                let changes = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                    LinkChange(
                        kind: LinkChange.Kind.allCases.randomElement(using: &generator)!, environment: text(),
                        host: maybe(), scheme: maybe(),
                        platform: [nil, .ios, .android].randomElement(using: &generator)!,
                        app: maybe(), before: maybe(), after: maybe(), routeBefore: maybe(), routeAfter: maybe(),
                        witnesses: (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() },
                        approximate: Bool.random(using: &generator))
                }
                return Changelog.Release(
                    from: point(), to: point(), changes: changes,
                    notes: (0..<Int.random(in: 0...2, using: &generator)).map { _ in text() },
                    compared: Bool.random(using: &generator))
            }
            let links = seed.isMultiple(of: 2) ? CompareLinks(remote: "https://github.com/example/site.git") : nil
            let changelog = Changelog(releases: releases, compareLinks: links)
            func pointJSON(_ point: Changelog.Point) -> JSON {
                .object([
                    ("name", .string(point.name)), ("commit", .string(point.commit)), ("date", .string(point.date)),
                ])
            }
            let plain = JSON.object([
                ("version", .int(2)),
                (
                    "releases",
                    .array(
                        releases.reversed().map { release in
                            .object([
                                ("from", pointJSON(release.from)), ("to", pointJSON(release.to)),
                                (
                                    "compare",
                                    (links?.url(from: release.from.name, to: release.to.name)).map(JSON.string) ?? .null
                                ),
                                ("changes", .array(release.changes.map(Self.plainJSON))),
                                ("notes", .array(release.notes.map(JSON.string))),
                                ("compared", .bool(release.compared)),
                            ])
                        })
                ),
            ])
            var bytes: [UInt8] = []
            #expect(changelog.stream(as: .json, style: .plain) { bytes += $0 })
            #expect(String(decoding: bytes, as: UTF8.self) == plain.rendered(), "seed \(seed)")
            #expect(changelog.json == plain, "seed \(seed)")
            for change in releases.flatMap(\.changes) {
                #expect(change.json == Self.plainJSON(change), "seed \(seed)")
            }
        }
    }
}
