import Foundation
import LinkwrightCore
import LinkwrightIO
import LinkwrightTestSupport
import Testing

/// Repositories with damaged loose objects, which libgit2 1.5.1 alone would inflate forever, and
/// healthy ones (loose, packed, borrowed through alternates) that must read as before.
@Suite struct CorruptRepositoryTests {
    /// Three commits of a configuration, every object loose, as git leaves a fresh clone's
    /// fetched objects before it packs them.
    let fixture: GitFixture
    let first: String
    let second: String

    init() throws {
        fixture = try makeGitFixture()
        first = try fixture.commit("c1", ["config/domains/a.yaml": "v: 1\n", "config/environments/p.yaml": "e: 1\n"])
        second = try fixture.commit("c2", ["config/domains/a.yaml": "v: 2\n"])
        try fixture.commit("c3", ["config/domains/a.yaml": "v: 3\n"])
    }

    func object(_ revision: String) throws -> String { try fixture.git("rev-parse", revision) }

    func shortID(_ revision: String) throws -> String { try fixture.git("rev-parse", "--short", revision) }

    func open(_ repository: String? = nil) throws -> GitRepository {
        try GitRepository(configurationFolder: (repository ?? fixture.repository) + "/config")
    }

    static let truncated = "the file is truncated (its compressed data ends early)"

