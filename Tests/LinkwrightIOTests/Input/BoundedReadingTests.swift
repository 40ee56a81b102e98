import Foundation
import LinkwrightIO
import LinkwrightTestSupport
import Testing

@Suite struct LineReaderTests {
    /// The lines of `text` as the reader gives them, a too-long line as `nil`.
    private func lines(_ text: String, maximumLineBytes: Int) throws -> [String?] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let handle = try FileHandle(forReadingFrom: try folder.write("input", text))
        defer { try? handle.close() }
        var lines: [String?] = []
        var numbers: [Int] = []
        LineReader.forEach(
            in: handle.fileDescriptor, maximumLineBytes: maximumLineBytes,
            { lines.append(String(decoding: $0, as: UTF8.self)) },
            tooLong: { number in
                numbers.append(number)
                lines.append(nil)
            })
        #expect(numbers == lines.indices.filter { lines[$0] == nil }.map { $0 + 1 })
        return lines
    }

    @Test func aLineOverTheLimitIsReportedByNumberAndSkipped() throws {
        let atLimit = String(repeating: "a", count: 10)
        #expect(try lines("x\n\(atLimit)\n\(atLimit)b\ny", maximumLineBytes: 10) == ["x", atLimit, nil, "y"])
        // Longer than a read chunk (64 KiB), across chunks, and at the end without a newline.
        let long = String(repeating: "b", count: 200_000)
        #expect(try lines("\(long)\nz\n\(long)", maximumLineBytes: 100_000) == [nil, "z", nil])
        #expect(try lines("\(long)\n", maximumLineBytes: 200_000) == [long])
    }
}

@Suite struct InputFileTests {
    @Test func readsARegularFileUpToItsCap() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("f", "12345").path
        #expect(try InputFile.read(path, maximumBytes: 5) == Array("12345".utf8))
        #expect(throws: InputFile.Failure.tooLarge(bytes: 5, maximumBytes: 4)) {
            try InputFile.read(path, maximumBytes: 4)
        }
        #expect(throws: InputFile.Failure.missing) { try InputFile.read(path + "x", maximumBytes: 4) }
        #expect(throws: InputFile.Failure.notRegularFile("a folder")) {
            try InputFile.read(folder.url.path, maximumBytes: 4)
        }
    }

    @Test(.enabled(if: LinuxOnly.here, "Linux only: reads /proc/self/status"))
    func aFileThatGrowsPastItsCapWhileReadIsRefused() throws {
        // /proc files state a size of 0 and then give more: the cap holds for what is read.
        #expect(throws: InputFile.Failure.tooLarge(bytes: nil, maximumBytes: 16)) {
            try InputFile.read("/proc/self/status", maximumBytes: 16)
        }
    }
}
