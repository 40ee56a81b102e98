import Foundation
import LinkwrightCore
import LinkwrightIO
import LinkwrightTestSupport
import Testing

@Suite struct GitIndexSourceTests {
    @Test func readsWhatIsStagedNotWhatIsCommittedNorWhatIsOnlyInTheWorkingTree() throws {
        let fixture = try makeGitFixture()
        try fixture.commit(
            "c1",
            [
                "links/domains/a.yaml": "name: committed\n", "links/environments/prod.yaml": "name: prod\n",
                "links/domains/gone.yaml": "name: gone\n", "outside.yaml": "name: outside\n",
            ])
        try fixture.write([
            "links/domains/a.yaml": "name: staged\n", "links/domains/new/b.yaml": "name: b\n",
            "links/domains/gone.yaml": nil,
        ])
        try fixture.git("add", "-A")
        // Edited after staging, and a file never staged: neither is what the next commit records.
        try fixture.write(["links/domains/a.yaml": "name: unstaged\n", "links/domains/untracked.yaml": "name: u\n"])
        try fixture.write(["links/domains/intent.yaml": "name: intent\n"])
        try fixture.git("add", "--intent-to-add", "links/domains/intent.yaml")
        let objectsBefore = try fixture.git("count-objects", "-v")

        let repository = try GitRepository(configurationFolder: fixture.repository + "/links")
        let staged = try GitIndexSource(repository: repository)

        #expect(staged.exists)
        #expect(
            try staged.entries(in: "domains") == [
                SourceEntry(name: "a.yaml", kind: .file), SourceEntry(name: "new", kind: .folder),
            ])
        #expect(
            try staged.entries(in: "") == [
                SourceEntry(name: "domains", kind: .folder), SourceEntry(name: "environments", kind: .folder),
            ])
        #expect(try staged.entries(in: "policies") == [])
        #expect(try staged.contents(of: "domains/a.yaml") == Array("name: staged\n".utf8))
        #expect(try staged.contents(of: "domains/new/b.yaml") == Array("name: b\n".utf8))
        #expect(throws: SourceTreeError.self) { try staged.contents(of: "domains/gone.yaml") }
        #expect(throws: SourceTreeError.self) { try staged.contents(of: "domains/untracked.yaml") }
        #expect(throws: SourceTreeError.self) { try staged.contents(of: "../outside.yaml") }
        #expect(try repository.stagedFile(at: "links/domains/a.yaml", limit: 100) == Array("name: staged\n".utf8))
        #expect(try repository.stagedFile(at: "links/domains/untracked.yaml", limit: 100) == nil)
        #expect(try repository.isTracked("links/domains/a.yaml"))
        #expect(try !repository.isTracked("links/domains/untracked.yaml"))
        // Reading the index wrote no object (no tree) into the repository.
        #expect(try fixture.git("count-objects", "-v") == objectsBefore)
    }

    @Test func refusesLinksConflictsAndBlobsOverTheLimit() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("base", ["domains/a.yaml": "v: base\n"])
        try fixture.git("checkout", "-q", "-b", "other")
        try fixture.commit("other", ["domains/a.yaml": "v: other\n"])
        try fixture.git("checkout", "-q", "main")
        try fixture.commit(
            "main", ["domains/a.yaml": "v: main\n", "domains/big.yaml": String(repeating: "x", count: 64)])
        _ = try? fixture.git("merge", "-q", "other")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.repository + "/domains/link.yaml", withDestinationPath: "a.yaml")
        try fixture.git("add", "domains/link.yaml")

        var staged = try GitIndexSource(repository: try GitRepository(configurationFolder: fixture.repository))
        #expect(
            try staged.entries(in: "domains") == [
                SourceEntry(name: "a.yaml", kind: .refused("a file with unresolved merge conflicts")),
                SourceEntry(name: "big.yaml", kind: .file),
                SourceEntry(name: "link.yaml", kind: .refused("a symbolic link")),
            ])
        #expect(throws: SourceTreeError.self) { try staged.contents(of: "domains/a.yaml") }
        staged.readLimit = 10
        let refusal = #expect(throws: SourceTreeError.self) { try staged.contents(of: "domains/big.yaml") }
        #expect(refusal.map { "\($0)" } == "domains/big.yaml: over the limit of 10 bytes")
    }

    @Test func aBranchWithoutCommitsIsUnbornNotUnknown() throws {
        let fixture = try makeGitFixture()
        try fixture.write(["domains/a.yaml": "v: 1\n"])
        try fixture.git("add", "-A")
        let fresh = try GitRepository(configurationFolder: fixture.repository)
        #expect(fresh.isUnbornBranch("HEAD"))
        #expect(fresh.isUnbornBranch("main"))
        #expect(fresh.isUnbornBranch("refs/heads/main"))
        #expect(!fresh.isUnbornBranch("origin/main"))
        #expect(try GitIndexSource(repository: fresh).contents(of: "domains/a.yaml") == Array("v: 1\n".utf8))
        try fixture.commit("first")
        let committed = try GitRepository(configurationFolder: fixture.repository)
        #expect(!committed.isUnbornBranch("HEAD"))
    }
}

@Suite struct ConfigurationDiscoveryTests {
    @Test func findsTheNearestFolderHoldingEnvironmentsUpToTheRepositoryTop() throws {
        let fixture = try makeGitFixture()
        try fixture.write([
            "environments/top.yaml": "top\n",
            "mobile/links/environments/production.yaml": "tier: production\n",
            "mobile/links/domains/museo.yaml": "applinks: []\n",
            "mobile/other/readme.txt": "nothing here\n",
        ])
        let repository = fixture.repository
        #expect(ConfigurationDiscovery.levelsUp(from: repository + "/mobile/links") == 0)
        #expect(ConfigurationDiscovery.levelsUp(from: repository + "/mobile/links/domains") == 1)
        #expect(ConfigurationDiscovery.levelsUp(from: repository + "/mobile/links/environments") == 1)
        // Nothing closer: the repository's own top-level configuration.
        #expect(ConfigurationDiscovery.levelsUp(from: repository + "/mobile/other") == 2)
        #expect(GitRepository.workTreeRoot(containing: repository + "/mobile/links/domains") == repository)
    }

    @Test func stopsAtTheRepositoryTopAndIgnoresLinks() throws {
        let fixture = try makeGitFixture()
        // A configuration above the repository belongs to another project: never picked up.
        try FileManager.default.createDirectory(
            atPath: fixture.folder + "/environments", withIntermediateDirectories: true)
        try fixture.write(["sub/readme.txt": "x\n"])
        #expect(ConfigurationDiscovery.levelsUp(from: fixture.repository + "/sub") == nil)
        // Outside a repository the search goes on to the filesystem root.
        try FileManager.default.createDirectory(
            atPath: fixture.folder + "/plain/deeper", withIntermediateDirectories: true)
        #expect(GitRepository.workTreeRoot(containing: fixture.folder + "/plain/deeper") == nil)
        #expect(ConfigurationDiscovery.levelsUp(from: fixture.folder + "/plain/deeper") == 2)
        // A symbolic link named environments is not a configuration folder.
        try FileManager.default.createSymbolicLink(
            atPath: fixture.repository + "/sub/environments", withDestinationPath: fixture.folder + "/environments")
        #expect(ConfigurationDiscovery.levelsUp(from: fixture.repository + "/sub") == nil)
    }
}
