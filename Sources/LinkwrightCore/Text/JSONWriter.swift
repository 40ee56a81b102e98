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
    public internal(set) var bytes: [UInt8]
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
    public init(indent: Int = 0, bytes: [UInt8] = []) {
        self.indent = indent
        self.bytes = bytes
    }

    public mutating func null() {
        beginValue()
        bytes.writeLiteral("null")
    }

    public mutating func bool(_ value: Bool) {
        beginValue()
        bytes.writeLiteral(value ? "true" : "false")
    }

    public mutating func int(_ value: Int) {
        beginValue()
        bytes.writeInteger(value)
    }

    public mutating func string(_ value: String) {
        beginValue()
        JSON.writeString(value, to: &bytes)
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
        separate()
        JSON.writeString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        afterKey = true
    }

    private mutating func container(_ open: UInt8, _ close: UInt8, _ body: (inout Self) -> Void) {
        beginValue()
        bytes.append(open)
        let outer = (indent: indent, isEmpty: isEmpty)
        if depth > 0 { indent += 2 }
        depth += 1
        isEmpty = true
        body(&self)
        if !isEmpty {
            bytes.append(UInt8(ascii: "\n"))
            bytes.writeSpaces(indent)
        }
        bytes.append(close)
        depth -= 1
        (indent, isEmpty) = outer
    }

    /// Before a value: nothing after its key or at the top, else the separator of an array's
    /// element.
    private mutating func beginValue() {
        if afterKey {
            afterKey = false
        } else if depth > 0 {
            separate()
        }
    }

    /// A comma after the element before, then a line break and the element's indentation.
    private mutating func separate() {
        if !isEmpty { bytes.append(UInt8(ascii: ",")) }
        isEmpty = false
        bytes.append(UInt8(ascii: "\n"))
        bytes.writeSpaces(indent + 2)
    }
}
