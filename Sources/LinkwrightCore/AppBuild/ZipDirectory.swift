/// The central directory of a ZIP archive (an .apk, .aab or .ipa), read from the end of the file
/// as every ZIP reader does (PKWARE APPNOTE.TXT 6.3, sections 4.3.12 and 4.3.16), and checked
/// before any entry is read: an archive built to hurt its reader is refused whole. Refused:
/// ZIP64 and multi-disk archives (no app build needs them), more than `maximumEntries` entries,
/// names that are absolute, climb with `..`, hold NUL or backslashes, or repeat (Android refuses
/// duplicate names too: which copy counts would depend on the reader), entries whose data
/// overlap another's or the directory (the overlapping-entry zip bomb), encrypted entries, and
/// methods other than stored and deflated. Nothing is ever extracted to disk.
public struct ZipDirectory: Sendable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// 0 stored, 8 deflated.
        public var method: Int
        public var crc32: UInt32
        public var compressedSize: Int
        public var size: Int
        public var localHeaderOffset: Int
        /// Where the next entry's header (or the signing block, or the directory) begins: this
        /// entry's data may not reach past it.
        var limit: Int
    }

    public static let maximumEntries = 65_535
    /// The largest entry linkwright inflates: manifests, plists and signature files are
    /// kilobytes; a main executable is read up to `MachOFile.maximumSize`.
    public static let maximumEntrySize = 256 << 20
    /// Deflate cannot shrink data more than about 1032:1 (RFC 1951's longest match per code);
    /// an entry declaring more is a bomb, refused before inflating.
    public static let maximumRatio = 1032

    public private(set) var entries: [Entry]
    /// Where the central directory starts: an APK's signing block ends here.
    public let directoryOffset: Int
    private let byName: [String: Int]

    public func entry(named name: String) -> Entry? { byName[name].map { entries[$0] } }

    /// Reads and checks the directory of the archive `bytes`.
    public init(_ bytes: some BuildBytes) throws(BuildDefect) {
        let tailLength = min(bytes.count, 22 + 0xFFFF)
        let tail = ByteFields(
            bytes: try bytes.read((bytes.count - tailLength)..<bytes.count), what: "the ZIP end record")
        // The end record is the last `PK\5\6` whose comment runs exactly to the end of the file.
        var found: Int?
        var position = tailLength - 22
        while position >= 0 {
            if try tail.uint32(position) == 0x0605_4B50, try tail.uint16(position + 20) == tailLength - position - 22 {
                found = position
                break
            }
            position -= 1
        }
        guard let end = found else { throw BuildDefect("not a ZIP archive (no end of central directory record)") }
        let endOffset = bytes.count - tailLength + end
        let disk = try tail.uint16(end + 4)
        let directoryDisk = try tail.uint16(end + 6)
        let diskEntries = try tail.uint16(end + 8)
        let count = try tail.uint16(end + 10)
        let directorySize = try tail.uint32(end + 12)
        directoryOffset = try tail.uint32(end + 16)
        guard count != 0xFFFF, directorySize != 0xFFFF_FFFF, directoryOffset != 0xFFFF_FFFF else {
            throw BuildDefect("ZIP64 archives are not read (no app build needs one)")
        }
        guard disk == 0, directoryDisk == 0, diskEntries == count else {
            throw BuildDefect("multi-disk ZIP archives are not read")
        }
        guard directoryOffset <= endOffset, directorySize <= endOffset - directoryOffset else {
            throw BuildDefect("the central directory lies outside the file")
        }
        let directory = ByteFields(
            bytes: try bytes.read(directoryOffset..<(directoryOffset + directorySize)), what: "the central directory")
        var entries: [Entry] = []
        var byName: [String: Int] = [:]
        var cursor = 0
        for _ in 0..<count {
            guard try directory.uint32(cursor) == 0x0201_4B50 else {
                throw BuildDefect("a central directory record is damaged (at byte \(directoryOffset + cursor))")
            }
            let flags = try directory.uint16(cursor + 8)
            let nameLength = try directory.uint16(cursor + 28)
            let extraLength = try directory.uint16(cursor + 30)
            let commentLength = try directory.uint16(cursor + 32)
            let nameBytes = try directory.slice(cursor + 46, count: nameLength)
            let name = String(decoding: nameBytes, as: UTF8.self)
            let entry = Entry(
                name: name, method: try directory.uint16(cursor + 10), crc32: UInt32(try directory.uint32(cursor + 16)),
                compressedSize: try directory.uint32(cursor + 20), size: try directory.uint32(cursor + 24),
                localHeaderOffset: try directory.uint32(cursor + 42), limit: directoryOffset)
            try Self.check(entry, nameBytes: nameBytes, flags: flags)
            guard byName[name] == nil else {
                throw BuildDefect("two entries share the name \(PrintableText.quoted(name))")
            }
            byName[name] = entries.count
            entries.append(entry)
            cursor += 46 + nameLength + extraLength + commentLength
        }
        // In file order, each entry's header, name and data must end before the next begins.
        let order = entries.indices.sorted { entries[$0].localHeaderOffset < entries[$1].localHeaderOffset }
        for (position, index) in order.enumerated() {
            let entry = entries[index]
            let next = position + 1 < order.count ? entries[order[position + 1]].localHeaderOffset : directoryOffset
            let minimumEnd = entry.localHeaderOffset + 30 + entry.name.utf8.count + entry.compressedSize
            guard minimumEnd <= next else {
                throw BuildDefect(
                    "the data of \(PrintableText.quoted(entry.name)) overlaps the next entry or the central directory")
            }
            entries[index].limit = next
        }
        self.entries = entries
        self.byName = byName
    }

    private static func check(_ entry: Entry, nameBytes: [UInt8], flags: Int) throws(BuildDefect) {
        let quoted = PrintableText.quoted(entry.name)
        let components = entry.name.split(separator: "/", omittingEmptySubsequences: false)
        guard !nameBytes.isEmpty, nameBytes.first != UInt8(ascii: "/"), !nameBytes.contains(0),
            !nameBytes.contains(UInt8(ascii: "\\")), !components.contains(".."),
            !(components.first?.contains(":") ?? false)
        else {
            throw BuildDefect("the entry name \(quoted) would leave the archive's folder (path traversal)")
        }
        guard flags & 1 == 0 else { throw BuildDefect("the entry \(quoted) is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw BuildDefect("the entry \(quoted) uses compression method \(entry.method), not stored or deflated")
        }
        guard entry.method == 8 || entry.compressedSize == entry.size else {
            throw BuildDefect("the stored entry \(quoted) declares two different sizes")
        }
    }

    /// The inflated bytes of `entry`, at most `maximumSize` (and `maximumEntrySize`) long, checked
    /// against its CRC-32.
    public func contents(
        of entry: Entry, in bytes: some BuildBytes, inflater: some Inflating, maximumSize: Int = maximumEntrySize
    ) throws(BuildDefect) -> [UInt8] {
        let limit = min(maximumSize, Self.maximumEntrySize)
        guard entry.size <= limit else {
            throw BuildDefect("declares \(entry.size) bytes, more than the \(limit) linkwright reads", in: entry.name)
        }
        guard entry.method == 0 || entry.size / Self.maximumRatio <= entry.compressedSize else {
            throw BuildDefect(
                "declares \(entry.size) bytes from \(entry.compressedSize) compressed, more than deflate can make "
                    + "(a zip bomb)", in: entry.name)
        }
        do throws(BuildDefect) {
            let header = ByteFields(
                bytes: try bytes.read(entry.localHeaderOffset..<min(entry.limit, entry.localHeaderOffset + 30)),
                what: "the local header")
            guard try header.uint32(0) == 0x0403_4B50 else { throw BuildDefect("the local header is damaged") }
            let nameLength = try header.uint16(26)
            let start = entry.localHeaderOffset + 30 + nameLength + (try header.uint16(28))
            guard start <= entry.limit, entry.compressedSize <= entry.limit - start else {
                throw BuildDefect("the data overlaps the next entry")
            }
            let nameInHeader = try bytes.read(
                (entry.localHeaderOffset + 30)..<(entry.localHeaderOffset + 30 + nameLength))
            guard nameInHeader.elementsEqual(entry.name.utf8) else {
                throw BuildDefect("the local header names another entry")
            }
            let stored = try bytes.read(start..<(start + entry.compressedSize))
            let data = entry.method == 0 ? stored : try inflater.inflate(stored, size: entry.size)
            guard data.count == entry.size, CRC32.checksum(data) == entry.crc32 else {
                throw BuildDefect("the data does not match its CRC-32 (damaged)")
            }
            return data
        } catch {
            throw error.placed(in: entry.name)
        }
    }
}
