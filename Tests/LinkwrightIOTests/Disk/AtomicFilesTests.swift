import Foundation
import LinkwrightCore
import LinkwrightIO
import LinkwrightTestSupport
import Testing

/// `import`, `promote --write` and `monitor --state` write through `AtomicFiles`: nothing planted
/// in the folder they write into can redirect a write elsewhere.
@Suite struct AtomicFilesTests {
    @Test func aLinkAtTheOldFixedTemporaryNameIsNotWrittenThrough() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = try folder.write("outside/target", "precious\n")
        _ = try folder.write("config/domains/keep.yaml", "x: 1\n")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("config/domains/.shop.yaml.linkwright-tmp").path,
            withDestinationPath: target.path)
        try AtomicFiles.write(
            [("domains/shop.yaml", Array("y: 2\n".utf8))], under: folder.url.appendingPathComponent("config"))
        #expect(try folder.read("outside/target") == "precious\n")
        #expect(try folder.read("config/domains/shop.yaml") == "y: 2\n")
    }

    @Test func aLinkedFolderOnTheWayFailsTheWholeSet() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try folder.write("outside/.keep", "")
        _ = try folder.write("config/environments/production.yaml", "old\n")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("config/domains").path,
            withDestinationPath: folder.url.appendingPathComponent("outside").path)
        #expect(throws: AtomicFiles.WriteError.self) {
            try AtomicFiles.write(
                [("environments/production.yaml", Array("new\n".utf8)), ("domains/shop.yaml", Array("y\n".utf8))],
                under: folder.url.appendingPathComponent("config"))
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("outside").path) == [
                ".keep"
            ])
        #expect(try folder.read("config/environments/production.yaml") == "old\n")
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: folder.url.appendingPathComponent("config/environments").path) == ["production.yaml"])
    }

    /// `init`, `import` and `promote --write` write several files: when a later one cannot be
    /// replaced (a folder stands at its path), the earlier ones were already switched and the
    /// command said nothing was written. Every destination is now checked before the first
    /// rename, and no temporary file stays behind.
    @Test func aLaterFileThatCannotBeReplacedLeavesEveryFileAsItWas() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try folder.write("config/environments/production.yaml", "old\n")
        _ = try folder.write("config/domains/shop.yaml/inside", "a folder where a file goes\n")
        var failure: AtomicFiles.WriteError?
        do {
            try AtomicFiles.write(
                [("environments/production.yaml", Array("new\n".utf8)), ("domains/shop.yaml", Array("y\n".utf8))],
                under: folder.url.appendingPathComponent("config"))
        } catch let error as AtomicFiles.WriteError {
            failure = error
        }
        #expect(failure?.reason == "is a folder; remove it or rename it")
        #expect(failure?.outcome == "nothing was written")
        #expect(try folder.read("config/environments/production.yaml") == "old\n")
        for name in ["environments", "domains"] {
            let entries = try FileManager.default.contentsOfDirectory(
                atPath: folder.url.appendingPathComponent("config/\(name)").path)
            #expect(entries.allSatisfy { !$0.hasSuffix(".linkwright-tmp") }, "\(entries)")
        }
    }

    /// A write killed after staging leaves `.NAME.RANDOM.linkwright-tmp` files: the next write
    /// into the same folder removes them.
    @Test func temporaryFilesOfAKilledWriteGoWithTheNextWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try folder.write("config/domains/.shop.yaml.1a2b3c.linkwright-tmp", "half\n")
        _ = try folder.write("config/domains/.notes", "kept\n")
        try AtomicFiles.write(
            [("domains/other.yaml", Array("z\n".utf8))], under: folder.url.appendingPathComponent("config"))
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: folder.url.appendingPathComponent("config/domains").path
            )
            .sorted() == [".notes", "other.yaml"])
    }

    @Test func aLinkAtTheDestinationIsReplacedNotFollowed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = try folder.write("outside/state.json", "{}\n")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("run"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("run/state.json").path, withDestinationPath: target.path)
        try AtomicFiles.write(Array("{\"round\": 2}\n".utf8), to: folder.url.appendingPathComponent("run/state.json"))
        #expect(try folder.read("outside/state.json") == "{}\n")
        #expect(try folder.read("run/state.json") == "{\"round\": 2}\n")
    }

    @Test func sha256AgreesWithKnownDigests() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length up to five blocks, where the padding takes one block or two, and seeded
    /// bytes of longer lengths, against coreutils' `sha256sum` over the same files.
    @Test func sha256AgreesWithSha256sumAroundEveryBlockBoundary() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var generator = SplitMix64(seed: 2026)
        let lengths = Array(0...320) + (0..<20).map { _ in Int.random(in: 321...100_000, using: &generator) }
        var expected: [String: String] = [:]
        for (number, length) in lengths.enumerated() {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let name = "file-\(number)"
            try Data(bytes).write(to: folder.url.appendingPathComponent(name))
            expected[name] = SHA256.hex(bytes)
        }
        let listed = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum"] + expected.keys.sorted(), in: folder.url)
        #expect(listed.status == 0, "\(listed)")
        var compared = 0
        for line in listed.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 2 else { continue }
            #expect(expected[String(fields[1])] == String(fields[0]), "\(fields[1])")
            compared += 1
        }
        #expect(compared == lengths.count)
    }

    /// A configuration of two files, and a write of both killed after its first rename: the
    /// temporary file of the second and the sealed journal naming both are left.
    private func killedWrite(sealed: Bool) throws -> (folder: TemporaryFolder, config: URL) {
        let folder = try TemporaryFolder()
        _ = try folder.write("config/environments/production.yaml", "old\n")
        _ = try folder.write("config/domains/shop.yaml", "old shop\n")
        let config = folder.url.appendingPathComponent("config")
        let top = try FolderHandle(path: config.path)
        let environments = try #require(try top.folder(at: "environments"))
        let domains = try #require(try top.folder(at: "domains"))
        let (production, shop) = (Array("new\n".utf8), Array("new shop\n".utf8))
        let first = try environments.stage(production, for: "production.yaml")
        let second = try domains.stage(shop, for: "shop.yaml")
        let journal =
            "linkwright-write-journal 1\nmove \(first) \(SHA256.hex(production)) environments/production.yaml\n"
            + "move \(second) \(SHA256.hex(shop)) domains/shop.yaml\nend\n"
        try top.createFile(".linkwright-write-journal", bytes: Array(journal.utf8))
        if sealed { try top.seal(".linkwright-write-journal") }
        try environments.rename(first, to: "production.yaml", in: environments)
        return (folder, config)
    }

    /// Several files are switched under a journal: the next write under the same root finishes
    /// what a killed one began, so the set ends wholly in place, and leaves no journal.
    @Test func aWriteKilledBetweenItsRenamesIsCompletedByTheNext() throws {
        let (folder, config) = try killedWrite(sealed: true)
        defer { folder.remove() }
        #expect(try folder.read("config/domains/shop.yaml") == "old shop\n")
        try AtomicFiles.write(
            [("policies/merge.yaml", Array("forbidden_paths: []\n".utf8)), ("README", Array("x\n".utf8))],
            under: config)
        #expect(try folder.read("config/environments/production.yaml") == "new\n")
        #expect(try folder.read("config/domains/shop.yaml") == "new shop\n")
        #expect(!folder.exists("config/.linkwright-write-journal"))
        for sub in ["config", "config/domains", "config/environments", "config/policies"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent(sub).path)
            #expect(!names.contains { $0.hasSuffix(".linkwright-tmp") || $0.hasSuffix("journal") }, "\(sub): \(names)")
        }
    }

    /// A journal without the seal (one a repository carries, naming a temporary file it carries
    /// too) is never acted on: the write stops naming it, and nothing changes.
    @Test func aJournalNoWriteHereMadeIsNeverActedOn() throws {
        let (folder, config) = try killedWrite(sealed: false)
        defer { folder.remove() }
        var failure: AtomicFiles.WriteError?
        do {
            try AtomicFiles.write([("policies/merge.yaml", Array("x\n".utf8))], under: config)
        } catch let error as AtomicFiles.WriteError { failure = error }
        #expect(failure?.path.hasSuffix("config/.linkwright-write-journal") == true, "\(String(describing: failure))")
        #expect(failure?.reason.contains("not written by linkwright on this machine") == true)
        #expect(try folder.read("config/domains/shop.yaml") == "old shop\n")
        #expect(!folder.exists("config/policies/merge.yaml"))
    }

    /// A temporary file whose bytes are not those the journal recorded is not put in place.
    @Test func aTemporaryFileChangedSinceItWasStagedIsNotPutInPlace() throws {
        let (folder, config) = try killedWrite(sealed: true)
        defer { folder.remove() }
        let domains = folder.url.appendingPathComponent("config/domains")
        let staged = try #require(
            try FileManager.default.contentsOfDirectory(atPath: domains.path).first { $0.hasSuffix(".linkwright-tmp") })
        try Data("planted\n".utf8).write(to: domains.appendingPathComponent(staged))
        try AtomicFiles.write([("README", Array("x\n".utf8))], under: config)
        #expect(try folder.read("config/domains/shop.yaml") == "old shop\n")
        #expect(!folder.exists("config/.linkwright-write-journal"))
    }

}