    @Test func aTruncatedBlobIsNamedWithThePathBeingRead() throws {
        let blob = try object("HEAD~1:config/domains/a.yaml")
        try fixture.truncateLooseObject(blob)
        let repository = try open()
        let commit = try repository.resolve("HEAD~1")
        let source = try GitTreeSource(repository: repository, commit: commit)
        let reading = "reading domains/a.yaml at \(try shortID("HEAD~1"))"

        let error = #expect(throws: GitError.self) { try source.contents(of: "domains/a.yaml") }
        #expect(error == .corruptObject(id: blob, defect: Self.truncated, operation: reading))
        #expect(error?.message == "git object \(blob) is corrupt, found while \(reading): \(Self.truncated)")
        #expect(error?.hint == "the repository has a corrupt object: restore it from another clone, or clone again")
        #expect(error?.command == "git fsck")
        #expect(
            throws: GitError.corruptObject(
                id: blob, defect: Self.truncated, operation: "reading config/domains/a.yaml at \(commit.shortID)")
        ) { try repository.file(at: "config/domains/a.yaml", in: commit) }
        // The other files of that revision, and the same path elsewhere, still read.
        #expect(try source.contents(of: "environments/p.yaml") == Array("e: 1\n".utf8))
        let head = try GitTreeSource(repository: repository, commit: try repository.resolve("HEAD"))
        #expect(try head.contents(of: "domains/a.yaml") == Array("v: 3\n".utf8))
    }

    @Test func aTruncatedTreeIsNamed() throws {
        let domains = try object("HEAD~1:config/domains")
        try fixture.truncateLooseObject(domains)
        let repository = try open()
        let source = try GitTreeSource(repository: repository, commit: try repository.resolve("HEAD~1"))

        #expect(
            throws: GitError.corruptObject(id: domains, defect: Self.truncated, operation: "reading tree \(domains)")
        ) { try source.contents(of: "domains/a.yaml") }
        #expect(
            throws: GitError.corruptObject(id: domains, defect: Self.truncated, operation: "reading tree \(domains)")
        ) {
            try source.entries(in: "domains")
        }

        let root = try object("HEAD~1^{tree}")
        try fixture.truncateLooseObject(root)
        let reopened = try open()
        let commit = try reopened.resolve("HEAD~1")
        #expect(
            throws: GitError.corruptObject(
                id: root, defect: Self.truncated, operation: "reading the tree of \(commit.shortID)")
        ) { try GitTreeSource(repository: reopened, commit: commit) }
    }

    @Test func aTruncatedCommitIsNamedWhereverHistoryPassesThroughIt() throws {
        try fixture.truncateLooseObject(second)
        let repository = try open()
        let defect = Self.truncated

        for revision in ["HEAD~1", "HEAD~2", second, String(second.prefix(9))] {
            #expect(
                throws: GitError.corruptObject(id: second, defect: defect, operation: "resolving \(revision)"),
                "\(revision)"
            ) { try repository.resolve(revision) }
        }
        let base = try repository.resolve(first)
        let head = try repository.resolve("HEAD")
        #expect(throws: GitError.corruptObject(id: second, defect: defect, operation: "walking history")) {
            try repository.commits(from: base, to: head)
        }
        #expect(
            throws: GitError.corruptObject(
                id: second, defect: defect, operation: "finding the merge base of \(base.shortID) and \(head.shortID)")
        ) { try repository.mergeBase(base, head) }
    }

    /// Valid zlib whose header claims fewer or more bytes than follow: libgit2 1.5.1 would write
    /// past its buffer on the first (libgit2 issue #7177).
    @Test func aHeaderThatLiesAboutTheLengthIsRefused() throws {
        let blob = try object("HEAD:config/domains/a.yaml")
        let repository = try open()
        let source = try GitTreeSource(repository: repository, commit: try repository.resolve("HEAD"))
        let reading = "reading domains/a.yaml at \(try shortID("HEAD"))"

        try fixture.replaceLooseObject(blob, with: LooseObjectTests.deflated("blob 2\0v: 3\n"))
        #expect(
            throws: GitError.corruptObject(
                id: blob, defect: "its header declares 2 bytes but it holds more", operation: reading)
        ) { try source.contents(of: "domains/a.yaml") }

        try fixture.replaceLooseObject(blob, with: LooseObjectTests.deflated("blob 90\0v: 3\n"))
        #expect(
            throws: GitError.corruptObject(
                id: blob, defect: "its header declares 90 bytes but it holds 5", operation: reading)
        ) { try source.contents(of: "domains/a.yaml") }
    }

    /// Content that does not hash to its ID is read as git reads it (`git show`, `git log -p`):
    /// nothing re-hashes objects on the way, and a hostile repository could store the same
    /// content under its true ID.
    @Test func contentThatDoesNotHashToItsIDIsReadAsGitReadsIt() throws {
        let blob = try object("HEAD:config/domains/a.yaml")
        try fixture.replaceLooseObject(blob, with: LooseObjectTests.deflated("blob 5\0v: 9\n"))
        #expect(try fixture.git("show", "HEAD:config/domains/a.yaml") == "v: 9")
        let repository = try open()
        let head = try repository.resolve("HEAD")
        #expect(
            try GitTreeSource(repository: repository, commit: head).contents(of: "domains/a.yaml")
                == Array("v: 9\n".utf8))
        #expect(try repository.file(at: "config/domains/a.yaml", in: head)?.bytes == Array("v: 9\n".utf8))

        // Damage is still found: zlib's checksum, the stream's last four bytes, no longer adds up.
        var damaged = LooseObjectTests.deflated("blob 5\0v: 9\n")
        damaged[damaged.count - 1] ^= 1
        try fixture.replaceLooseObject(blob, with: damaged)
        let error = #expect(throws: GitError.self) {
            try GitTreeSource(repository: try open(), commit: head).contents(of: "domains/a.yaml")
        }
        #expect(error?.hint == "the repository has a corrupt object: restore it from another clone, or clone again")
    }

    /// The guard must not cry wolf: packed objects (after `git gc`), loose ones added after the
    /// pack, abbreviated IDs, tags and history all read as they did.
    @Test func aHealthyRepositoryReadsWhetherPackedOrLoose() throws {
        try fixture.git("tag", "-a", "v1", "-m", "release 1", first)
        try fixture.git("gc", "-q")
        let loose = try fixture.commit("c4", ["config/domains/a.yaml": "v: 4\n", "empty": ""])
        // The new commit, its three trees and its two blobs.
        #expect(try fixture.git("count-objects", "-v").hasPrefix("count: 6\n"))
        let repository = try open()

        let packed = try repository.resolve(String(second.prefix(7)))
        #expect(packed.id == second)
        #expect(
            try GitTreeSource(repository: repository, commit: packed).configurationFiles().map(\.path) == [
                "environments/p.yaml", "domains/a.yaml",
            ])
        let head = try repository.resolve(String(loose.prefix(7)))
        #expect(
            try GitTreeSource(repository: repository, commit: head).contents(of: "domains/a.yaml")
                == Array("v: 4\n".utf8))
        #expect(try repository.file(at: "empty", in: head)?.bytes == [])
        #expect(try repository.tags().map(\.commit.id) == [first])
        #expect(try repository.commits(from: try repository.resolve("v1"), to: head).count == 3)
        #expect(try repository.mergeBase(packed, head).id == second)
        #expect(try repository.status(of: "config/domains/a.yaml") == .clean)
    }

    /// A clone made with `--shared` (or `--reference`) keeps no objects of its own: it borrows
    /// them through `objects/info/alternates`, where the guard watches too.
    @Test func borrowedObjectsReadAndAreGuarded() throws {
        let clone = fixture.folder + "/clone"
        try fixture.git("clone", "-q", "--shared", fixture.repository, clone, in: fixture.folder)
        // A relative path, as `git clone --reference` with a relative path or a hand edit writes.
        try "../../../repo/.git/objects\n# a comment\n/nowhere/objects\n".write(
            toFile: clone + "/.git/objects/info/alternates", atomically: true, encoding: .utf8)
        let repository = try open(clone)
        let commit = try repository.resolve("HEAD~1")
        #expect(
            try GitTreeSource(repository: repository, commit: commit).contents(of: "domains/a.yaml")
                == Array("v: 2\n".utf8))

        let blob = try object("HEAD~1:config/domains/a.yaml")
        try fixture.truncateLooseObject(blob)
        #expect(
            throws: GitError.corruptObject(
                id: blob, defect: Self.truncated, operation: "reading domains/a.yaml at \(commit.shortID)")
        ) { try GitTreeSource(repository: try open(clone), commit: commit).contents(of: "domains/a.yaml") }
    }
}
