import Foundation
import LinkwrightTestSupport
import Testing

/// The pull-request outputs of a three-edit change to the example (an upload key rotated, an
/// exclusion moved below the rule it guarded, a catch-all that opens the OAuth callback): the
/// comment fits GitHub's comment column and counts what it lists; the annotations go to who may
/// open links and to root causes before the expectations those break.
@Suite struct PullRequestCommentTests {
    let fixture: GitFixture

    init() throws {
        fixture = try GitFixture()
        try fixture.commit("The example configuration", try GitFixture.exampleFiles())
        try fixture.git("checkout", "-q", "-b", "three-edits")
        let production = try read("environments/production.yaml").replacingOccurrences(
            of: "2C:F0:D7:85:52:59:58:D7:4E:29:8E:E9:82:0F:06:5C:08:56:41:90:23:7B:F9:05:05:E1:75:E1:0B:95:F2:28",
            with: "3D:F0:D7:85:52:59:58:D7:4E:29:8E:E9:82:0F:06:5C:08:56:41:90:23:7B:F9:05:05:E1:75:E1:0B:95:F2:28")
        let museo = try read("domains/museo.yaml").replacingOccurrences(
            of:
                "      - path: /admin/*\n        exclude: true\n        comment: The staff back office stays on the web\n",
            with: ""
        )
        .replacingOccurrences(
            of: "  - apps: [museo]\n    rules:\n",
            with: "  - apps: [museo]\n    rules:\n      - path: /admin/login\n        route: none\n"
                + "        reason: the staff sign-in screen\n      - path: /admin/*\n        exclude: true\n")
        let emergencias = try read("domains/emergencias.yaml").replacingOccurrences(
            of: "emit:\n",
            with:
                "      - path: \"*\"\n        route: none\n        reason: everything else opens the home screen\nemit:\n"
        )
        try fixture.commit(
            "Three edits",
            [
                "environments/production.yaml": production, "domains/museo.yaml": museo,
                "domains/emergencias.yaml": emergencias,
            ])
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: fixture.repository + "/" + path, encoding: .utf8)
    }

    private func check(_ format: String) throws -> ProcessResult {
        try runLinkwright(
            ["check", "--against", "main", "--format", format], in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_CONFIG_NOSYSTEM": "1"])
    }

    /// Sentences first, then counts that are the rows' counts, one row per cause with the place
    /// second, and no long value in the table.
    @Test func theCommentCountsWhatItLists() throws {
        let comment = try check("markdown")
        #expect(comment.status == 1, "\(comment)")
        let lines = comment.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let countsLine = try #require(lines.firstIndex { $0.contains(" blocking cause") })
        let sentences = lines[..<countsLine].filter { $0.hasPrefix("- ") && !$0.hasPrefix("- … and ") }
        // One sentence per change, however many hosts and platforms share it, apps by name,
        // production first.
        #expect(
            sentences.contains(
                "- Links to `/admin/login` now open museo with no destination (route: `none`) instead of the web. "
                    + "_production: `museo.example`, `*.museo.example`, `entradas.museo.example` (iOS, Android); "
                    + "staging: `staging.museo.example` (iOS, Android)_"), "\(sentences)")
        let firstRow = try #require(lines.firstIndex { $0.hasPrefix("| ") && !$0.hasPrefix("| |") })
        #expect(countsLine < firstRow, "sentences and counts come before the table")
        let rows = lines[firstRow...].prefix { $0.hasPrefix("| ") }
        let counts = try #require(lines.first { $0.contains(" blocking cause") })
        func count(_ pattern: String) throws -> Int {
            let match = try #require(counts.firstMatch(of: try Regex("([0-9]+) " + pattern)))
            return Int(match.output[1].substring!)!
        }
        #expect(try count("blocking cause") == rows.filter { $0.hasPrefix("| ❌ |") }.count, "\(counts)")
        #expect(try count("approved") == rows.filter { $0.hasPrefix("| ☑️ |") }.count)
        #expect(try count("other cause") == rows.filter { $0.hasPrefix("| ⚠️ |") }.count)
        let behaviour = try count("behaviour change")
        #expect(
            behaviour == sentences.count
                || lines.contains(
                    "- … and \(behaviour - sentences.count) more behaviour changes, in the sections below."),
            "\(counts)")
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells[1].hasPrefix("`") || cells[1].isEmpty, "the place is the second column: \(row)")
            #expect(!row.split(separator: " ").contains { $0.count > 40 && !$0.hasPrefix("`") }, "\(row)")
        }
        #expect(comment.stdout.contains("<details><summary><code>CALLBACK_ON_VERIFIED_LINK</code>"))
    }

    /// Rendered at GitHub's comment width in a real browser, the findings table needs no
    /// horizontal scrolling. Skipped, saying so, where chromium or python's markdown is missing.
    @Test(
        .enabled(if: BrowserCheck.available, Comment(rawValue: BrowserCheck.missing)))
    func theCommentFitsGitHubsColumn() throws {
        let comment = try check("markdown")
        let widths = try BrowserCheck.tableWidths(markdown: comment.stdout, width: 900)
        #expect(!widths.isEmpty)
        for (scroll, client) in widths { #expect(scroll <= client, "a table \(scroll) px wide in \(client) px") }
    }

    /// GitHub shows ten annotations of a level: the security finding and the root causes take
    /// them before the failed expectations they explain.
    @Test func annotationsGoToCausesBeforeSymptoms() throws {
        let github = try check("github")
        let titles = github.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }.compactMap { line in
            line.firstMatch(of: /title=([A-Z_]+)/).map { String($0.output.1) }
        }
        let callback = try #require(titles.firstIndex(of: "CALLBACK_ON_VERIFIED_LINK"), "\(github.stdout)")
        let firstSymptom = titles.firstIndex(of: "EXPECTATION_FAILED") ?? titles.count
        #expect(callback < firstSymptom, "\(titles)")
        for cause in ["FORBIDDEN_PATH", "EXCLUSION_REORDERED", "PRODUCTION_APP_REMOVED"] {
            if let index = titles.firstIndex(of: cause) { #expect(index < firstSymptom, "\(cause): \(titles)") }
        }
    }
}
