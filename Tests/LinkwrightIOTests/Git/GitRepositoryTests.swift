import Foundation
import LinkwrightIO
import LinkwrightTestSupport
import Testing

@Suite struct GitRepositoryTests {
    @Test func resolvesBranchesTagsSHAsAndAncestry() throws {
        let fixture = try makeGitFixture()
        let c1 = try fixture.commit("c1: add a", ["domains/a.yaml": "v: 1\n"])
        let c2 = try fixture.commit("c2: bump a\n\nWith a body.", ["domains/a.yaml": "v: 2\n"])
        try fixture.git("tag", "-a", "v1.0", "-m", "release 1.0")
        try fixture.git("tag", "light")
        try fixture.git("branch", "feature")
        let c3 = try fixture.commit("c3", ["domains/a.yaml": "v: 3\n"])
        let c4 = try fixture.commit("c4", ["domains/a.yaml": "v: 4\n"])
        let repository = try GitRepository(configurationFolder: fixture.repository)

        #expect(try repository.resolve("main").id == c4)
        #expect(try repository.resolve("HEAD").id == c4)
        #expect(try repository.resolve("feature").id == c2)
        #expect(try repository.resolve("v1.0").id == c2)
        #expect(try repository.resolve("light").id == c2)
        #expect(try repository.resolve(c3).id == c3)
        #expect(try repository.resolve(String(c3.prefix(7))).id == c3)
        #expect(try repository.resolve("HEAD~3").id == c1)

        let tagged = try repository.resolve("v1.0")
        #expect(tagged.summary == "c2: bump a")
        #expect(tagged.shortID == (try fixture.git("rev-parse", "--short", c2)))
        let authorTime = try #require(TimeInterval(try fixture.git("log", "-1", "--format=%at", c2)))
        #expect(tagged.authorTime == Date(timeIntervalSince1970: authorTime))
    }

    @Test func suggestsTheRemoteBranchWhenOnlyItExists() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("c1", ["domains/a.yaml": "v: 1\n"])
        try fixture.git("checkout", "-q", "-b", "feature")
        let featureTip = try fixture.commit("f1", ["domains/b.yaml": "v: 1\n"])
        try fixture.git("checkout", "-q", "main")
        let clone = fixture.folder + "/clone"
        try fixture.git("clone", "-q", fixture.repository, clone, in: fixture.folder)
        let repository = try GitRepository(configurationFolder: clone)

        #expect(try repository.resolve("origin/feature").id == featureTip)
        let remoteOnly = #expect(throws: GitError.self) { try repository.resolve("feature") }
        #expect(remoteOnly == .unknownRevision("feature", remoteBranch: "origin/feature", remote: nil))
        #expect(remoteOnly?.message == "unknown revision 'feature'")
        #expect(remoteOnly?.hint == "only the remote-tracking branch exists in this clone: use origin/feature")
        #expect(remoteOnly?.command == nil)

