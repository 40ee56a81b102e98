/// A JSON value read from a file, with where it starts.
public struct JSONNode: Sendable, Equatable {
    /// The value itself; containers hold located nodes.
    public enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        /// A number as written: association files only use numbers by mistake, so they are
        /// reported, never computed with.
        case number(String)
        case string(String)
        case array([JSONNode])
        /// Members in file order, each key once (the last of repeated keys wins).
        case object([JSONMember])
    }

    /// The value.
    public var value: Value
    /// Where the value starts: its first character, or `{`/`[` for a container.
    public var location: SourceLocation

    /// A node holding `value`, written at `location`.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// What kind of value this is, in words, for "expected X, found Y" messages.
    public var kindDescription: String {
        switch value {
        case .null: "null"
        case .bool(let flag): "the boolean \(flag)"
        case .number(let text): "the number \(PrintableText.excerpt(text))"
        case .string(let text): "the string \(PrintableText.quoted(text))"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The key, unescaped.
    public var key: String
    /// Where the key's opening quote is.
    public var keyLocation: SourceLocation
    /// The member's value.
    public var value: JSONNode

    /// A member `key: value`, the key written at `keyLocation`.
    public init(key: String, keyLocation: SourceLocation, value: JSONNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}

/// A strict RFC 8259 parser (https://www.rfc-editor.org/rfc/rfc8259) that keeps the line and
/// column of every value, with the limits a file fetched from the web needs:
/// - a size cap, checked before parsing;
/// - a nesting cap, checked before each recursive step, so the recursion depth is bounded;
/// - valid UTF-8 only (RFC 8259 §8.1), and no unpaired surrogate escapes.
///
/// A leading UTF-8 byte order mark is skipped with a `BOM` warning. RFC 8259 §8.1 lets parsers
/// ignore it, and Apple's JSONSerialization documents "The data may or may not have a BOM"
/// (https://developer.apple.com/documentation/foundation/jsonserialization/jsonobject(with:options:)-8demi),
/// so Apple very likely reads such a file; other readers may not, hence the warning.
///
/// Repeated keys keep the last value, as NSJSONSerialization does, with a `DUPLICATE_JSON_KEY`
/// warning. Columns count Unicode scalars, like `SourceLocation` everywhere else.
public struct JSONParser: Sendable {
    /// Larger inputs are refused before parsing (`FILE_TOO_LARGE`).
    public var maximumBytes: Int
    /// Deeper nesting of arrays and objects is refused (`NESTING_TOO_DEEP`).
    public var maximumDepth: Int

    /// A parser with the given limits: 4 MiB (Apple's limit is 128 KB) and 128 levels by default.
    public init(maximumBytes: Int = 4 << 20, maximumDepth: Int = 128) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }

    /// Parses `bytes` read from `file`. Returns the root value, or `nil` with one `INVALID_JSON`
    /// (or limit) error; warnings come with either.
    public func parse(_ bytes: [UInt8], file: String) -> (root: JSONNode?, diagnostics: [Diagnostic]) {
        if bytes.count > maximumBytes {
            let message = "file is \(bytes.count) bytes, over the limit of \(maximumBytes) bytes"
            return (
                nil,
                [
                    Diagnostic(
                        .fileTooLarge, message, at: .file(file),
                        hint: "association files are small; check that this is the right file")
                ]
            )
        }
        var scanner = Scanner(bytes: bytes, file: file, maximumDepth: maximumDepth)
        do {
            let root = try scanner.document()
            return (root, scanner.warnings)
        } catch {
            return (nil, scanner.warnings + [error.diagnostic])
        }
    }
}

/// The parse error: where it happened, with a message and a hint.
private struct JSONSyntaxError: Error {
    var diagnostic: Diagnostic
}

private struct Scanner {
    let bytes: [UInt8]
    let file: String
    let maximumDepth: Int
    var offset = 0
    var line = 1
    var column = 1
    var warnings: [Diagnostic] = []

    init(bytes: [UInt8], file: String, maximumDepth: Int) {
        self.bytes = bytes
        self.file = file
        self.maximumDepth = maximumDepth
    }

    var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }
    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func document() throws(JSONSyntaxError) -> JSONNode {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw failure(
                "file is UTF-16; JSON exchanged between systems must be UTF-8 (RFC 8259 §8.1)",
                hint: "save the file as UTF-8")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            warnings.append(
                Diagnostic(
                    .byteOrderMark,
                    "file starts with a UTF-8 byte order mark; Apple accepts it, other readers may not",
                    at: location, hint: "save the file as UTF-8 without BOM"))
            offset = 3
        }
        if let (line, column) = YAMLParser.firstInvalidUTF8(Array(bytes[offset...])) {
            self.line = line
            self.column = column
            throw failure("file is not valid UTF-8", hint: "save the file as UTF-8")
        }
        skipWhitespace()
        guard current != nil else {
            throw failure("file is empty", hint: "an association file holds one JSON object or array")
        }
        let root = try value(depth: 0)
        skipWhitespace()
        if current != nil {
            throw failure(
                "unexpected \(describeCurrent()) after the end of the JSON value",
                hint: "a file holds exactly one JSON value; remove what follows it")
        }
        return root
    }

    // MARK: Values

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = location
        guard let byte = current else {
            throw failure("the file ends where a value was expected", hint: "complete the JSON value")
        }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(.object(try object(depth: depth + 1)), at: start)
        case UInt8(ascii: "["): return JSONNode(.array(try array(depth: depth + 1)), at: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try string()), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(.number(try number()), at: start)
        case UInt8(ascii: "t"):
            try keyword("true")
            return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"):
            try keyword("false")
            return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"):
            try keyword("null")
            return JSONNode(.null, at: start)
        case UInt8(ascii: "'"):
            throw failure("strings must be in double quotes", hint: "replace the single quotes with \"")
        case UInt8(ascii: "/"):
            throw failure("JSON has no comments", hint: "remove the comment")
        default:
            throw failure("unexpected \(describeCurrent()) where a value was expected", hint: nil)
        }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> [JSONMember] {
        try checkDepth(depth)
        advance()  // {
        // A repeated key leaves a hole where it was; the index finds it without a scan, which
        // is quadratic in an object's keys.
        var members: [JSONMember?] = []
        // Keys compare exactly, as NSDictionary compares NSString keys: `café` precomposed and
        // decomposed are two keys, as linkwright writes them for two query items.
        var positions: [ExactText: Int] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            advance()
            return []
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                if current == UInt8(ascii: "}") {
                    throw failure("trailing comma before `}`", hint: "remove the comma after the last member")
                }
                throw failure(
                    "unexpected \(describeCurrent()) where an object key was expected",
                    hint: "object keys are strings in double quotes")
            }
            let keyLocation = location
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw failure("expected `:` after the key \(PrintableText.quoted(key))", hint: "write \"key\": value")
            }
            advance()
            skipWhitespace()
            let member = JSONMember(key: key, keyLocation: keyLocation, value: try value(depth: depth))
            if let earlier = positions[ExactText(key)] {
                // NSJSONSerialization keeps the last value of a repeated key.
                warnings.append(
                    Diagnostic(
                        .duplicateJSONKey,
                        "key \(PrintableText.quoted(key)) repeats the one at line \(members[earlier]!.keyLocation.line); "
                            + "the last one is used",
                        at: keyLocation, hint: "remove one of the two"))
                members[earlier] = nil
            }
            positions[ExactText(key)] = members.count
            members.append(member)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"):
                advance()
                return members.compactMap { $0 }
            case nil: throw failure("the file ends inside an object", hint: "close the object with `}`")
            default:
                throw failure("expected `,` or `}` after a member, found \(describeCurrent())", hint: "add a comma")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> [JSONNode] {
        try checkDepth(depth)
        advance()  // [
        var items: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            advance()
            return items
        }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                throw failure("trailing comma before `]`", hint: "remove the comma after the last element")
            }
            items.append(try value(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"):
                advance()
                return items
            case nil: throw failure("the file ends inside an array", hint: "close the array with `]`")
            default:
                throw failure("expected `,` or `]` after an element, found \(describeCurrent())", hint: "add a comma")
            }
        }
    }

    mutating func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        guard depth <= maximumDepth else {
            throw JSONSyntaxError(
                diagnostic: Diagnostic(
                    .nestingTooDeep,
                    "arrays and objects nest deeper than \(maximumDepth) levels", at: location,
                    hint: "association files nest a few levels; check that this is the right file"))
        }
    }

    mutating func keyword(_ word: String) throws(JSONSyntaxError) {
        for expected in word.utf8 {
            guard current == expected else {
                throw failure(
                    "unexpected \(describeCurrent()) in `\(word)`", hint: "JSON literals are true, false and null")
            }
            advance()
        }
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as written.
    mutating func number() throws(JSONSyntaxError) -> String {
        let start = offset
        if current == UInt8(ascii: "-") { advance() }
        if current == UInt8(ascii: "0") {
            advance()
            if let next = current, isDigit(next) {
                throw failure("numbers cannot have leading zeros", hint: "remove the leading zero")
            }
        } else {
            try digits()
        }
        if current == UInt8(ascii: ".") {
            advance()
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            try digits()
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    mutating func digits() throws(JSONSyntaxError) {
        guard let first = current, isDigit(first) else {
            throw failure("expected a digit, found \(describeCurrent())", hint: nil)
        }
        while let byte = current, isDigit(byte) { advance() }
    }

    func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    mutating func string() throws(JSONSyntaxError) -> String {
        advance()  // "
        var scalars = String.UnicodeScalarView()
        // Unescaped runs are copied whole; the input was checked to be UTF-8 up front.
        var runStart = offset
        while true {
            guard let byte = current else {
                throw failure("the file ends inside a string", hint: "close the string with \"")
            }
            switch byte {
            case UInt8(ascii: "\""):
                scalars.append(contentsOf: run(from: runStart))
                advance()
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(contentsOf: run(from: runStart))
                scalars.append(try escape())
                runStart = offset
            case 0..<0x20:
                throw failure(
                    "control character U+\(hex(UInt32(byte), width: 4)) inside a string",
                    hint: byte == 0x0A
                        ? "strings cannot span lines; write \\n" : "escape it as \\u\(hex(UInt32(byte), width: 4))")
            default:
                advance()
            }
        }
    }

    /// The scalars of the bytes from `start` to the current offset.
    func run(from start: Int) -> String.UnicodeScalarView {
        String(decoding: bytes[start..<offset], as: UTF8.self).unicodeScalars
    }

    mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let start = location
        advance()  // backslash
        guard let byte = current else {
            throw failure("the file ends inside a string", hint: "close the string with \"")
        }
        advance()
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexQuad()
            if (0xDC00...0xDFFF).contains(unit) {
                throw failure("unpaired low surrogate \\u\(hex(unit, width: 4))", at: start, hint: nil)
            }
            guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(unit)! }
            guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                throw failure("unpaired high surrogate \\u\(hex(unit, width: 4))", at: start, hint: nil)
            }
            advance()
            advance()
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw failure("unpaired high surrogate \\u\(hex(unit, width: 4))", at: start, hint: nil)
            }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
        default:
            throw failure(
                "unknown escape \\\(Unicode.Scalar(byte))", at: start,
                hint: "JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else {
                throw failure("\\u must be followed by four hex digits", hint: nil)
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: Position

    mutating func advance() {
        let byte = bytes[offset]
        offset += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            // Count scalars, not bytes: continuation bytes do not start a column.
            column += 1
        }
    }

    /// RFC 8259 whitespace: space, tab, line feed, carriage return.
    mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
    }

    func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        if byte >= 0x21 && byte < 0x7F { return "`\(Unicode.Scalar(byte))`" }
        let rest = String(decoding: bytes[offset...].prefix(4), as: UTF8.self)
        guard let scalar = rest.unicodeScalars.first else { return "byte 0x\(hex(UInt32(byte), width: 2))" }
        return "character U+\(hex(scalar.value, width: 4))"
    }

    func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    func failure(_ message: String, at location: SourceLocation? = nil, hint: String?) -> JSONSyntaxError {
        JSONSyntaxError(
            diagnostic: Diagnostic(
                .invalidJSON, message, at: location ?? self.location, hint: hint))
    }
}
