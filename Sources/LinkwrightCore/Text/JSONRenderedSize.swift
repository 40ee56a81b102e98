/// What a JSON document is built of. A document described once in these terms gives its value
/// (`JSON`) or only the size `JSON.rendered()` would have (`JSONRenderedSize`), so the two cannot
/// drift apart.
public protocol JSONShape {
    static func string(_ value: String) -> Self
    static func bool(_ value: Bool) -> Self
    static func array(_ items: [Self]) -> Self
    static func object(_ members: [(String, Self)]) -> Self
    /// An object written with declared keys, in the order given.
    init<Key: RawRepresentable<String>>(_ members: [(Key, Self)])
}

extension JSONShape {
    public init<Key: RawRepresentable<String>>(_ members: [(Key, Self)]) {
        self = .object(members.map { ($0.0.rawValue, $0.1) })
    }
}

extension JSON: JSONShape {}

/// The size of a value as `JSON.rendered()` writes it, counted without the text or the value:
/// Apple's size limit is checked on every association file compiled, and building each file's
/// `JSON` to write it to a counter cost more than compiling its rules.
struct JSONRenderedSize: JSONShape, Equatable, Sendable {
    /// Bytes written at indentation 0.
    private(set) var bytes: Int
    /// The lines written; each after the first is indented by as many more spaces as the value is.
    private(set) var lines: Int

    /// The size of `rendered()`, final newline included.
    var renderedSize: Int { bytes + 1 }

    /// Bytes written at `indent`.
    private func bytes(atIndent indent: Int) -> Int { bytes + indent * (lines - 1) }

    static func string(_ value: String) -> Self {
        var counter = ByteCounter()
        JSON.writeString(value, to: &counter)
        return Self(bytes: counter.count, lines: 1)
    }

    static func bool(_ value: Bool) -> Self { Self(bytes: value ? 4 : 5, lines: 1) }

    static func array(_ items: [Self]) -> Self {
        guard !items.isEmpty else { return Self(bytes: 2, lines: 1) }
        // `[` and a newline; each item indented by two, then `,` (all but the last) and a newline; `]`.
        var size = Self(bytes: 2 + 2 * items.count - 1 + 1, lines: 2)
        for item in items { size.add(item) }
        return size
    }

    static func object(_ members: [(String, Self)]) -> Self { sized(members) }

    fileprivate static func sized(_ members: some Collection<(String, Self)>) -> Self {
        guard !members.isEmpty else { return Self(bytes: 2, lines: 1) }
        // As an array's items, each value after its key, `: ` and indented by two.
        var size = Self(bytes: 2 + 2 * members.count - 1 + 1, lines: 2)
        for (key, value) in members {
            size.bytes += string(key).bytes + 2
            size.add(value)
        }
        return size
    }

    /// Adds an element written two spaces further in.
    private mutating func add(_ element: Self) {
        bytes += 2 + element.bytes(atIndent: 2)
        lines += element.lines
    }
}

extension JSONRenderedSize {
    /// Counted without a copy of the members keyed by their names.
    init<Key: RawRepresentable<String>>(_ members: [(Key, Self)]) {
        self = Self.sized(members.lazy.map { ($0.0.rawValue, $0.1) })
    }
}

/// Counts the bytes JSON text would have.
struct ByteCounter: JSONTextOutput {
    var count = 0
    mutating func writeUTF8(_ bytes: UnsafeBufferPointer<UInt8>) { count += bytes.count }
    mutating func writeASCII(_ byte: UInt8) { count += 1 }
}
