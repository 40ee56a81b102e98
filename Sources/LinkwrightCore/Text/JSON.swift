/// A JSON value whose objects keep the order in which keys were added, so emitted files read in
/// the order Apple's and Google's documentation present them, byte for byte the same every run.
public indirect enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Pretty-printed with two-space indentation and a final newline.
    public func rendered() -> String {
        // Written as bytes and decoded once: appending each small piece to a string cost a
        // changelog's JSON (8 MB for 100 tags) more than the values it holds.
        String(decoding: renderedBytes(), as: UTF8.self)
    }

    /// A member of an object written a piece at a time (`render(object:to:)`).
    public enum StreamedMember: Sendable {
        case value(JSON)
        /// An array of `count` elements, each made by `element` only when it is written.
        case elements(count: Int, element: @Sendable (Int) -> any JSONDescribed)

        /// The member as one value.
        public var value: JSON {
            switch self {
            case .value(let value): value
            case .elements(let count, let element): .array((0..<count).map { element($0).json })
            }
        }
    }

    /// Elements of a streamed array made and rendered together, on every core.
    static let streamedBatch = 4096

    /// What `rendered()` returns for the object of `members`, handed to `write` a piece at a
    /// time: the elements of a `.elements` member are made and rendered a batch at a time on
    /// every core and written in order, so a report of millions of values is never whole in
    /// memory and does not render on one core.
    public static func render(object members: [(String, StreamedMember)], to write: ([UInt8]) -> Void) {
        guard !members.isEmpty else { return write(Array("{}\n".utf8)) }
        var piece: [UInt8] = []
        piece.write("{\n")
        for (position, (name, member)) in members.enumerated() {
            piece.writeSpaces(2)
            writeString(name, to: &piece)
            piece.write(": ")
            switch member {
            case .value(let value):
                var writer = JSONWriter(indent: 2)
                writer.value(value)
                piece += writer.bytes
            case .elements(let count, _) where count == 0: piece.write("[]")
            case .elements(let count, let element):
                piece.write("[\n")
                for start in stride(from: 0, to: count, by: streamedBatch) {
                    let rendered = (start..<min(start + streamedBatch, count)).parallelMap { index in
                        var writer = JSONWriter(indent: 4)
                        writer.writeSpaces(4)
                        element(index).write(to: &writer)
                        writer.writeLiteral(index == count - 1 ? "\n" : ",\n")
                        return writer.bytes
                    }
                    write(piece)
                    piece.removeAll(keepingCapacity: true)
                    for bytes in rendered { write(bytes) }
                }
                piece.writeSpaces(2)
                piece.write("]")
            }
            piece.write(position == members.count - 1 ? "\n" : ",\n")
        }
        piece.write("}\n")
        write(piece)
    }

    /// `rendered()` as UTF-8 bytes, written straight into them: what files are made of.
    public func renderedBytes() -> [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        writer.writeLiteral("\n")
        return writer.bytes
    }

    /// On one line, for JSON Lines output.
    public func renderedCompact() -> String {
        var out: [UInt8] = []
        writeCompact(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func writeCompact(to out: inout [UInt8]) {
        switch self {
        case .null: out.write("null")
        case .bool(let value): out.write(value ? "true" : "false")
        case .int(let value): out.writeInteger(value)
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let items):
            out.write("[")
            for (index, item) in items.enumerated() {
                if index > 0 { out.write(",") }
                item.writeCompact(to: &out)
            }
            out.write("]")
        case .object(let members):
            out.write("{")
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.write(",") }
                Self.writeString(key, to: &out)
                out.write(":")
                value.writeCompact(to: &out)
            }
            out.write("}")
        }
    }

    /// Appends `value` to `out` as a JSON string literal, quotes included (RFC 8259 escaping;
    /// `/` and non-ASCII characters are written as they are). DEL, C1 controls, bidi controls and
    /// U+2028/U+2029 are written as `\u` escapes too, though JSON allows them raw: the value is
    /// the same, and the file stays harmless when `cat` shows it on a terminal.
    public static func writeString(_ value: String, to out: inout some JSONTextOutput) {
        out.writeASCII(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { writeEscaped($0, to: &out) }
        out.writeASCII(UInt8(ascii: "\""))
    }

    /// The valid UTF-8 of a string escaped as `writeString` escapes it: the runs between escapes
    /// are appended whole, as found in the bytes (nearly every string is one run), rather than
    /// scalar by scalar through a `String` each.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout some JSONTextOutput) {
        var runStart = 0
        var position = 0
        while position < bytes.count {
            // Eight bytes at a time past those needing no look, nearly all of them; the last
            // eight where fewer are left, read again in part.
            if bytes.count >= 8 {
                let next = Swift.min(position, bytes.count - 8)
                if !mayNeedEscaping(UnsafeRawPointer(bytes.baseAddress! + next).loadUnaligned(as: UInt64.self)) {
                    position = next + 8
                    continue
                }
            }
            let byte = bytes[position]
            guard PrintableText.mayBeginEscaped(byte) || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            else {
                position += 1
                continue
            }
            // The scalar starting here, and its length in bytes: only two- and three-byte
            // sequences (leading 0xC2 or 0xE2) can be escaped, and valid UTF-8 holds all of them.
            let scalar: UInt32
            let length: Int
            switch byte {
            case 0xC2:
                (scalar, length) = (UInt32(byte & 0x1F) << 6 | UInt32(bytes[position + 1] & 0x3F), 2)
            case 0xE2:
                let tail = UInt32(bytes[position + 1] & 0x3F) << 6 | UInt32(bytes[position + 2] & 0x3F)
                (scalar, length) = (UInt32(byte & 0x0F) << 12 | tail, 3)
            default: (scalar, length) = (UInt32(byte), 1)
            }
            guard scalar < 0x80 || PrintableText.isEscaped(Unicode.Scalar(scalar)!) else {
                position += length
                continue
            }
            out.writeUTF8(UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
            writeEscape(scalar, to: &out)
            position += length
            runStart = position
        }
        out.writeUTF8(UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
    }

    /// Whether any of the eight bytes of `word` may begin an escape: one below 0x20, `"`, `\\`, or
    /// one from 0x7F up (DEL, and the leading bytes of all non-ASCII scalars, most of them never
    /// escaped). Tested on all eight at once, each test setting a byte's high bit (no false
    /// negative: a borrow only runs past a byte already found).
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let (ones, highs): (UInt64, UInt64) = (0x0101_0101_0101_0101, 0x8080_8080_8080_8080)
        func hasZero(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        let below0x20 = (word &- ones &* 0x20) & ~word & highs
        let from0x7F = ((word &+ ones) | word) & highs
        let quote = hasZero(word ^ (ones &* UInt64(UInt8(ascii: "\""))))
        let backslash = hasZero(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
        return below0x20 | from0x7F | quote | backslash != 0
    }

    /// The escape of `scalar`: a short one where JSON has it, else `\u` and four lowercase hex digits.
    private static func writeEscape(_ scalar: UInt32, to out: inout some JSONTextOutput) {
        out.writeASCII(UInt8(ascii: "\\"))
        switch scalar {
        case 0x22: return out.writeASCII(UInt8(ascii: "\""))
        case 0x5C: return out.writeASCII(UInt8(ascii: "\\"))
        case 0x0A: return out.writeASCII(UInt8(ascii: "n"))
        case 0x0D: return out.writeASCII(UInt8(ascii: "r"))
        case 0x09: return out.writeASCII(UInt8(ascii: "t"))
        default: break
        }
        out.writeASCII(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8(scalar >> UInt32(shift) & 0xF)
            out.writeASCII(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }

    /// `writeString` for UTF-8 bytes written to bytes: printable ASCII without `"` or `\` (nearly
    /// every URL) is copied as it is; anything else goes through a `String`, which also repairs
    /// ill-formed UTF-8 so the output stays valid JSON.
    public static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let plain = !bytes.contains {
            $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
        }
        guard plain else { return writeString(String(decoding: bytes, as: UTF8.self), to: &out) }
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: bytes)
        out.append(UInt8(ascii: "\""))
    }

    /// The members of an object, or `nil`.
    public var objectMembers: [(String, JSON)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The value of `key` in an object.
    public subscript(key: String) -> JSON? {
        objectMembers?.last { $0.0 == key }?.1
    }
}

/// Where JSON text is written: UTF-8 bytes (documents, and the streaming commands' lines, which
/// are appended straight to their output buffer), or only counted (`JSONRenderedSize`).
public protocol JSONTextOutput {
    mutating func writeUTF8(_ bytes: UnsafeBufferPointer<UInt8>)
    mutating func writeASCII(_ byte: UInt8)
}

extension JSONTextOutput {
    /// A literal's bytes, which need neither escaping nor a String.
    public mutating func writeLiteral(_ literal: StaticString) {
        writeUTF8(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Digits written straight, without a `String` made for them.
    public mutating func writeInteger(_ value: Int) {
        if value < 0 { writeASCII(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so `Int.min` has one too.
        var magnitude = value.magnitude
        // Room for the 20 digits of `UInt64.max`.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var position = digits.count
            repeat {
                position -= 1
                digits[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            writeUTF8(UnsafeBufferPointer(rebasing: digits[position...]))
        }
    }
}

extension Array: JSONTextOutput where Element == UInt8 {
    public mutating func writeUTF8(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }

    public mutating func writeASCII(_ byte: UInt8) { append(byte) }
}

extension Array where Element == UInt8 {
    public mutating func write(_ text: String) {
        // In one copy where the string's bytes are contiguous (native and small strings are).
        if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            append(contentsOf: text.utf8)
        }
    }

    /// `count` spaces: indentation.
    public mutating func writeSpaces(_ count: Int) {
        var left = count
        while left > 0 {
            let piece = Swift.min(left, JSONIndentation.spaces.count)
            JSONIndentation.spaces.withUnsafeBufferPointer { append(contentsOf: $0.prefix(piece)) }
            left -= piece
        }
    }

}

/// Spaces to indent with, copied a slice at a time.
private enum JSONIndentation {
    static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)
}
