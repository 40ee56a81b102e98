import Foundation

/// Checks a pack's index (`objects/pack/*.idx`) before libgit2 reads it.
///
/// libgit2 1.5.1 trusts the index's fan-out table: a last fan-out entry raised to `0x7fffffff`
/// makes it read far past the mapped file, and the process dies with SIGSEGV; a middle entry
/// out of order makes objects vanish with "object not found". git itself refuses such an
/// index. So every index of every object folder linkwright opens is checked as git checks it:
/// the fan-out never decreases, the file's size is exactly what its object count makes it,
/// object IDs are in strictly increasing order, every offset lies inside the pack (a large
/// offset names an entry of the 64-bit table), and the pack's header names as many objects.
enum PackIndex {
    /// What is wrong with one index, in words a user can match against `git fsck`.
    struct Defect: Error, Equatable {
        var path: String
        var reason: String
    }

    private static let hashSize = 20
    /// `\377tOc`, then version 2.
    private static let magic: [UInt8] = [0xFF, 0x74, 0x4F, 0x63]

    /// Checks every `*.idx` in `objectsFolder/pack`; a folder without packs passes.
    static func checkPacks(in objectsFolder: String) throws(Defect) {
        let folder = (objectsFolder.hasSuffix("/") ? String(objectsFolder.dropLast()) : objectsFolder) + "/pack"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.sorted() where name.hasSuffix(".idx") {
            let index = folder + "/" + name
            try check(index: index, pack: String(index.dropLast(4)) + ".pack")
        }
    }

    /// Checks the index at `index` against the pack at `pack`.
    static func check(index: String, pack: String) throws(Defect) {
        func defect(_ reason: String) -> Defect { Defect(path: index, reason: reason) }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: index), options: .alwaysMapped) else {
            throw defect("it cannot be read")
        }
        guard let packSize = (try? FileManager.default.attributesOfItem(atPath: pack))?[.size] as? Int else {
            throw defect("its pack \((pack as NSString).lastPathComponent) is missing")
        }
        let result: Defect? = data.withUnsafeBytes { bytes in
            check(bytes, packSize: packSize).map(defect)
        }
        if let result { throw result }
        try checkPackHeader(pack, objects: data.withUnsafeBytes { objectCount(of: $0) ?? 0 }, index: index)
    }

    /// The object count the last fan-out entry gives, or nil when the file is too short to hold one.
    private static func objectCount(of bytes: UnsafeRawBufferPointer) -> Int? {
        let fanOut = bytes.starts(with: magic) ? 8 : 0
        guard bytes.count >= fanOut + 1024 else { return nil }
        return Int(word(bytes, at: fanOut + 255 * 4))
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// Why `bytes` is not a sound index for a pack of `packSize` bytes, or nil.
    static func check(_ bytes: UnsafeRawBufferPointer, packSize: Int) -> String? {
        let version2 = bytes.starts(with: magic)
        if version2 {
            guard bytes.count >= 8, word(bytes, at: 4) == 2 else { return "its version is not 2" }
        }
        let fanOut = version2 ? 8 : 0
        guard bytes.count >= fanOut + 1024 + 2 * hashSize else { return "it is too short to hold a fan-out table" }
        var previous: UInt32 = 0
        for entry in 0..<256 {
            let count = word(bytes, at: fanOut + entry * 4)
            guard count >= previous else {
                return "fan-out entry \(entry) (\(count)) is below the one before it (\(previous))"
            }
            previous = count
        }
        let objects = Int(previous)
        // Each object costs at least 24 bytes (version 1) or 28 (version 2): a count the file
        // cannot hold is refused before any product is formed.
        guard objects <= bytes.count / 24 else {
            return "its fan-out table counts \(objects) objects, more than its \(bytes.count) bytes can hold"
        }
        let packEnd = packSize - hashSize
        guard packEnd >= 12 else { return "its pack is too short to hold any object" }
        func idAt(_ offset: Int) -> UnsafeRawBufferPointer.SubSequence { bytes[offset..<(offset + hashSize)] }
        func ordered(first: Int, stride: Int) -> String? {
            guard objects > 1 else { return nil }
            for position in 1..<objects {
                let earlier = idAt(first + (position - 1) * stride)
                let later = idAt(first + position * stride)
                guard earlier.lexicographicallyPrecedes(later) else {
                    return "its object IDs are not in strictly increasing order (at entry \(position))"
                }
            }
            return nil
        }
        if !version2 {
            // Version 1: 4-byte offset and ID per object, then the pack's and the index's hashes.
            guard bytes.count == fanOut + 1024 + objects * 24 + 2 * hashSize else {
                return "its size (\(bytes.count) bytes) is not what its \(objects) objects make it"
            }
            let table = fanOut + 1024
            for position in 0..<objects where Int(word(bytes, at: table + position * 24)) >= packEnd {
                return "the offset of entry \(position) lies past the end of its pack"
            }
            return ordered(first: table + 4, stride: 24)
        }
        // Version 2: IDs, CRCs, 4-byte offsets, 8-byte offsets for those with the top bit set,
        // then the two hashes.
        let ids = fanOut + 1024
        let offsets = ids + objects * (hashSize + 4)
        let large = offsets + objects * 4
        let rest = bytes.count - large - 2 * hashSize
        guard rest >= 0, rest % 8 == 0, rest / 8 <= max(objects - 1, 0) else {
            return "its size (\(bytes.count) bytes) is not what its \(objects) objects make it"
        }
        let largeCount = rest / 8
        for position in 0..<objects {
            let offset = word(bytes, at: offsets + position * 4)
            if offset & 0x8000_0000 == 0 {
                guard Int(offset) < packEnd else {
                    return "the offset of entry \(position) lies past the end of its pack"
                }
                continue
            }
            let slot = Int(offset & 0x7FFF_FFFF)
            guard slot < largeCount else {
                return "entry \(position) names 64-bit offset \(slot), but the index holds \(largeCount)"
            }
            let high = UInt64(word(bytes, at: large + slot * 8)) << 32
            guard high | UInt64(word(bytes, at: large + slot * 8 + 4)) < UInt64(packEnd) else {
                return "the offset of entry \(position) lies past the end of its pack"
            }
        }
        return ordered(first: ids, stride: hashSize)
    }

    /// The pack starts with `PACK`, version 2 or 3, and the object count of its index.
    private static func checkPackHeader(_ pack: String, objects: Int, index: String) throws(Defect) {
        guard let handle = FileHandle(forReadingAtPath: pack) else {
            throw Defect(path: index, reason: "its pack \((pack as NSString).lastPathComponent) cannot be read")
        }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 12)) ?? Data())
        guard header.count == 12, header.starts(with: Array("PACK".utf8)), [2, 3].contains(header[7]),
            header[4...6].allSatisfy({ $0 == 0 })
        else { throw Defect(path: pack, reason: "it does not start with a pack header") }
        let count = header[8...11].reduce(0) { $0 << 8 | Int($1) }
        guard count == objects else {
            throw Defect(path: pack, reason: "it holds \(count) objects but its index lists \(objects)")
        }
    }
}
