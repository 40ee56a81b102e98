/// Random access to the bytes of a built app (an .apk, an .ipa, a Mach-O file). The IO layer
/// reads them from disk a range at a time, so a 200 MB build costs what its directory and the
/// few entries read cost; tests hand in arrays.
public protocol BuildBytes {
    var count: Int { get }
    /// The bytes in `range`, which the caller has checked lies within `0..<count`.
    func read(_ range: Range<Int>) throws(BuildDefect) -> [UInt8]
}

extension [UInt8]: BuildBytes {
    public func read(_ range: Range<Int>) throws(BuildDefect) -> [UInt8] { Array(self[range]) }
}

/// Inflates raw DEFLATE data (RFC 1951), as ZIP's method 8 stores it. zlib lives in the IO layer.
public protocol Inflating {
    /// Exactly `size` bytes inflated from `compressed`; throws when the data makes more or fewer.
    func inflate(_ compressed: [UInt8], size: Int) throws(BuildDefect) -> [UInt8]
}

/// Why a build cannot be read: damaged, hostile, or not a build at all. `place` is where in the
/// build (`AndroidManifest.xml`, `Payload/Museo.app/Museo`), `nil` for the file as a whole.
public struct BuildDefect: Error, Equatable, Sendable, CustomStringConvertible {
    public var place: String?
    public var reason: String

    public init(_ reason: String, in place: String? = nil) {
        self.place = place
        self.reason = reason
    }

    /// The same defect, placed in `place` unless it already names a place.
    func placed(in place: String) -> BuildDefect {
        self.place == nil ? BuildDefect(reason, in: place) : self
    }

    public var description: String { place.map { "\($0): \(reason)" } ?? reason }
}

/// Fields of a byte array, little-endian (ZIP, binary XML, Mach-O headers) or big-endian (fat
/// headers, code signatures), every read bounds-checked: a field past the end is a defect, never
/// a trap.
struct ByteFields {
    let bytes: [UInt8]
    /// What the fields describe, for the defect's reason.
    let what: String
    var bigEndian = false

    func uint8(_ offset: Int) throws(BuildDefect) -> UInt8 {
        guard offset >= 0, offset < bytes.count else { throw BuildDefect("\(what) ends early (at byte \(offset))") }
        return bytes[offset]
    }

    func uint16(_ offset: Int) throws(BuildDefect) -> Int { try unsigned(offset, width: 2) }
    func uint32(_ offset: Int) throws(BuildDefect) -> Int { try unsigned(offset, width: 4) }
    func uint64(_ offset: Int) throws(BuildDefect) -> Int { try unsigned(offset, width: 8) }

    private func unsigned(_ offset: Int, width: Int) throws(BuildDefect) -> Int {
        guard offset >= 0, offset <= bytes.count - width else {
            throw BuildDefect("\(what) ends early (at byte \(offset))")
        }
        let field = bytes[offset..<(offset + width)]
        let ordered = bigEndian ? Array(field) : field.reversed()
        let value = ordered.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard value <= UInt64(Int.max) else {
            throw BuildDefect("\(what) has a size beyond any file (at byte \(offset))")
        }
        return Int(value)
    }

    /// `count` bytes from `offset`.
    func slice(_ offset: Int, count: Int) throws(BuildDefect) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else {
            throw BuildDefect("\(what) ends early (\(count) bytes at byte \(offset))")
        }
        return Array(bytes[offset..<(offset + count)])
    }

    /// The NUL-terminated string at `offset`.
    func cString(_ offset: Int) throws(BuildDefect) -> String {
        guard offset >= 0, offset < bytes.count, let end = bytes[offset...].firstIndex(of: 0) else {
            throw BuildDefect("\(what) holds a string that runs past its end")
        }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }
}

/// CRC-32 (ISO 3309, the polynomial ZIP uses), to check an entry inflated to what it declares.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
