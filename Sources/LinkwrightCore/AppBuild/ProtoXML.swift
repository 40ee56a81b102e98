/// The XML of an Android App Bundle: `base/manifest/AndroidManifest.xml` is a protobuf
/// `aapt.pb.XmlNode` (AOSP `frameworks/base/tools/aapt2/Resources.proto`), read here into the
/// same tree as binary XML. Fields read: XmlNode `element` = 1, `source` = 3 (SourcePosition
/// `line_number` = 1); XmlElement `namespace_uri` = 2, `name` = 3, `attribute` = 4, `child` = 5;
/// XmlAttribute `namespace_uri` = 1, `name` = 2, `value` = 3, `resource_id` = 5. aapt2 keeps
/// each attribute's value as written in `value`, beside its compiled form. Every other field is
/// skipped by its wire type (https://protobuf.dev/programming-guides/encoding/).
public enum ProtoXML {
    public static func parse(_ bytes: [UInt8]) throws(BuildDefect) -> BinaryXMLElement {
        var budget = BinaryXML.maximumNodes
        guard let root = try node(bytes[...], depth: 0, budget: &budget) else {
            throw BuildDefect("the protobuf manifest holds no element")
        }
        return root
    }

    /// One field: its number and, for length-delimited ones, the bytes; for varints, the value.
    private struct Field {
        var number: Int
        var bytes: ArraySlice<UInt8>
        var value: UInt64
    }

    private static func fields(_ bytes: ArraySlice<UInt8>) throws(BuildDefect) -> [Field] {
        var fields: [Field] = []
        var cursor = bytes.startIndex
        func varint() throws(BuildDefect) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard cursor < bytes.endIndex, shift < 64 else { throw BuildDefect("a protobuf varint is damaged") }
                let byte = bytes[cursor]
                cursor += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
        while cursor < bytes.endIndex {
            let key = try varint()
            let number = Int(key >> 3)
            switch key & 7 {
            case 0: fields.append(Field(number: number, bytes: [], value: try varint()))
            case 1, 5:
                let width = key & 7 == 1 ? 8 : 4
                guard bytes.endIndex - cursor >= width else { throw BuildDefect("a protobuf field runs past its end") }
                cursor += width
            case 2:
                let length = try varint()
                guard length <= UInt64(bytes.endIndex - cursor) else {
                    throw BuildDefect("a protobuf field runs past its end")
                }
                let end = cursor + Int(length)
                fields.append(Field(number: number, bytes: bytes[cursor..<end], value: 0))
                cursor = end
            default: throw BuildDefect("a protobuf field has an unknown wire type \(key & 7)")
            }
        }
        return fields
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// An XmlNode's element; `nil` for a text node.
    private static func node(_ bytes: ArraySlice<UInt8>, depth: Int, budget: inout Int) throws(BuildDefect)
        -> BinaryXMLElement?
    {
        budget -= 1
        guard depth < BinaryXML.maximumDepth, budget >= 0 else {
            throw BuildDefect("the protobuf manifest nests too deeply or holds too many nodes")
        }
        let nodeFields = try fields(bytes)
        guard let element = nodeFields.first(where: { $0.number == 1 }) else { return nil }
        var line = 0
        if let source = nodeFields.first(where: { $0.number == 3 }) {
            line = Int(clamping: try fields(source.bytes).first { $0.number == 1 }?.value ?? 0)
        }
        var result = BinaryXMLElement(name: "", attributes: [], children: [], line: line)
        for field in try fields(element.bytes) {
            switch field.number {
            case 3: result.name = string(field.bytes)
            case 4:
                var attribute = BinaryXMLAttribute(namespace: "", name: "", resourceID: nil, value: .string(""))
                for part in try fields(field.bytes) {
                    switch part.number {
                    case 1: attribute.namespace = string(part.bytes)
                    case 2: attribute.name = string(part.bytes)
                    case 3: attribute.value = .string(string(part.bytes))
                    case 5: attribute.resourceID = UInt32(truncatingIfNeeded: part.value)
                    default: break
                    }
                }
                result.attributes.append(attribute)
            case 5:
                if let child = try node(field.bytes, depth: depth + 1, budget: &budget) {
                    result.children.append(child)
                }
            default: break
            }
        }
        return result
    }
}
