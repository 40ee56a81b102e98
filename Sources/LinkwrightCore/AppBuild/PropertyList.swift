/// A property list as Apple's builds carry them (Info.plist, entitlements, provisioning
/// profiles), read from XML (Apple's `PropertyList-1.0.dtd`) or binary form (`bplist00`, as
/// CoreFoundation's `CFBinaryPList.c` lays it out: objects, an offset table and a 32-byte
/// trailer). Both readers bound nesting and the objects they visit, so shared references in a
/// binary plist cannot make the work exponential.
public indirect enum PropertyList: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    /// As written (XML) or as seconds since 2001-01-01 (binary), printed as text.
    case date(String)
    case data([UInt8])
    case array([PropertyList])
    case dictionary([(key: String, value: PropertyList)])

    public static func == (lhs: PropertyList, rhs: PropertyList) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.date(let a), .date(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        case (.boolean(let a), .boolean(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a.elementsEqual(b) { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    static let maximumDepth = 64
    static let maximumObjects = 100_000

    public subscript(key: String) -> PropertyList? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var array: [PropertyList]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The strings of an array (others skipped).
    public var strings: [String] { array?.compactMap(\.string) ?? [] }

    /// Reads either form.
    public static func parse(_ bytes: [UInt8]) throws(BuildDefect) -> PropertyList {
        if bytes.starts(with: Array("bplist00".utf8)) {
            var reader = try BinaryPropertyList(bytes)
            return try reader.read()
        }
        var reader = XMLPropertyList(bytes: bytes)
        return try reader.read()
    }
}

/// `bplist00`: big-endian, objects referenced by index through the offset table.
private struct BinaryPropertyList {
    let bytes: [UInt8]
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let top: Int
    let tableOffset: Int
    var visited = 0

    init(_ bytes: [UInt8]) throws(BuildDefect) {
        self.bytes = bytes
        guard bytes.count >= 40 else { throw BuildDefect("the binary property list is too short") }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        func big(_ at: Int) -> Int { bytes[at..<(at + 8)].reduce(0) { $0 << 8 | Int($1) } }
        let count = big(trailer + 8)
        let top = big(trailer + 16)
        let table = big(trailer + 24)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0,
            count <= PropertyList.maximumObjects, top >= 0, top < count, table >= 8,
            table <= trailer, count <= (trailer - table) / offsetSize
        else { throw BuildDefect("the binary property list's trailer is damaged") }
        objectCount = count
        self.top = top
        tableOffset = table
    }

    mutating func read() throws(BuildDefect) -> PropertyList { try object(top, depth: 0) }

    private func unsigned(_ at: Int, _ width: Int) throws(BuildDefect) -> Int {
        guard at >= 0, width <= 8, at <= bytes.count - 32 - width else {
            throw BuildDefect("the binary property list points outside itself")
        }
        let value = bytes[at..<(at + width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard value <= UInt64(Int.max) else { throw BuildDefect("a binary property list value is out of range") }
        return Int(value)
    }

    private mutating func object(_ index: Int, depth: Int) throws(BuildDefect) -> PropertyList {
        visited += 1
        guard depth < PropertyList.maximumDepth, visited <= PropertyList.maximumObjects else {
            throw BuildDefect("the property list nests too deeply or holds too many objects")
        }
        guard index >= 0, index < objectCount else { throw BuildDefect("a property list reference is out of range") }
        let offset = try unsigned(tableOffset + index * offsetSize, offsetSize)
        let marker = try unsigned(offset, 1)
        let kind = marker >> 4
        var count = marker & 0x0F
        var start = offset + 1
        if [0x4, 0x5, 0x6, 0xA, 0xD].contains(kind) && count == 0x0F {
            // The length follows as an integer object: 0x1N, then 2^N bytes.
            let lengthMarker = try unsigned(start, 1)
            guard lengthMarker >> 4 == 0x1, lengthMarker & 0x0F <= 3 else {
                throw BuildDefect("a property list length is damaged")
            }
            let width = 1 << (lengthMarker & 0x0F)
            count = try unsigned(start + 1, width)
            start += 1 + width
        }
        func slice(_ length: Int) throws(BuildDefect) -> ArraySlice<UInt8> {
            guard length >= 0, start <= bytes.count - 32, length <= bytes.count - 32 - start else {
                throw BuildDefect("a property list object runs past its end")
            }
            return bytes[start..<(start + length)]
        }
        switch kind {
        case 0x0:
            switch count {
            case 0x8: return .boolean(false)
            case 0x9: return .boolean(true)
            default: throw BuildDefect("a property list holds an unknown singleton 0x\(String(marker, radix: 16))")
            }
        case 0x1:
            guard count <= 3 else { throw BuildDefect("a property list integer is too wide") }
            let width = 1 << count
            let raw = try slice(width).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return .integer(width == 8 ? Int(Int64(bitPattern: raw)) : Int(raw))
        case 0x2, 0x3:
            guard count == 2 || count == 3 else { throw BuildDefect("a property list real is damaged") }
            let raw = try slice(1 << count).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let value = count == 3 ? Double(bitPattern: raw) : Double(Float(bitPattern: UInt32(raw)))
            return kind == 0x2 ? .real(value) : .date(String(value))
        case 0x4: return .data(Array(try slice(count)))
        case 0x5: return .string(String(decoding: try slice(count), as: UTF8.self))
        case 0x6:
            guard count <= Int.max / 2 else { throw BuildDefect("a property list string is too long") }
            let units = try slice(count * 2)
            return .string(
                String(
                    decoding: stride(from: units.startIndex, to: units.endIndex, by: 2).map {
                        UInt16(units[$0]) << 8 | UInt16(units[$0 + 1])
                    }, as: UTF16.self))
        case 0xA, 0xD:
            let pairs = kind == 0xD ? 2 : 1
            guard count <= PropertyList.maximumObjects else {
                throw BuildDefect("a property list collection is too large")
            }
            let references = try slice(count * pairs * referenceSize)
            var indices: [Int] = []
            for position in stride(from: references.startIndex, to: references.endIndex, by: referenceSize) {
                indices.append(references[position..<(position + referenceSize)].reduce(0) { $0 << 8 | Int($1) })
            }
            if kind == 0xA {
                var items: [PropertyList] = []
                for index in indices { items.append(try object(index, depth: depth + 1)) }
                return .array(items)
            }
            var entries: [(key: String, value: PropertyList)] = []
            for position in 0..<count {
                guard case .string(let key) = try object(indices[position], depth: depth + 1) else {
                    throw BuildDefect("a property list dictionary has a key that is not a string")
                }
                entries.append((key, try object(indices[count + position], depth: depth + 1)))
            }
            return .dictionary(entries)
        default:
            throw BuildDefect("a property list holds an object of unknown kind 0x\(String(kind, radix: 16))")
        }
    }
}

/// Where the entries of an XML property list's top-level dictionary are written, by byte
/// offset: what `sync` needs to replace one key's value and keep every other byte.
public struct PropertyListLayout: Sendable {
    public struct Entry: Sendable {
        public var key: String
        /// Where `<key>` starts.
        public var keyStart: Int
        /// Where the value's first tag starts and where its last tag ends.
        public var valueStart: Int
        public var valueEnd: Int
        public var value: PropertyList
    }

    public var entries: [Entry]
    /// Where `<dict>` starts and where `</dict>` starts; for `<dict/>`, where it starts and ends.
    public var dictionaryStart: Int
    public var dictionaryEnd: Int
    public var isEmptyDictionary: Bool

    /// The layout of an XML property list whose top value is a dictionary.
    public static func read(_ bytes: [UInt8]) throws(BuildDefect) -> PropertyListLayout {
        var reader = XMLPropertyList(bytes: bytes)
        return try reader.layout()
    }
}

/// The XML form: `<plist>` around one value; comments, the XML declaration and the DOCTYPE are
/// skipped; the five predefined entities and character references are decoded.
private struct XMLPropertyList {
    let bytes: [UInt8]
    var position = 0
    var visited = 0
    /// Where the tag `nextTag` returned last starts.
    var tagStart = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func read() throws(BuildDefect) -> PropertyList {
        guard case .open("plist", _) = try nextTag() else { throw BuildDefect("not a property list (no <plist>)") }
        let value = try value(depth: 0)
        guard case .close("plist") = try nextTag() else { throw BuildDefect("<plist> holds more than one value") }
        return value
    }

    mutating func layout() throws(BuildDefect) -> PropertyListLayout {
        guard case .open("plist", _) = try nextTag() else { throw BuildDefect("not a property list (no <plist>)") }
        let top = try nextTag()
        let dictionaryStart = tagStart
        var entries: [PropertyListLayout.Entry] = []
        var dictionaryEnd = position
        switch top {
        case .open("dict", empty: true):
            break
        case .open("dict", empty: false):
            while true {
                let next = try nextTag()
                if next == .close("dict") {
                    dictionaryEnd = tagStart
                    break
                }
                guard next == .open("key", empty: false) else { throw BuildDefect("a <dict> entry has no <key>") }
                let keyStart = tagStart
                let key = try text(closing: "key")
                let valueTag = try nextTag()
                let valueStart = tagStart
                let value = try value(of: valueTag, depth: 1)
                entries.append(
                    .init(key: key, keyStart: keyStart, valueStart: valueStart, valueEnd: position, value: value))
            }
        default:
            throw BuildDefect("the property list's top value is not a dictionary")
        }
        guard case .close("plist") = try nextTag() else { throw BuildDefect("<plist> holds more than one value") }
        return PropertyListLayout(
            entries: entries, dictionaryStart: dictionaryStart, dictionaryEnd: dictionaryEnd,
            isEmptyDictionary: top == .open("dict", empty: true))
    }

    enum Tag: Equatable {
        case open(String, empty: Bool)
        case close(String)
    }

    /// The next tag, skipping text between tags, declarations and comments.
    mutating func nextTag() throws(BuildDefect) -> Tag {
        while true {
            guard let start = bytes[position...].firstIndex(of: UInt8(ascii: "<")) else {
                throw BuildDefect("the property list ends early")
            }
            position = start
            tagStart = start
            if bytes[position...].starts(with: Array("<!--".utf8)) {
                try skip(past: "-->")
                continue
            }
            if bytes[position...].starts(with: Array("<?".utf8)) || bytes[position...].starts(with: Array("<!".utf8)) {
                try skip(past: ">")
                continue
            }
            guard let end = bytes[position...].firstIndex(of: UInt8(ascii: ">")) else {
                throw BuildDefect("the property list ends inside a tag")
            }
            var inside = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
            position = end + 1
            if inside.hasPrefix("/") { return .close(String(inside.dropFirst())) }
            let empty = inside.hasSuffix("/")
            if empty { inside.removeLast() }
            let name = inside.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            return .open(name, empty: empty)
        }
    }

    mutating func skip(past terminator: String) throws(BuildDefect) {
        let needle = Array(terminator.utf8)
        var cursor = position
        while cursor + needle.count <= bytes.count {
            if bytes[cursor..<(cursor + needle.count)].elementsEqual(needle) {
                position = cursor + needle.count
                return
            }
            cursor += 1
        }
        throw BuildDefect("the property list ends inside a comment or declaration")
    }

    /// The text up to the closing tag `name`, entities decoded.
    mutating func text(closing name: String) throws(BuildDefect) -> String {
        guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "<")) else {
            throw BuildDefect("the property list ends inside <\(name)>")
        }
        let raw = String(decoding: bytes[position..<end], as: UTF8.self)
        position = end
        guard try nextTag() == .close(name) else { throw BuildDefect("<\(name)> holds an element") }
        return try Self.decodeEntities(raw)
    }

    static func decodeEntities(_ raw: String) throws(BuildDefect) -> String {
        guard raw.contains("&") else { return raw }
        var result = ""
        var rest = Substring(raw)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else {
                throw BuildDefect("an unterminated entity in the property list")
            }
            let name = rest[rest.index(after: ampersand)..<semicolon]
            switch name {
            case "lt": result += "<"
            case "gt": result += ">"
            case "amp": result += "&"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number =
                    name.hasPrefix("#x")
                    ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
                guard let number, let scalar = Unicode.Scalar(number) else {
                    throw BuildDefect("an unknown entity &\(name); in the property list")
                }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    mutating func value(depth: Int) throws(BuildDefect) -> PropertyList {
        try value(of: try nextTag(), depth: depth)
    }

    /// The value `tag` opens; every value counts against the depth and object bounds.
    mutating func value(of tag: Tag, depth: Int) throws(BuildDefect) -> PropertyList {
        visited += 1
        guard depth < PropertyList.maximumDepth, visited <= PropertyList.maximumObjects else {
            throw BuildDefect("the property list nests too deeply or holds too many objects")
        }
        switch tag {
        case .open("true", true): return .boolean(true)
        case .open("false", true): return .boolean(false)
        case .open("string", true): return .string("")
        case .open("array", true): return .array([])
        case .open("dict", true): return .dictionary([])
        case .open("string", false): return .string(try text(closing: "string"))
        case .open("date", false): return .date(try text(closing: "date"))
        case .open("integer", false):
            let text = try text(closing: "integer").trimmingWhitespace
            guard let number = Int(text) else { throw BuildDefect("<integer> holds \(PrintableText.quoted(text))") }
            return .integer(number)
        case .open("real", false):
            let text = try text(closing: "real").trimmingWhitespace
            guard let number = Double(text) else { throw BuildDefect("<real> holds \(PrintableText.quoted(text))") }
            return .real(number)
        case .open("data", false):
            return .data(try Base64.decode(try text(closing: "data")))
        case .open("array", false):
            var items: [PropertyList] = []
            while true {
                let next = try nextTag()
                if next == .close("array") { return .array(items) }
                items.append(try value(of: next, depth: depth + 1))
            }
        case .open("dict", false):
            var entries: [(key: String, value: PropertyList)] = []
            while true {
                let next = try nextTag()
                if next == .close("dict") { return .dictionary(entries) }
                guard next == .open("key", empty: false) else { throw BuildDefect("a <dict> entry has no <key>") }
                let key = try text(closing: "key")
                entries.append((key, try value(depth: depth + 1)))
            }
        case .open(let name, _): throw BuildDefect("<\(name)> is not a property list value")
        case .close(let name): throw BuildDefect("</\(name)> closes nothing")
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

/// Base64 (RFC 4648 §4), whitespace ignored, as plist `<data>` wraps it.
enum Base64 {
    static func decode(_ text: String) throws(BuildDefect) -> [UInt8] {
        var bits: UInt32 = 0
        var count = 0
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars where !scalar.properties.isWhitespace && scalar != "=" {
            let value: UInt32
            switch scalar {
            case "A"..."Z": value = scalar.value - 65
            case "a"..."z": value = scalar.value - 71
            case "0"..."9": value = scalar.value + 4
            case "+": value = 62
            case "/": value = 63
            default: throw BuildDefect("<data> holds a character that is not Base64")
            }
            bits = bits << 6 | value
            count += 6
            if count >= 8 {
                count -= 8
                bytes.append(UInt8((bits >> UInt32(count)) & 0xFF))
            }
        }
        return bytes
    }
}
