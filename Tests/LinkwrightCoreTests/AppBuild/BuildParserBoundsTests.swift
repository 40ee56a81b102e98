import LinkwrightCore
import Testing

/// The parsers of built apps on inputs made to hurt them: each is refused with a reason, in
/// bounded work, never a trap or a hang.
@Suite struct BuildParserBoundsTests {
    /// A binary plist (`bplist00`): `objects` at offset 8 on, the offset table, the trailer.
    static func binaryPlist(_ objects: [[UInt8]], top: Int = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        bytes += offsets.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        func big(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1] + big(objects.count) + big(top) + big(table)
        return bytes
    }

    @Test func aBinaryPlistThatHoldsItselfIsRefused() {
        let cycle = Self.binaryPlist([[0xA1, 0x00]])
        #expect(throws: BuildDefect.self) { try PropertyList.parse(cycle) }
    }

    @Test func sharedReferencesCannotMakeTheWorkExponential() throws {
        // Object i is an array holding object i + 1 twice: 2^40 visits without a budget.
        var objects = (0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x51, 0x61])  // "a"
        let bomb = Self.binaryPlist(objects)
        let error = #expect(throws: BuildDefect.self) { try PropertyList.parse(bomb) }
        #expect(error?.reason == "the property list nests too deeply or holds too many objects")
        // The same shape, shallow, reads.
        let small = Self.binaryPlist([[0xA2, 0x01, 0x01], [0x51, 0x61]])
        #expect(try PropertyList.parse(small) == .array([.string("a"), .string("a")]))
    }

    @Test func aBinaryPlistPointingOutsideItselfIsRefused() {
        var outside = Self.binaryPlist([[0x51, 0x61]])
        outside[outside.count - 34] = 0xFF  // the object's offset, now past the end
        #expect(throws: BuildDefect.self) { try PropertyList.parse(outside) }
    }

    @Test func xmlPlistsReadEntitiesAndNesting() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><!-- a comment -->
            <key>a&amp;b</key><array><string>x&#60;y</string><true/><integer>-3</integer><data>AAEC</data></array>
            </dict></plist>
            """
        #expect(
            try PropertyList.parse(Array(xml.utf8))
                == .dictionary([
                    (key: "a&b", value: .array([.string("x<y"), .boolean(true), .integer(-3), .data([0, 1, 2])]))
                ]))
        let deep =
            "<plist>" + String(repeating: "<array>", count: 100) + String(repeating: "</array>", count: 100)
            + "</plist>"
        #expect(throws: BuildDefect.self) { try PropertyList.parse(Array(deep.utf8)) }
    }

    /// A protobuf length-delimited field.
    static func field(_ number: UInt8, _ bytes: [UInt8]) -> [UInt8] {
        var length = bytes.count
        var varint: [UInt8] = []
        repeat {
            varint.append(UInt8(length & 0x7F) | (length > 0x7F ? 0x80 : 0))
            length >>= 7
        } while length > 0
        return [number << 3 | 2] + varint + bytes
    }

    @Test func aProtobufManifestNestedTooDeeplyIsRefused() throws {
        var node = Self.field(1, Self.field(3, Array("leaf".utf8)))
        for _ in 0..<100 { node = Self.field(1, Self.field(3, Array("e".utf8)) + Self.field(5, node)) }
        let error = #expect(throws: BuildDefect.self) { try ProtoXML.parse(node) }
        #expect(error?.reason == "the protobuf manifest nests too deeply or holds too many nodes")
        let shallow = Self.field(1, Self.field(3, Array("manifest".utf8)))
        #expect(try ProtoXML.parse(shallow).name == "manifest")
    }

    @Test func aTruncatedProtobufIsRefused() {
        #expect(throws: BuildDefect.self) { try ProtoXML.parse([0x0A, 0xFF]) }
        #expect(throws: BuildDefect.self) { try ProtoXML.parse([0x0A, 0x05, 0x1A]) }
    }

    @Test func aBinaryXMLChunkLargerThanItsDocumentIsRefused() {
        // RES_XML_TYPE of 32 bytes holding a start-element chunk that claims 64 KB.
        let bytes: [UInt8] =
            [0x03, 0x00, 0x08, 0x00, 32, 0, 0, 0, 0x02, 0x01, 0x10, 0x00, 0xFF, 0xFF, 0, 0]
            + Array(
                repeating: 0, count: 16)
        let error = #expect(throws: BuildDefect.self) { try BinaryXML.parse(bytes) }
        #expect(error?.reason == "a chunk at byte 8 has an impossible size")
    }
}
