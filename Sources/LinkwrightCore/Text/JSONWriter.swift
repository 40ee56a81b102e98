/// Where a JSON value is described, piece by piece in document order: written as text
/// (`JSONWriter`) or built as a value (`JSON.Builder`). A report described once gives both, so
/// its streamed text (megabytes for a changelog) is written without a `JSON` value made and
/// freed for each element, and cannot drift from its value.
public protocol JSONSink {
    mutating func null()
    mutating func bool(_ value: Bool)
    mutating func int(_ value: Int)
    mutating func string(_ value: String)
    /// A value made already.
    mutating func value(_ value: JSON)
    /// An array of the elements `elements` describes.
    mutating func array(_ elements: (inout Self) -> Void)
    /// An object of the members `members` describes, each a `key` then its value.
    mutating func object(_ members: (inout Self) -> Void)
    /// The name of the member whose value is described next.
    mutating func key(_ name: String)
}

extension JSONSink {
    /// `value`, or `null`.
    public mutating func string(orNull value: String?) {
        if let value { string(value) } else { null() }
    }

    /// An array of strings.
    public mutating func strings(_ values: [String]) {
        array { for value in values { $0.string(value) } }
    }
}

/// A value that describes itself to any sink (`JSONSink`), streamed as an element of a report's
/// array (`JSON.StreamedMember`).
public protocol JSONDescribed: Sendable {
    func describe(to sink: inout some JSONSink)
    /// Written as `json.rendered()` writes it. (Both are requirements so that an element handed
    /// over as `any JSONDescribed` is described through its own type's code, not generically.)
    func write(to writer: inout JSONWriter)
    /// The value described.
    var json: JSON { get }
}

extension JSONDescribed {
    public func write(to writer: inout JSONWriter) { describe(to: &writer) }

    public var json: JSON {
        var builder = JSON.Builder()
        describe(to: &builder)
        return builder.built
    }
}

extension JSON: JSONDescribed {
    public func describe(to sink: inout some JSONSink) { sink.value(self) }
    public func write(to writer: inout JSONWriter) { writer.value(self) }
    public var json: JSON { self }

    /// What a sink building a value holds: the values described, and the keys of those that
    /// are an object's members.
    public struct Builder: JSONSink {
        private var values: [JSON] = []
        private var keys: [String] = []

        public init() {}

        /// The one value described.
        public var built: JSON { values.last ?? .null }

        public mutating func null() { values.append(.null) }
        public mutating func bool(_ value: Bool) { values.append(.bool(value)) }
        public mutating func int(_ value: Int) { values.append(.int(value)) }
        public mutating func string(_ value: String) { values.append(.string(value)) }
        public mutating func value(_ value: JSON) { values.append(value) }
        public mutating func key(_ name: String) { keys.append(name) }

        public mutating func array(_ elements: (inout Self) -> Void) {
            var inner = Self()
            elements(&inner)
            values.append(.array(inner.values))
        }

        public mutating func object(_ members: (inout Self) -> Void) {
            var inner = Self()
            members(&inner)
            values.append(.object(Array(zip(inner.keys, inner.values))))
        }
    }
}

/// JSON text as `JSON.rendered()` writes it (two-space indentation, `": "` after keys, empty
/// arrays and objects as `[]` and `{}`), written straight into bytes as it is described.
public struct JSONWriter: JSONSink {
    /// The text written.
    public var bytes: [UInt8] { Array(room[..<count]) }
    /// The text (its first `count` bytes) and room for more, grown by doubling and written in
    /// place a value at a time: appending each piece to an array (a quote, a key, `": "`, the
    /// indentation) cost about a hundred instructions a piece, most of a changelog's 8 MB.
    private var room: [UInt8] = []
    private var count = 0
    /// The indentation of the innermost open array or object (of its closing bracket); its
    /// elements are two spaces further in.
    private var indent: Int
    /// Open arrays and objects.
    private var depth = 0
    /// Whether the innermost open array or object has no element yet.
    private var isEmpty = true
    /// Whether a key was written and its value comes next.
    private var afterKey = false

    /// A writer of a value whose lines after the first are indented by `indent`.
    public init(indent: Int = 0) {
        self.indent = indent
    }

    public mutating func null() {
        writeValue(atMost: 4) { $0.writeLiteral("null") }
    }

    public mutating func bool(_ value: Bool) {
        writeValue(atMost: 5) { $0.writeLiteral(value ? "true" : "false") }
    }

    public mutating func int(_ value: Int) {
        // A sign and the 19 digits of `Int.max`.
        writeValue(atMost: 20) { $0.writeInteger(value) }
    }

    public mutating func string(_ value: String) {
        writeValue(atMost: JSONCursor.literalSize(value)) { JSON.writeString(value, to: &$0) }
    }

