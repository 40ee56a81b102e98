import CZlib

/// One loose object file (`objects/xx/yyyy…`) inflated and checked by linkwright itself.
///
/// libgit2 1.5.1 spins forever inflating a truncated loose object: zlib reports `Z_BUF_ERROR`
/// when the input runs out, and its zstream loop retries without ever feeding more input
/// (libgit2 issue #7342, fixed by pull request #7346 after 1.5). It also writes past its buffer
/// when a header declares fewer bytes than the object holds (issue #7177). Repositories come from
/// untrusted contributors, so libgit2 never inflates a loose object here: the object database
/// installed by `GuardedObjectDatabase` hands it the body decoded below, or an error.
struct LooseObject {
    enum Kind: String {
        case commit, tree, blob, tag
    }

    let kind: Kind
    let body: [UInt8]

    /// The largest object linkwright reads, compressed or inflated: far beyond any configuration
    /// file, commit or tree, and small enough that a lying header cannot exhaust memory.
    static let maximumSize = 256 << 20

    /// `file`, the bytes of a loose object file, as git defines it: a zlib stream, complete,
    /// holding `<kind> <size>\0` and exactly `size` bytes, with nothing after the stream.
    init(decoding file: [UInt8]) throws(LooseObjectDefect) {
        let (inflater, kind, size, head) = try Self.header(file)
        var body = head
        guard body.count <= size else { throw .lengthMismatch(declared: size, actual: nil) }
        // The size is only a claim until the data bears it out.
        body.reserveCapacity(min(size, 1 << 20))
        while !inflater.ended {
            // One byte more than declared shows a body that runs on past its size.
            let chunk = try LooseObjectDefect.mapping { () throws(InflateFailure) in
                try inflater.inflate(atMost: min(size - body.count + 1, 1 << 16))
            }
            body += chunk
            guard body.count <= size else { throw .lengthMismatch(declared: size, actual: nil) }
        }
        guard body.count == size else { throw .lengthMismatch(declared: size, actual: body.count) }
        guard inflater.inputLeft == 0 else { throw .trailingData }
        self.kind = kind
        self.body = body
    }

    /// The kind and declared size of the object in `file`, inflating only its first 32 bytes:
    /// what `git_odb_read_header` asks, so a blob's size is known (and a huge one refused)
    /// without inflating it.
    static func kindAndSize(of file: [UInt8]) throws(LooseObjectDefect) -> (Kind, Int) {
        let (_, kind, size, _) = try header(file)
        return (kind, size)
    }

    /// The stream after the header, the header's kind and size, and the body bytes inflated with it.
    private static func header(_ file: [UInt8]) throws(LooseObjectDefect) -> (Inflater, Kind, Int, [UInt8]) {
        guard file.count <= maximumSize else { throw .tooLarge }
        let inflater = Inflater(file, format: .zlib)
        // "commit 268435456\0" is the longest header within the limit; 32 bytes hold it.
        var head = try LooseObjectDefect.mapping { () throws(InflateFailure) in
            try inflater.start()
            return try inflater.inflate(atMost: 32)
        }
        guard let nul = head.firstIndex(of: 0) else { throw .badHeader }
        let (kind, size) = try parseHeader(head[..<nul])
        head.removeSubrange(...nul)
        return (inflater, kind, size, head)
    }

    /// `<kind> <size>`: one of git's four kinds, one space, and the size in canonical decimal
    /// (no sign, no leading zero), as git itself requires.
    private static func parseHeader(_ header: ArraySlice<UInt8>) throws(LooseObjectDefect) -> (Kind, Int) {
        guard let space = header.firstIndex(of: UInt8(ascii: " ")),
            let kind = Kind(rawValue: String(decoding: header[..<space], as: UTF8.self))
        else { throw .badHeader }
        let digits = header[(space + 1)...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (0x30...0x39).contains($0) }),
            digits.first != 0x30 || digits.count == 1
        else { throw .badHeader }
        let size = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard size <= maximumSize else { throw .tooLarge }
        return (kind, size)
    }
}

/// Why a loose object file cannot be read. Each says what is wrong with the file in words a user
/// can match against `git fsck`'s report.
enum LooseObjectDefect: Error, Equatable, CustomStringConvertible {
    /// The zlib stream stops before its end: the file was cut short.
    case truncated
    /// zlib rejects the data; `reason` is zlib's own message.
    case damaged(reason: String)
    /// The inflated data does not start with `<kind> <size>\0`.
    case badHeader
    /// The header's size disagrees with the data: `actual` bytes, or more than declared when nil.
    case lengthMismatch(declared: Int, actual: Int?)
    /// Bytes follow the end of the zlib stream.
    case trailingData
    /// The file or the object it declares is larger than `LooseObject.maximumSize`.
    case tooLarge

    var description: String {
        switch self {
        case .truncated:
            "the file is truncated (its compressed data ends early)"
        case .damaged(let reason):
            "its compressed data is damaged (\(reason))"
        case .badHeader:
            "it does not start with a git object header"
        case .lengthMismatch(let declared, let actual?):
            "its header declares \(declared) bytes but it holds \(actual)"
        case .lengthMismatch(let declared, nil):
            "its header declares \(declared) bytes but it holds more"
        case .trailingData:
            "data follows the end of its compressed stream"
        case .tooLarge:
            "it is larger than the \(LooseObject.maximumSize >> 20) MiB linkwright reads"
        }
    }
}

extension LooseObjectDefect {
    /// Runs `body`, its inflate failures as the loose object's defects.
    static func mapping<T>(_ body: () throws(InflateFailure) -> T) throws(LooseObjectDefect) -> T {
        do {
            return try body()
        } catch {
            switch error {
            case .truncated: throw .truncated
            case .damaged(let reason): throw .damaged(reason: reason)
            }
        }
    }
}
