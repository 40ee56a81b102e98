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

    @Test func commitNamesTheMissingIdentity() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("c1", ["config/a.yaml": "v: 1\n"])
        try fixture.write(["config/a.yaml": "v: 2\n"])
        try fixture.git("config", "--unset", "user.email")
        let repository = try GitRepository(configurationFolder: fixture.repository)

        let noEmail = #expect(throws: GitError.self) { try repository.commit(paths: ["config/a.yaml"], message: "m") }
        #expect(noEmail == .missingIdentity(missing: ["user.email"]))
        #expect(noEmail?.message == "cannot commit: git user.email is not set")
        #expect(noEmail?.command == "git config user.email you@example.com")

        try fixture.git("config", "--unset", "user.name")
        let noIdentity = #expect(throws: GitError.self) {
            try repository.commit(paths: ["config/a.yaml"], message: "m")
        }
        #expect(noIdentity == .missingIdentity(missing: ["user.name", "user.email"]))
        #expect(try fixture.git("rev-list", "--count", "HEAD") == "1")
    }
}
