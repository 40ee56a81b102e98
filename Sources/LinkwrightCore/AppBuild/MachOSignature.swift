/// The code signature of a Mach-O executable, thin or fat, as far as links need it: the signing
/// identifier and team (from the CodeDirectory) and the signed entitlements. Layouts: Apple's
/// `<mach-o/loader.h>` and `<mach-o/fat.h>` (headers, `LC_CODE_SIGNATURE` = 0x1d, a
/// `linkedit_data_command`) and xnu's `osfmk/kern/cs_blobs.h` (the big-endian SuperBlob
/// `0xfade0cc0` with its index of slots; CodeDirectory `0xfade0c02` in slot 0, XML entitlements
/// `0xfade7171` in slot 5, DER entitlements `0xfade7172` in slot 7).
public struct MachOSignature: Sendable, Equatable {
    /// `arm64`, `x86_64`, or the CPU type in hex, per slice.
    public var architectures: [String]
    public var identifier: String?
    public var teamID: String?
    /// The XML entitlements slot; `nil` when the signature carries none.
    public var entitlements: PropertyList?
    public var hasDEREntitlements: Bool

    static let maximumLoadCommands = 4096

    /// The signature of the first slice that has one; `nil` when no slice is signed.
    public static func read(_ bytes: [UInt8]) throws(BuildDefect) -> MachOSignature? {
        guard bytes.count >= 8 else { throw BuildDefect("too short for a Mach-O file") }
        let magic = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
        var slices: [(offset: Int, size: Int)] = []
        if magic == 0xCAFE_BABE || magic == 0xCAFE_BABF {
            let big = ByteFields(bytes: bytes, what: "the fat header", bigEndian: true)
            let count = try big.uint32(4)
            guard count > 0, count <= 64 else { throw BuildDefect("the fat header declares \(count) architectures") }
            let is64 = magic == 0xCAFE_BABF
            for index in 0..<count {
                let entry = 8 + index * (is64 ? 32 : 20)
                let offset = is64 ? try big.uint64(entry + 8) : try big.uint32(entry + 8)
                let size = is64 ? try big.uint64(entry + 16) : try big.uint32(entry + 12)
                guard offset >= 8, size >= 28, offset <= bytes.count, size <= bytes.count - offset else {
                    throw BuildDefect("architecture \(index + 1) of the fat header lies outside the file")
                }
                slices.append((offset, size))
            }
        } else {
            slices = [(0, bytes.count)]
        }
        var architectures: [String] = []
        var found: MachOSignature?
        for slice in slices {
            let (architecture, signature) = try readSlice(Array(bytes[slice.offset..<(slice.offset + slice.size)]))
            architectures.append(architecture)
            if found == nil { found = signature }
        }
        found?.architectures = architectures
        return found
    }

    private static func readSlice(_ bytes: [UInt8]) throws(BuildDefect) -> (String, MachOSignature?) {
        let fields = ByteFields(bytes: bytes, what: "the Mach-O header")
        let magic = try fields.uint32(0)
        guard magic == 0xFEED_FACE || magic == 0xFEED_FACF else {
            throw BuildDefect("not a little-endian Mach-O file (magic 0x\(String(magic, radix: 16)))")
        }
        let cpu = try fields.uint32(4)
        let architecture =
            switch cpu {
            case 0x0100_000C: "arm64"
            case 0x0100_0007: "x86_64"
            case 0x0000_000C: "arm"
            default: "cpu 0x" + String(cpu, radix: 16)
            }
        let count = try fields.uint32(16)
        let commandsSize = try fields.uint32(20)
        var cursor = magic == 0xFEED_FACF ? 32 : 28
        guard count <= maximumLoadCommands, commandsSize <= bytes.count - cursor else {
            throw BuildDefect("the load commands run past the end of the file (truncated)")
        }
        let end = cursor + commandsSize
        for _ in 0..<count {
            guard cursor + 8 <= end else { throw BuildDefect("a load command runs past the load commands (truncated)") }
            let command = try fields.uint32(cursor)
            let size = try fields.uint32(cursor + 4)
            guard size >= 8, size <= end - cursor else {
                throw BuildDefect("a load command runs past the load commands (truncated)")
            }
            if command == 0x1D {
                guard size >= 16 else { throw BuildDefect("LC_CODE_SIGNATURE is too short") }
                let offset = try fields.uint32(cursor + 8)
                let length = try fields.uint32(cursor + 12)
                guard offset <= bytes.count, length <= bytes.count - offset else {
                    throw BuildDefect("LC_CODE_SIGNATURE points outside the file")
                }
                return (architecture, try superBlob(Array(bytes[offset..<(offset + length)])))
            }
            cursor += size
        }
        return (architecture, nil)
    }

    private static func superBlob(_ bytes: [UInt8]) throws(BuildDefect) -> MachOSignature {
        let blob = ByteFields(bytes: bytes, what: "the code signature", bigEndian: true)
        guard try blob.uint32(0) == 0xFADE_0CC0 else { throw BuildDefect("the code signature is not a SuperBlob") }
        let length = min(try blob.uint32(4), bytes.count)
        let count = try blob.uint32(8)
        guard count <= 64 else { throw BuildDefect("the code signature declares \(count) slots") }
        var signature = MachOSignature(
            architectures: [], identifier: nil, teamID: nil, entitlements: nil, hasDEREntitlements: false)
        for index in 0..<count {
            let type = try blob.uint32(12 + index * 8)
            let offset = try blob.uint32(16 + index * 8)
            guard offset + 8 <= length else { throw BuildDefect("a code signature slot points outside the signature") }
            let magic = try blob.uint32(offset)
            let size = try blob.uint32(offset + 4)
            guard size >= 8, size <= length - offset else {
                throw BuildDefect("a code signature blob runs past the signature")
            }
            let body = ByteFields(
                bytes: Array(bytes[offset..<(offset + size)]), what: "a code signature blob", bigEndian: true)
            switch (type, magic) {
            case (0, 0xFADE_0C02):
                let version = try body.uint32(8)
                signature.identifier = try body.cString(try body.uint32(20))
                if version >= 0x20200, let team = try? body.uint32(48), team != 0 {
                    signature.teamID = try body.cString(team)
                }
            case (5, 0xFADE_7171):
                do throws(BuildDefect) {
                    signature.entitlements = try PropertyList.parse(Array(body.bytes[8...]))
                } catch {
                    throw BuildDefect("the signed entitlements are not a property list: \(error.reason)")
                }
            case (7, 0xFADE_7172):
                signature.hasDEREntitlements = true
            default:
                break  // requirements, CMS signature, alternate code directories: not about links.
            }
        }
        return signature
    }
}
