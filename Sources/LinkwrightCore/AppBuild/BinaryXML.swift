/// Android's compiled XML, the form `AndroidManifest.xml` takes inside an APK, read into a tree.
/// The layout is AOSP's `frameworks/base/libs/androidfw/include/androidfw/ResourceTypes.h`: a
/// `RES_XML_TYPE` chunk holding a string pool (UTF-8 or UTF-16), a resource map (the attribute
/// resource IDs, by string index) and one node chunk per namespace, element start and end.
/// Every offset is checked; nesting and counts are bounded.
public struct BinaryXMLElement: Sendable, Equatable {
    public var name: String
    public var attributes: [BinaryXMLAttribute]
    public var children: [BinaryXMLElement]
    /// The line in the source manifest that aapt recorded.
    public var line: Int

    /// The attribute with this name (in the Android namespace when `android` is set), or with
    /// this Android resource ID: aapt2 may strip names and leave only the ID.
    public func attribute(_ name: String, android resourceID: UInt32? = nil) -> BinaryXMLAttribute? {
        attributes.first { attribute in
            if let resourceID, attribute.resourceID == resourceID { return true }
            return attribute.name == name
                && (resourceID == nil ? attribute.namespace.isEmpty : attribute.namespace == BinaryXML.androidNamespace)
        }
    }
}

public struct BinaryXMLAttribute: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case string(String)
        case boolean(Bool)
        case integer(Int)
        /// `@0x7f0c0012`: a resource the manifest names and resources.arsc holds.
        case reference(UInt32)
        case other(type: UInt8, data: UInt32)
    }

    public var namespace: String
    public var name: String
    public var resourceID: UInt32?
    public var value: Value

    /// The value as text, as `aapt dump xmltree` prints it after the `=`.
    public var text: String {
        switch value {
        case .string(let text): text
        case .boolean(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .reference(let id): "@0x" + String(id, radix: 16)
        case .other(let type, let data): "(type 0x\(String(type, radix: 16)))0x\(String(data, radix: 16))"
        }
    }
}

public enum BinaryXML {
    public static let androidNamespace = "http://schemas.android.com/apk/res/android"
    static let maximumDepth = 64
    static let maximumNodes = 200_000