        let unfetched = #expect(throws: GitError.self) { try repository.resolve("release/2.0") }
        #expect(unfetched == .unknownRevision("release/2.0", remoteBranch: nil, remote: "origin"))
        #expect(unfetched?.command == "git fetch origin release/2.0")
        let unfetchedRemote = #expect(throws: GitError.self) { try repository.resolve("origin/gone") }
        #expect(unfetchedRemote?.command == "git fetch origin gone")
        let expression = #expect(throws: GitError.self) { try repository.resolve("HEAD~9") }
        #expect(expression == .unknownRevision("HEAD~9", remoteBranch: nil, remote: nil))
        #expect(expression?.command == nil)
    }

    @Test func resolvesTheUpstreamOfABranch() throws {
        let fixture = try makeGitFixture()
        let published = try fixture.commit("c1", ["domains/a.yaml": "v: 1\n"])
        let clone = fixture.folder + "/clone"
        try fixture.git("clone", "-q", fixture.repository, clone, in: fixture.folder)
        try fixture.setIdentity(in: clone)
        try fixture.git("commit", "-q", "--allow-empty", "-m", "local only", in: clone)
        let repository = try GitRepository(configurationFolder: clone)

        #expect(try repository.resolve("main@{upstream}").id == published)
        #expect(try repository.resolve("@{u}").id == published)
        #expect(try repository.resolve("HEAD").id != published)
    }

    @Test func reportsUnknownRevisionsAndNonCommits() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("c1", ["domains/a.yaml": "v: 1\n"])
        let repository = try GitRepository(configurationFolder: fixture.repository)

        let unknown = #expect(throws: GitError.self) { try repository.resolve("nope") }
        #expect(unknown == .unknownRevision("nope", remoteBranch: nil, remote: nil))
        #expect(unknown?.hint == "check the spelling: use a branch, tag, commit SHA or an expression such as HEAD~1")
        #expect(throws: GitError.notACommit("HEAD:domains")) { try repository.resolve("HEAD:domains") }
    }

    @Test func refusesFoldersWithoutAWorkTree() throws {
        let fixture = try makeGitFixture()
        let outside = fixture.folder + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)

        #expect(throws: GitError.notARepository(path: outside)) { try GitRepository(configurationFolder: outside) }
        let bare = fixture.folder + "/bare.git"
        try fixture.git("init", "-q", "--bare", bare, in: fixture.folder)
        #expect(throws: GitError.bareRepository(path: bare)) { try GitRepository(configurationFolder: bare) }
        let missing = #expect(throws: GitError.self) {
            try GitRepository(configurationFolder: fixture.folder + "/nowhere")
        }
        #expect(missing?.message == "git: opening \(fixture.folder)/nowhere failed: No such file or directory")
    }

    @Test func findsTheMergeBaseOfAFeatureBranch() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("c1", ["domains/a.yaml": "v: 1\n"])
        let fork = try fixture.commit("c2", ["domains/a.yaml": "v: 2\n"])
        try fixture.git("checkout", "-q", "-b", "feature")
        try fixture.commit("f1", ["domains/b.yaml": "v: 1\n"])
        try fixture.git("checkout", "-q", "main")
        try fixture.commit("c3", ["domains/a.yaml": "v: 3\n"])
        try fixture.git("checkout", "-q", "--orphan", "unrelated")
        try fixture.commit("u1", ["domains/a.yaml": "v: 9\n"])
        try fixture.git("checkout", "-q", "main")
        let repository = try GitRepository(configurationFolder: fixture.repository)
        let main = try repository.resolve("main")

        #expect(try repository.mergeBase(main, try repository.resolve("feature")).id == fork)
        let unrelated = try repository.resolve("unrelated")
        #expect(throws: GitError.noMergeBase(main, unrelated)) { try repository.mergeBase(main, unrelated) }
    }

    @Test func listsCommitsBetweenRevisions() throws {
        let fixture = try makeGitFixture()
        let start = try fixture.commit("c1", ["domains/a.yaml": "v: 1\n"])
        try fixture.git("checkout", "-q", "-b", "feature")
        let f1 = try fixture.commit("f1", ["domains/b.yaml": "v: 1\n"])
        let f2 = try fixture.commit("f2", ["domains/b.yaml": "v: 2\n"])
        try fixture.git("checkout", "-q", "main")
        let c2 = try fixture.commit("c2", ["domains/a.yaml": "v: 2\n"])
        try fixture.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature")
        let merge = try fixture.git("rev-parse", "HEAD")
        let repository = try GitRepository(configurationFolder: fixture.repository)
        let base = try repository.resolve(start)
        let head = try repository.resolve("main")

        let all = try repository.commits(from: base, to: head).map(\.id)
        let gitLogOrder = try fixture.git("rev-list", "\(start)..main").split(separator: "\n").map(String.init)
        #expect(all == gitLogOrder)
        #expect(Set(all) == [merge, c2, f1, f2])
        #expect(try repository.commits(from: base, to: head, firstParentOnly: true).map(\.id) == [merge, c2])
        #expect(try repository.commits(from: head, to: head).isEmpty)
    }

    @Test func listsTagsWithTheirCommitsAndTimes() throws {
        let fixture = try makeGitFixture()
        let c1 = try fixture.commit("c1", ["domains/a.yaml": "v: 1\n"])
        let c2 = try fixture.commit("c2", ["domains/a.yaml": "v: 2\n"])
        try fixture.git("tag", "-a", "v1.0", "-m", "release 1.0", c1)
        try fixture.git("tag", "v1.1")
        try fixture.git("tag", "file-tag", try fixture.git("rev-parse", "HEAD:domains/a.yaml"))
        let repository = try GitRepository(configurationFolder: fixture.repository)

        let tags = try repository.tags()
        #expect(tags.map(\.name) == ["v1.0", "v1.1"])
        #expect(tags.map(\.commit.id) == [c1, c2])
        #expect(tags.map(\.isAnnotated) == [true, false])
        for tag in tags {
            // git's own creator date: the tagger's time, or the commit's committer time.
            let created = try #require(
                TimeInterval(
                    try fixture.git("for-each-ref", "--format=%(creatordate:unix)", "refs/tags/\(tag.name)")))
            #expect(tag.time == Date(timeIntervalSince1970: created))
        }
        // v1.0 was tagged after c2 was made: an annotated tag's time is when it was tagged.
        #expect(tags[0].time > tags[1].commit.authorTime)
    }

    @Test func refusesHistoryInAShallowClone() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("c1", ["domains/a.yaml": "v: 1\n"])
        try fixture.commit("c2", ["domains/a.yaml": "v: 2\n"])
        let shallow = fixture.folder + "/shallow"
        // A plain path would ignore --depth: local clones copy every object.
        try fixture.git("clone", "-q", "--depth", "1", "file://\(fixture.repository)", shallow, in: fixture.folder)
        let repository = try GitRepository(configurationFolder: shallow)
        let head = try repository.resolve("HEAD")

        #expect(repository.isShallow)
        #expect(throws: GitError.shallowClone) { try repository.resolve("HEAD~1") }
        #expect(throws: GitError.shallowClone) { try repository.mergeBase(head, head) }
        #expect(throws: GitError.shallowClone) { try repository.commits(from: head, to: head) }
        #expect(GitError.shallowClone.command == "git fetch --unshallow")
        #expect(GitError.shallowClone.hint.contains("fetch-depth: 0"))
    }

    @Test(.enabled(if: getuid() == 0, "changing a folder's owner needs root"))
    func explainsARepositoryOwnedByAnotherUser() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("c1", ["config/domains/a.yaml": "v: 1\n"])
        let copy = fixture.folder + "/owned-by-nobody"
        try fixture.shell("cp -a repo \(copy) && chown -R nobody \(copy)")
        let expected = GitError.notOwnedByCurrentUser(path: copy)

        // With no safe.directory configured at all (libgit2 1.5.1 reports a missing config value).
        #expect(throws: expected) { try GitRepository(configurationFolder: copy + "/config") }
        #expect(expected.command == "git config --global --add safe.directory \(copy)")

        // With safe.directory set for other folders (libgit2 reports GIT_EOWNER), then following the advice.
        let home = fixture.folder + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let globalConfiguration = ["GIT_CONFIG_GLOBAL": home + "/.gitconfig"]
        try fixture.shell("git config --global --add safe.directory /somewhere/else", environment: globalConfiguration)
        setLibGit2GlobalConfigurationFolder(home)
        defer { setLibGit2GlobalConfigurationFolder("/dev/null") }
        #expect(throws: expected) { try GitRepository(configurationFolder: copy + "/config") }

        try fixture.shell(try #require(expected.command), environment: globalConfiguration)
        #expect(try GitRepository(configurationFolder: copy + "/config").configurationPath == "config")
    }
}
