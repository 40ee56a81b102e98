import Foundation
import LinkwrightTestSupport
import Testing

@testable import LinkwrightIO

/// Reading and comparing files through `FolderHandle`, which `build` uses for every artifact and
/// the source tree for every configuration file.
@Suite struct FolderHandleTests {
    /// Bytes that differ from their neighbours, so a comparison off by one offset fails.
    private static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 251) }
    }

    @Test func readStopsOneByteOverTheLimitAndReadsPastAWrongExpectedSize() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = Self.pattern(200_000)
        try Data(bytes).write(to: folder.url.appendingPathComponent("big"))
        let handle = try FolderHandle(path: folder.url.path)
        #expect(try handle.read("big", limit: 1 << 20) == bytes)
        #expect(try handle.read("big", limit: 200_000) == bytes)
        #expect(try handle.read("big", limit: 1000) == Array(bytes.prefix(1001)))
        #expect(try handle.read("absent", limit: 10) == nil)
        // A size that was wrong by the time of reading (a growing file): the reader grows its
        // buffer until the end or the limit.
        let descriptor = open(folder.url.appendingPathComponent("big").path, O_RDONLY)
        defer { close(descriptor) }
        #expect(FolderHandle.read(descriptor, limit: 1 << 20, expected: 3) == bytes)
    }

    /// A seal survives a rename and nothing else a repository or a copy can do: a file written
    /// the ordinary way, a copy, a rewrite and a link are not sealed.
    @Test func aSealSurvivesARenameOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let handle = try FolderHandle(path: folder.url.path)
        try handle.createFile("file", bytes: [1, 2, 3])
        #expect(try !handle.isSealed("file"))
        try handle.seal("file")
        #expect(try handle.isSealed("file"))
        try handle.rename("file", to: "moved", in: handle)
        #expect(try handle.isSealed("moved"))
        try FileManager.default.copyItem(
            at: folder.url.appendingPathComponent("moved"), to: folder.url.appendingPathComponent("copy"))
        #expect(try !handle.isSealed("copy"))
        try Data([4]).write(to: folder.url.appendingPathComponent("moved"))
        #expect(try !handle.isSealed("moved"))
        try handle.createFile("target", bytes: [])
        try handle.seal("target")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("link").path, withDestinationPath: "target")
        #expect(try !handle.isSealed("link"))
        #expect(try !handle.isSealed("absent"))
    }

    @Test func holdsComparesWithoutReadingAFileOfAnotherSize() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = Self.pattern(150_000)
        try Data(bytes).write(to: folder.url.appendingPathComponent("same"))
        var lastDiffers = bytes
        lastDiffers[lastDiffers.count - 1] ^= 1
        try Data(lastDiffers).write(to: folder.url.appendingPathComponent("last"))
        var secondChunkDiffers = bytes
        secondChunkDiffers[70_000] ^= 1
        try Data(secondChunkDiffers).write(to: folder.url.appendingPathComponent("middle"))
        try Data(bytes.dropLast()).write(to: folder.url.appendingPathComponent("shorter"))
        try Data([]).write(to: folder.url.appendingPathComponent("empty"))
        let handle = try FolderHandle(path: folder.url.path)
        #expect(try handle.holds("same", bytes: bytes) == true)
        #expect(try handle.holds("last", bytes: bytes) == false)
        #expect(try handle.holds("middle", bytes: bytes) == false)
        #expect(try handle.holds("shorter", bytes: bytes) == false)
        #expect(try handle.holds("same", bytes: Array(bytes.dropLast())) == false)
        #expect(try handle.holds("empty", bytes: []) == true)
        #expect(try handle.holds("empty", bytes: [0]) == false)
        #expect(try handle.holds("absent", bytes: bytes) == nil)
    }

    @Test func holdsRefusesLinksAndFIFOsWithoutFollowingOrBlocking() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = try folder.write("target", "x")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("link").path, withDestinationPath: target.path)
        #expect(mkfifo(folder.url.appendingPathComponent("fifo").path, 0o644) == 0)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("sub"), withIntermediateDirectories: false)
        let handle = try FolderHandle(path: folder.url.path)
        for (name, kind) in [("link", "a symbolic link"), ("fifo", "a FIFO"), ("sub", "a folder")] {
            let failure = #expect(throws: FolderHandle.Failure.self) { try handle.holds(name, bytes: Array("x".utf8)) }
            #expect(failure?.path == folder.url.path + "/" + name)
            #expect(failure?.reason == "is \(kind), not a regular file")
        }
    }
}
