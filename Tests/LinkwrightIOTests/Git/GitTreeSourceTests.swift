import Foundation
import LinkwrightCore
import LinkwrightIO
import LinkwrightTestSupport
import Testing

@Suite struct GitTreeSourceTests {
    @Test func readsAConfigurationFolderInASubfolder() throws {
        let fixture = try makeGitFixture()
        try fixture.write([
            "README.md": "monorepo\n",
            "apps/links/config/domains/b.yaml": "name: b\n",
            "apps/links/config/domains/a.yaml": "name: a\n",
            "apps/links/config/domains/nested/c.yaml": "name: c\n",
            "apps/links/config/environments/prod.yaml": "name: prod\n",
        ])
        try FileManager.default.createSymbolicLink(
            atPath: fixture.repository + "/apps/links/config/domains/link.yaml", withDestinationPath: "a.yaml")
        try fixture.commit("c1")
        let repository = try GitRepository(configurationFolder: fixture.repository + "/apps/links/config")
        let source = try GitTreeSource(repository: repository, commit: try repository.resolve("HEAD"))

        #expect(repository.workTreeRoot == fixture.repository)
        #expect(repository.configurationPath == "apps/links/config")
        #expect(repository.workTreePath(forConfigurationPath: "domains/a.yaml") == "apps/links/config/domains/a.yaml")
        #expect(source.exists)
        // A subfolder is a folder; a symbolic link is listed as refused, never read.
        #expect(
            try source.entries(in: "domains") == [
                SourceEntry(name: "a.yaml", kind: .file), SourceEntry(name: "b.yaml", kind: .file),
                SourceEntry(name: "link.yaml", kind: .refused("a symbolic link")),
                SourceEntry(name: "nested", kind: .folder),
            ])
        #expect(try source.entries(in: "policies") == [])
        #expect(try source.entries(in: "domains/a.yaml") == [])
        #expect(try source.contents(of: "domains/a.yaml") == Array("name: a\n".utf8))
        #expect(throws: SourceTreeError.self) { try source.contents(of: "domains/link.yaml") }
        #expect(throws: SourceTreeError.self) { try source.contents(of: "domains/nested") }
        #expect(throws: SourceTreeError.self) { try source.contents(of: "README.md") }
        #expect(
            try source.configurationFiles().map(\.path) == [
                "environments/prod.yaml", "domains/a.yaml", "domains/b.yaml", "domains/link.yaml", "domains/nested",
            ])
        // The link is refused, never read; the subfolder would be skipped silently, so it is named.
        let refusals = try source.configurationFiles().suffix(2).map(\.refusal)
        #expect(refusals.first == .notRegularFile("a symbolic link"))
        guard case .misnamed? = refusals.last else {
            Issue.record("the subfolder is not reported: \(refusals)")
            return
        }
    }

    @Test func readsAConfigurationFolderAtTheTopOfTheWorkTree() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("c1", ["domains/a.yaml": "name: a\n", "notes.txt": "top\n"])
        let repository = try GitRepository(configurationFolder: fixture.repository)
        let source = try GitTreeSource(repository: repository, commit: try repository.resolve("HEAD"))

        #expect(repository.configurationPath == "")
        #expect(repository.workTreePath(forConfigurationPath: "domains/a.yaml") == "domains/a.yaml")
        #expect(
            try source.entries(in: "") == [
                SourceEntry(name: "domains", kind: .folder), SourceEntry(name: "notes.txt", kind: .file),
            ])
        #expect(try source.contents(of: "domains/a.yaml") == Array("name: a\n".utf8))
    }

    @Test func aFolderAbsentAtARevisionReadsAsEmpty() throws {
        let fixture = try makeGitFixture()
        let before = try fixture.commit("c1", ["README.md": "no configuration yet\n"])
        try fixture.commit("c2", ["config/domains/a.yaml": "name: a\n"])
        let repository = try GitRepository(configurationFolder: fixture.repository + "/config")
        let old = try GitTreeSource(repository: repository, commit: try repository.resolve(before))

        #expect(!old.exists)
        #expect(old.treeID == nil)
        #expect(try old.entries(in: "domains") == [])
        #expect(throws: SourceTreeError.self) { try old.contents(of: "domains/a.yaml") }
        #expect(try GitTreeSource(repository: repository, commit: try repository.resolve("HEAD")).exists)
    }

    @Test func ignoresUncommittedChanges() throws {
        let fixture = try makeGitFixture()
        try fixture.commit("c1", ["config/domains/a.yaml": "v: 1\n", "config/domains/gone.yaml": "v: 1\n"])
        try fixture.write([
            "config/domains/a.yaml": "v: 2\n",
            "config/domains/new.yaml": "v: 1\n",
            "config/domains/gone.yaml": nil,
        ])
        try fixture.git("add", "config/domains/new.yaml")
        let repository = try GitRepository(configurationFolder: fixture.repository + "/config")
        let source = try GitTreeSource(repository: repository, commit: try repository.resolve("HEAD"))

        #expect(try source.entries(in: "domains").map(\.name) == ["a.yaml", "gone.yaml"])
        #expect(try source.contents(of: "domains/a.yaml") == Array("v: 1\n".utf8))
    }

    @Test func treeIDsChangeOnlyWhenTheFolderDoes() throws {
        let fixture = try makeGitFixture()
        let c1 = try fixture.commit("c1", ["config/domains/a.yaml": "v: 1\n", "README.md": "1\n"])
        let c2 = try fixture.commit("c2: outside the folder", ["README.md": "2\n"])
        let c3 = try fixture.commit("c3: inside the folder", ["config/domains/a.yaml": "v: 2\n"])
        let repository = try GitRepository(configurationFolder: fixture.repository + "/config")
        let commits = try [c1, c2, c3].map { try repository.resolve($0) }
        let ids = try commits.map { try repository.treeID(of: "config", at: $0) }

        #expect(ids[0] == (try fixture.git("rev-parse", "\(c1):config")))
        #expect(ids[0] == ids[1])
        #expect(ids[1] != ids[2])
        #expect(try GitTreeSource(repository: repository, commit: commits[2]).treeID == ids[2])
        #expect(try repository.treeID(of: "", at: commits[0]) == (try fixture.git("rev-parse", "\(c1)^{tree}")))
        #expect(try repository.treeID(of: "missing", at: commits[0]) == nil)
        #expect(try repository.treeID(of: "README.md", at: commits[0]) == nil)
    }
}
