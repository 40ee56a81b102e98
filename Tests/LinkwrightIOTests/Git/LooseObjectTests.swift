import CZlib
import Testing

@testable import LinkwrightIO

/// The inflate linkwright runs on loose object files instead of libgit2's (which loops forever
/// on a truncated one), on bytes made here with zlib.
@Suite struct LooseObjectTests {
    /// `text` compressed as git writes loose objects: one zlib stream.
    static func deflated(_ text: String) -> [UInt8] {
        deflated(Array(text.utf8))
    }

    static func deflated(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let code = compress(&output, &length, bytes, uLong(bytes.count))
        precondition(code == Z_OK, "zlib compress failed: \(code)")
        return Array(output[..<Int(length)])
    }

    @Test func readsEachKindOfObject() throws {
        let blob = try LooseObject(decoding: Self.deflated("blob 6\0hello\n"))
        #expect(blob.kind == .blob && blob.body == Array("hello\n".utf8))
        let empty = try LooseObject(decoding: Self.deflated("blob 0\0"))
        #expect(empty.kind == .blob && empty.body.isEmpty)
        let commit = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@b> 1 +0000\n\nm\n"
        #expect(try LooseObject(decoding: Self.deflated("commit \(commit.utf8.count)\0" + commit)).kind == .commit)
        #expect(try LooseObject(decoding: Self.deflated("tree 0\0")).kind == .tree)
        #expect(try LooseObject(decoding: Self.deflated("tag 1\0x")).kind == .tag)
        // Larger than one inflate round, in bytes that do not compress.
        var generator = SystemRandomNumberGenerator()
        let large = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let decoded = try LooseObject(decoding: Self.deflated(Array("blob 200000\0".utf8) + large))
        #expect(decoded.body == large)
    }

    /// Every cut of a file, down to nothing, is reported as truncated and returns at once.
    @Test func refusesAFileCutShortAnywhere() {
        let file = Self.deflated("blob 40\0" + String(repeating: "linkwright ", count: 4).prefix(40))
        for length in 0..<file.count {
            #expect(throws: LooseObjectDefect.truncated, "cut at \(length) of \(file.count)") {
                try LooseObject(decoding: Array(file.prefix(length)))
            }
        }
    }

    /// A valid zlib stream whose header lies about the length: libgit2 1.5.1 overflows its buffer
    /// on the shorter claim (libgit2 issue #7177).
    @Test func refusesAHeaderWhoseLengthLies() {
        #expect(throws: LooseObjectDefect.lengthMismatch(declared: 3, actual: nil)) {
            try LooseObject(decoding: Self.deflated("blob 3\0hello"))
        }
        #expect(throws: LooseObjectDefect.lengthMismatch(declared: 50, actual: 5)) {
            try LooseObject(decoding: Self.deflated("blob 50\0hello"))
        }
        #expect(throws: LooseObjectDefect.lengthMismatch(declared: 0, actual: nil)) {
            try LooseObject(decoding: Self.deflated("blob 0\0!"))
        }
    }

    @Test func refusesHeadersGitWouldNotWrite() {
        for header in [
            "blub 5\0hello", "blob\0hello", "blob 5hello", "blob -5\0hello", "blob 05\0hello", "blob  5\0hello",
            "blob 5 \0hello", "blob 12345678901\0", "Blob 5\0hello", String(repeating: "x", count: 40),
        ] {
            #expect(throws: LooseObjectDefect.badHeader, "\(header.debugDescription)") {
                try LooseObject(decoding: Self.deflated(header))
            }
        }
        #expect(throws: LooseObjectDefect.tooLarge) { try LooseObject(decoding: Self.deflated("blob 300000000\0")) }
    }

    @Test func refusesDamagedAndForeignData() {
        #expect(throws: LooseObjectDefect.damaged(reason: "incorrect header check")) {
            try LooseObject(decoding: Array("blob 5\0hello".utf8))
        }
        var flipped = Self.deflated("blob 6\0hello\n")
        flipped[flipped.count - 1] ^= 0xFF
        #expect(throws: LooseObjectDefect.damaged(reason: "incorrect data check")) {
            try LooseObject(decoding: flipped)
        }
        #expect(throws: LooseObjectDefect.trailingData) {
            try LooseObject(decoding: Self.deflated("blob 6\0hello\n") + [0])
        }
    }

    @Test func describesEachDefectForTheUser() {
        #expect(LooseObjectDefect.truncated.description == "the file is truncated (its compressed data ends early)")
        #expect(
            LooseObjectDefect.lengthMismatch(declared: 50, actual: 5).description
                == "its header declares 50 bytes but it holds 5")
        #expect(LooseObjectDefect.tooLarge.description == "it is larger than the 256 MiB linkwright reads")
    }
}