    /// The root element of the document.
    public static func parse(_ bytes: [UInt8]) throws(BuildDefect) -> BinaryXMLElement {
        let fields = ByteFields(bytes: bytes, what: "the binary XML")
        guard try fields.uint16(0) == 0x0003 else { throw BuildDefect("not Android binary XML (no RES_XML_TYPE)") }
        let documentEnd = min(try fields.uint32(4), bytes.count)
        var cursor = try fields.uint16(2)
        var strings: [String] = []
        var resourceIDs: [UInt32] = []
        var stack: [BinaryXMLElement] = []
        var root: BinaryXMLElement?
        var nodes = 0
        while cursor + 8 <= documentEnd {
            let type = try fields.uint16(cursor)
            let headerSize = try fields.uint16(cursor + 2)
            let size = try fields.uint32(cursor + 4)
            guard headerSize >= 8, size >= headerSize, size <= documentEnd - cursor else {
                throw BuildDefect("a chunk at byte \(cursor) has an impossible size")
            }
            nodes += 1
            guard nodes <= maximumNodes else { throw BuildDefect("more than \(maximumNodes) XML nodes") }
            let chunk = ByteFields(bytes: try fields.slice(cursor, count: size), what: "an XML chunk")
            func string(_ index: Int) throws(BuildDefect) -> String {
                if index == 0xFFFF_FFFF { return "" }
                guard index < strings.count else { throw BuildDefect("a string index is out of range") }
                return strings[index]
            }
            switch type {
            case 0x0001:
                strings = try stringPool(chunk)
            case 0x0180:
                resourceIDs = try stride(from: headerSize, to: size - 3, by: 4).map {
                    (offset) throws(BuildDefect) in UInt32(try chunk.uint32(offset))
                }
            case 0x0102:
                guard stack.count < maximumDepth else { throw BuildDefect("elements nest deeper than \(maximumDepth)") }
                let start = headerSize
                let attributeStart = try chunk.uint16(start + 8)
                let attributeSize = try chunk.uint16(start + 10)
                let attributeCount = try chunk.uint16(start + 12)
                guard attributeSize >= 20 else { throw BuildDefect("an attribute record is too short") }
                var attributes: [BinaryXMLAttribute] = []
                for index in 0..<attributeCount {
                    let offset = start + attributeStart + index * attributeSize
                    let nameIndex = try chunk.uint32(offset + 4)
                    let raw = try chunk.uint32(offset + 8)
                    let dataType = try chunk.uint8(offset + 15)
                    let data = UInt32(try chunk.uint32(offset + 16))
                    let value: BinaryXMLAttribute.Value =
                        switch dataType {
                        case 0x03: .string(try string(raw == 0xFFFF_FFFF ? Int(data) : raw))
                        case 0x12: .boolean(data != 0)
                        case 0x10, 0x11: .integer(Int(Int32(bitPattern: data)))
                        case 0x01: .reference(data)
                        default: raw != 0xFFFF_FFFF ? .string(try string(raw)) : .other(type: dataType, data: data)
                        }
                    attributes.append(
                        BinaryXMLAttribute(
                            namespace: try string(try chunk.uint32(offset)), name: try string(nameIndex),
                            resourceID: nameIndex < resourceIDs.count ? resourceIDs[nameIndex] : nil, value: value))
                }
                stack.append(
                    BinaryXMLElement(
                        name: try string(try chunk.uint32(start + 4)), attributes: attributes, children: [],
                        line: try chunk.uint32(8)))
            case 0x0103:
                guard let element = stack.popLast() else { throw BuildDefect("an element ends that never started") }
                if stack.isEmpty {
                    guard root == nil else { throw BuildDefect("the document has two root elements") }
                    root = element
                } else {
                    stack[stack.count - 1].children.append(element)
                }
            default:
                // Namespace nodes (attributes carry their namespace's URI), CDATA, and chunk types from
                // later releases: nothing a manifest's links use.
                break
            }
            cursor += size
        }
        guard stack.isEmpty, let root else { throw BuildDefect("the binary XML ends inside an element") }
        return root
    }

    /// `ResStringPool_header`: counts, flags (`UTF8_FLAG` 0x100), then the offsets and strings.
    private static func stringPool(_ chunk: ByteFields) throws(BuildDefect) -> [String] {
        let headerSize = try chunk.uint16(2)
        let count = try chunk.uint32(8)
        let isUTF8 = try chunk.uint32(16) & 0x100 != 0
        let stringsStart = try chunk.uint32(20)
        guard count <= (chunk.bytes.count - headerSize) / 4 else { throw BuildDefect("the string pool is too short") }
        var strings: [String] = []
        strings.reserveCapacity(count)
        for index in 0..<count {
            var offset = stringsStart + (try chunk.uint32(headerSize + index * 4))
            if isUTF8 {
                // Two lengths, each one byte or two (high bit set): UTF-16 units, then UTF-8 bytes.
                offset += try chunk.uint8(offset) & 0x80 != 0 ? 2 : 1
                var length = Int(try chunk.uint8(offset))
                if length & 0x80 != 0 {
                    length = (length & 0x7F) << 8 | Int(try chunk.uint8(offset + 1))
                    offset += 2
                } else {
                    offset += 1
                }
                strings.append(String(decoding: try chunk.slice(offset, count: length), as: UTF8.self))
            } else {
                var length = try chunk.uint16(offset)
                offset += 2
                if length & 0x8000 != 0 {
                    length = (length & 0x7FFF) << 16 | (try chunk.uint16(offset))
                    offset += 2
                }
                let units = try chunk.slice(offset, count: length * 2)
                strings.append(
                    String(
                        decoding: stride(from: 0, to: units.count, by: 2).map {
                            UInt16(units[$0]) | UInt16(units[$0 + 1]) << 8
                        },
                        as: UTF16.self))
            }
        }
        return strings
    }
}
