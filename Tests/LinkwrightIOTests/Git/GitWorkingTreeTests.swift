import Foundation
import LinkwrightIO
import LinkwrightTestSupport
import Testing

@Suite struct GitWorkingTreeTests {
    @Test func reportsTheStatusOfPaths() throws {
        let fixture = try makeGitFixture()
        try fixture.commit(
            "c1",
            [
                ".gitignore": "*.log\n",
                "clean.yaml": "v: 1\n",
                "edited.yaml": "v: 1\n",
                "staged.yaml": "v: 1\n",
                "deleted.yaml": "v: 1\n",
            ])
        try fixture.write([
            "edited.yaml": "v: 2\n",
            "staged.yaml": "v: 2\n",
            "deleted.yaml": nil,
            "new.yaml": "v: 1\n",
            "debug.log": "noise\n",
        ])
        try fixture.git("add", "staged.yaml")
        let repository = try GitRepository(configurationFolder: fixture.repository)

        #expect(try repository.status(of: "clean.yaml") == .clean)
        #expect(try repository.status(of: "edited.yaml") == .modified)
        #expect(try repository.status(of: "staged.yaml") == .modified)
        #expect(try repository.status(of: "deleted.yaml") == .modified)
        #expect(try repository.status(of: "new.yaml") == .untracked)
        #expect(try repository.status(of: "debug.log") == .ignored)
        #expect(try repository.status(of: "never-existed.yaml") == .clean)
    }

    @Test func commitRecordsExactlyTheGivenPaths() throws {
        let fixture = try makeGitFixture()
        let parent = try fixture.commit(
            "c1",
            [
                "config/a.yaml": "v: 1\n",
                "config/b.yaml": "v: 1\n",
                "config/c.yaml": "v: 1\n",
                "config/d.yaml": "v: 1\n",
            ])
        try fixture.write([
            "config/a.yaml": "v: 2\n",
            "config/b.yaml": "v: 2\n",
            "config/c.yaml": "v: 2\n",
            "config/d.yaml": nil,
            "config/e.yaml": "v: 1\n",
        ])
        try fixture.git("add", "config/b.yaml")
        let repository = try GitRepository(configurationFolder: fixture.repository + "/config")

        let commit = try repository.commit(
            paths: ["config/a.yaml", "config/d.yaml", "config/e.yaml"], message: "Promote staging to prod  \n\n")

        #expect(try fixture.git("rev-parse", "HEAD") == commit.id)
        #expect(try fixture.git("rev-parse", "HEAD^") == parent)
        #expect(commit.summary == "Promote staging to prod")
        let log = try fixture.git("log", "-1", "--format=%B%an <%ae>|%cn <%ce>")
        #expect(
            log == """
                Promote staging to prod
                Fixture Author <fixture@example.invalid>|Fixture Author <fixture@example.invalid>
                """)
        let changes = try fixture.git("show", "--name-status", "--no-renames", "--format=", "HEAD")
        #expect(
            changes == """
                M\tconfig/a.yaml
                D\tconfig/d.yaml
                A\tconfig/e.yaml
                """)
        #expect(try fixture.git("show", "HEAD:config/a.yaml") == "v: 2")
        // The user's own staged and unstaged work is still there, and still out of the commit.
        #expect(try fixture.git("status", "--porcelain") == "M  config/b.yaml\n M config/c.yaml")
    }

    @Test func commitRefusesPathsWithoutChanges() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("c1", ["config/a.yaml": "v: 1\n"])
        let repository = try GitRepository(configurationFolder: fixture.repository)

        #expect(throws: GitError.nothingToCommit(paths: ["config/a.yaml"])) {
            try repository.commit(paths: ["config/a.yaml"], message: "nothing")
        }
    }

    @Test func commitMakesTheFirstCommitOfANewRepository() throws {
        let fixture = try makeGitFixture()
        try fixture.write(["config/a.yaml": "v: 1\n"])
        let repository = try GitRepository(configurationFolder: fixture.repository)

        let commit = try repository.commit(paths: ["config/a.yaml"], message: "Start")

        #expect(try fixture.git("rev-list", "main") == commit.id)
        #expect(try fixture.git("status", "--porcelain") == "")
    }

    /// The commit is git's own: the repository's commit-msg hook adds its trailer, and a
    /// pre-commit hook that refuses stops it, its words in the error and HEAD where it was.
    @Test func commitRunsTheRepositorysHooks() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("c1", ["config/a.yaml": "v: 1\n"])
        let hooks = fixture.repository + "/.git/hooks/"
        try "#!/bin/sh\nprintf '\\nTicket: LW-46\\n' >> \"$1\"\n".write(
            toFile: hooks + "commit-msg", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hooks + "commit-msg")
        try fixture.write(["config/a.yaml": "v: 2\n"])
        let repository = try GitRepository(configurationFolder: fixture.repository)

        let commit = try repository.commit(paths: ["config/a.yaml"], message: "Two")
        #expect(try fixture.git("log", "-1", "--format=%B") == "Two\n\nTicket: LW-46\n")
        #expect(try fixture.git("rev-parse", "HEAD") == commit.id)

        try "#!/bin/sh\necho 'pre-commit: no ticket in the branch name' >&2\nexit 1\n".write(
            toFile: hooks + "pre-commit", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hooks + "pre-commit")
        try fixture.write(["config/a.yaml": "v: 3\n"])
        let refused = #expect(throws: GitError.self) {
            try repository.commit(paths: ["config/a.yaml"], message: "Three")
        }
        #expect(refused?.message == "git commit refused: pre-commit: no ticket in the branch name")
        #expect(try fixture.git("rev-parse", "HEAD") == commit.id)
    }
}