    public mutating func value(_ value: JSON) {
        switch value {
        case .null: null()
        case .bool(let value): bool(value)
        case .int(let value): int(value)
        case .string(let value): string(value)
        case .array(let items): array { for item in items { $0.value(item) } }
        case .object(let members):
            object {
                for (name, value) in members {
                    $0.key(name)
                    $0.value(value)
                }
            }
        }
    }

    public mutating func array(_ elements: (inout Self) -> Void) {
        container(UInt8(ascii: "["), UInt8(ascii: "]"), elements)
    }

    public mutating func object(_ members: (inout Self) -> Void) {
        container(UInt8(ascii: "{"), UInt8(ascii: "}"), members)
    }

    public mutating func key(_ name: String) {
        let (comma, spaces) = (!isEmpty, indent + 2)
        isEmpty = false
        write(atMost: 2 + spaces + JSONCursor.literalSize(name) + 2) { cursor in
            cursor.writeSeparator(comma: comma, spaces: spaces)
            JSON.writeString(name, to: &cursor)
            cursor.writeLiteral(": ")
        }
        afterKey = true
    }

    /// Spaces that are no value: the indentation before the first line of a value whose lines
    /// after the first are indented (`init(indent:)`).
    public mutating func writeSpaces(_ count: Int) {
        write(atMost: count) { $0.writeSpaces(count) }
    }

    /// Text that is no value, such as a line's end after one.
    public mutating func writeLiteral(_ literal: StaticString) {
        write(atMost: literal.utf8CodeUnitCount) { $0.writeLiteral(literal) }
    }

    private mutating func container(_ open: UInt8, _ close: UInt8, _ body: (inout Self) -> Void) {
        writeValue(atMost: 1) { $0.writeASCII(open) }
        let outer = (indent: indent, isEmpty: isEmpty)
        if depth > 0 { indent += 2 }
        depth += 1
        isEmpty = true
        body(&self)
        let (closesLine, spaces) = (!isEmpty, indent)
        write(atMost: 2 + spaces) { cursor in
            if closesLine {
                cursor.writeASCII(UInt8(ascii: "\n"))
                cursor.writeSpaces(spaces)
            }
            cursor.writeASCII(close)
        }
        depth -= 1
        (indent, isEmpty) = outer
    }

    /// A value of at most `maximum` bytes, after its key, at the top, or as an array's element
    /// after a comma (but the first), a line break and its indentation.
    private mutating func writeValue(atMost maximum: Int, _ body: (inout JSONCursor) -> Void) {
        let separated = !afterKey && depth > 0
        let (comma, spaces) = (separated && !isEmpty, indent + 2)
        afterKey = false
        if separated { isEmpty = false }
        write(atMost: (separated ? 2 + spaces : 0) + maximum) { cursor in
            if separated { cursor.writeSeparator(comma: comma, spaces: spaces) }
            body(&cursor)
        }
    }

    /// At most `maximum` bytes written by `body` in place, after the text, room made first.
    private mutating func write(atMost maximum: Int, _ body: (inout JSONCursor) -> Void) {
        if room.count - count < maximum { makeRoom(maximum) }
        let start = count
        count = room.withUnsafeMutableBufferPointer { room in
            var cursor = JSONCursor(position: room.baseAddress! + start)
            body(&cursor)
            return cursor.position - room.baseAddress!
        }
    }

    /// Room for `more` bytes after the text, at least doubled: zeroed at once and the text copied
    /// in one piece (appending zeros one at a time cost more than the text written).
    private mutating func makeRoom(_ more: Int) {
        var larger = [UInt8](repeating: 0, count: Swift.max(2 * room.count, count + more, 256))
        larger.withUnsafeMutableBufferPointer { larger in
            room.withUnsafeBufferPointer { room in
                guard let text = room.baseAddress else { return }
                larger.baseAddress!.update(from: text, count: count)
            }
        }
        room = larger
    }
}

/// Where `JSONWriter` writes a value: into room made for it, with no check of its own.
struct JSONCursor: JSONTextOutput {
    var position: UnsafeMutablePointer<UInt8>

    /// Room enough for `value` as a JSON string literal: each UTF-8 byte takes at most six (a
    /// control's `\u0001`), the quotes two.
    static func literalSize(_ value: String) -> Int { 6 * value.utf8.count + 2 }

    mutating func writeUTF8(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        position.update(from: start, count: bytes.count)
        position += bytes.count
    }

    mutating func writeASCII(_ byte: UInt8) {
        position.pointee = byte
        position += 1
    }

    mutating func writeSpaces(_ count: Int) {
        position.update(repeating: UInt8(ascii: " "), count: count)
        position += count
    }

    /// Before an element: a comma after the one before (`comma`), a line break and `spaces`.
    mutating func writeSeparator(comma: Bool, spaces: Int) {
        if comma { writeASCII(UInt8(ascii: ",")) }
        writeASCII(UInt8(ascii: "\n"))
        writeSpaces(spaces)
    }
}
