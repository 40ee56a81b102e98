import Foundation
import LinkwrightTestSupport
import Testing

/// The action's pull request comment (scripts/action/comment.sh), run as a runner runs the
/// action's steps (Fixtures/action/run-steps.py) against a local fake of GitHub's REST API, on
/// the pull request SubfolderTests makes, whose change blocks.
extension SubfolderTests {
    static let marker = "<!-- linkwright-check -->"

    private func runWithComment(_ github: FakeGitHub, token: String? = nil) throws -> [String: Any] {
        let event = fixture.folder + "/event.json"
        try #"{"pull_request": {"number": 7}}"#.write(toFile: event, atomically: true, encoding: .utf8)
        return try runActionSteps(
            ["against": "main", "config": "mobile/links", "comment": "true", "github-token": token ?? github.token],
            environment: [
                "GITHUB_API_URL": github.apiURL, "GITHUB_REPOSITORY": "museo/app", "GITHUB_EVENT_PATH": event,
            ])
    }

    /// The comment step ran and left the check's verdict alone: the change blocks.
    private func expectVerdictKept(_ run: [String: Any]) throws {
        #expect(try step("Pull request comment", of: run)["status"] as? Int == 0, "\(run)")
        #expect(try step("Verdict", of: run)["status"] as? Int == 1, "\(run)")
    }

    @Test func theFirstRunCommentsAndTheNextEditsThatComment() throws {
        let github = try FakeGitHub(comments: [["id": 5, "body": "Looks good to me"]])
        let first = try runWithComment(github)
        try expectVerdictKept(first)
        var comments = try github.comments()
        #expect(comments.count == 2)
        let posted = try #require(comments.last)
        let body = try #require(posted["body"] as? String)
        #expect(body.hasPrefix(Self.marker), "\(body)")
        #expect(body.contains("CATCH_ALL_ADDED"), "\(body)")
        #expect(body == (first["summary"] as? String)?.trimmingCharacters(in: .newlines))

        // The branch changes again: the same comment now says so, and no other is added.
        try fixture.commit(
            "A second catch-all",
            [
                "mobile/links/domains/museo.yaml": try String(
                    contentsOfFile: configuration + "/domains/museo.yaml", encoding: .utf8
                ) + "\n"
            ])
        let second = try runWithComment(github)
        try expectVerdictKept(second)
        comments = try github.comments()
        #expect(comments.count == 2)
        #expect(comments.last?["id"] as? Int == posted["id"] as? Int)
        #expect(comments.first?["body"] as? String == "Looks good to me")
        let requests = try github.requests()
        #expect(requests.filter { $0.hasPrefix("POST ") }.count == 1, "\(requests)")
        #expect(requests.last == "PATCH /repos/museo/app/issues/comments/\(posted["id"] as? Int ?? 0)", "\(requests)")
        #expect((try step("Pull request comment", of: second)["stdout"] as? String)?.contains("updated") == true)
    }

    /// The marked comment is on the second page of 100: the script follows the Link header to it.
    @Test func theMarkedCommentIsFoundOnALaterPage() throws {
        var comments: [[String: Any]] = (1...150).map { ["id": $0, "body": "comment \($0)"] }
        comments[120]["body"] = "\(Self.marker)\nan old report"
        let github = try FakeGitHub(comments: comments)
        let run = try runWithComment(github)
        try expectVerdictKept(run)
        let after = try github.comments()
        #expect(after.count == 150)
        #expect((after[120]["body"] as? String)?.contains("CATCH_ALL_ADDED") == true)
        let requests = try github.requests()
        #expect(
            requests == [
                "GET /repos/museo/app/issues/7/comments?per_page=100",
                "GET /repos/museo/app/issues/7/comments?per_page=100&page=2",
                "PATCH /repos/museo/app/issues/comments/121",
            ], "\(requests)")
    }

    /// Without a comment holding the marker, a new one is made, however many others there are.
    @Test func withoutTheMarkerANewCommentIsMade() throws {
        let github = try FakeGitHub(comments: (1...101).map { ["id": $0, "body": "linkwright check said so"] })
        try expectVerdictKept(try runWithComment(github))
        let after = try github.comments()
        #expect(after.count == 102)
        #expect((after.last?["body"] as? String)?.hasPrefix(Self.marker) == true)
    }

    /// A fork's pull request gets a read-only token: GitHub answers 403. The step leaves a notice
    /// saying why, and the check's own verdict stands.
    @Test(arguments: [403, 500])
    func anAPIErrorLeavesANoticeAndTheVerdictStands(status: Int) throws {
        let github = try FakeGitHub()
        try github.answer(status)
        let run = try runWithComment(github)
        try expectVerdictKept(run)
        let notice = try #require(try step("Pull request comment", of: run)["stdout"] as? String)
        #expect(
            notice.contains("::notice title=linkwright comment::no pull request comment: GitHub answered \(status)"))
        #expect(notice.contains("pull request from a fork") == (status == 403), "\(notice)")
        #expect(try github.comments().isEmpty)
    }

    /// A wrong token is refused by the API, and only noticed.
    @Test func aTokenGitHubRefusesLeavesANotice() throws {
        let github = try FakeGitHub()
        let run = try runWithComment(github, token: "wrong")
        try expectVerdictKept(run)
        #expect((try step("Pull request comment", of: run)["stdout"] as? String)?.contains("answered 401") == true)
    }

    /// A report longer than a comment may be (65,536 characters) is cut, saying so; at 195 KB it
    /// is also longer than one argument to jq may be (128 KiB).
    @Test func aReportTooLongForACommentIsCut() throws {
        let github = try FakeGitHub()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let report = try folder.write("report.md", Self.marker + "\n" + String(repeating: "漢", count: 70_000))
        let event = try folder.write("event.json", #"{"pull_request": {"number": 7}}"#)
        let result = try runProcess(
            URL(fileURLWithPath: "/bin/bash"),
            [RepositoryPaths.root.appendingPathComponent("scripts/action/comment.sh").path],
            environment: [
                "REPORT": report.path, "GITHUB_TOKEN": github.token, "GITHUB_API_URL": github.apiURL,
                "GITHUB_REPOSITORY": "museo/app", "GITHUB_EVENT_PATH": event.path,
                // As on GitHub's runners: bash then counts characters, not bytes.
                "LC_ALL": "C.UTF-8",
            ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("commented on the pull request"), "\(result)")
        let body = try #require(try github.comments().first?["body"] as? String)
        #expect(body.hasPrefix(Self.marker + "\n漢漢"))
        #expect(body.hasSuffix("The job summary has all of it."))
        #expect(body.count < 65_536)
        #expect(body.count > 60_000)
    }

    /// Without `comment: true` the API is never called.
    @Test func noCommentUnlessAsked() throws {
        let github = try FakeGitHub()
        let run = try runActionSteps(
            ["against": "main", "config": "mobile/links"], environment: ["GITHUB_API_URL": github.apiURL])
        #expect(try step("Pull request comment", of: run)["ran"] as? Bool == false)
        #expect(try github.requests().isEmpty)
    }
}
