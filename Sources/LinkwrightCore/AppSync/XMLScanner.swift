/// The markup of an XML document as a flat list of tags and comments with their byte ranges,
/// read as far as `sync` needs to edit one element's content and keep every other byte: text,
/// CDATA, processing instructions and the DOCTYPE are stepped over, attribute values may hold
/// `>`. It checks that tags nest, not the rest of XML's well-formedness.
struct XMLScanner {
    enum Token: Equatable {
        case start(name: String, attributes: [(name: String, value: String)], selfClosing: Bool)
        case end(name: String)
        /// The text between `<!--` and `-->`.
        case comment(String)

        static func == (lhs: Token, rhs: Token) -> Bool {
            switch (lhs, rhs) {
            case (.start(let a, let x, let p), .start(let b, let y, let q)):
                a == b && p == q && x.elementsEqual(y) { $0.name == $1.name && $0.value == $1.value }
            case (.end(let a), .end(let b)), (.comment(let a), .comment(let b)): a == b
            default: false
            }
        }
    }

    struct Item {
        var token: Token
        /// From `<` up to and including `>`.
        var range: Range<Int>
        /// How many elements are open around it (the root element's start tag is at 0).
        var depth: Int
    }

    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    static func scan(_ bytes: [UInt8]) throws(Failure) -> [Item] {
        var items: [Item] = []
        var open: [String] = []
        var position = 0
        func find(_ needle: String, from start: Int) -> Int? {
            let pattern = Array(needle.utf8)
            var cursor = start
            while cursor + pattern.count <= bytes.count {
                if bytes[cursor] == pattern[0] && bytes[cursor..<(cursor + pattern.count)].elementsEqual(pattern) {
                    return cursor
                }
                cursor += 1
            }
            return nil
        }
        while let start = bytes[position...].firstIndex(of: UInt8(ascii: "<")) {
            let rest = bytes[start...]
            if rest.starts(with: Array("<!--".utf8)) {
                guard let end = find("-->", from: start + 4) else {
                    throw Failure(offset: start, reason: "a comment is not closed")
                }
                let text = String(decoding: bytes[(start + 4)..<end], as: UTF8.self)
                items.append(Item(token: .comment(text), range: start..<(end + 3), depth: open.count))
                position = end + 3
                continue
            }
            if rest.starts(with: Array("<![CDATA[".utf8)) {
                guard let end = find("]]>", from: start) else {
                    throw Failure(offset: start, reason: "a CDATA section is not closed")
                }
                position = end + 3
                continue
            }
            if rest.starts(with: Array("<?".utf8)) || rest.starts(with: Array("<!".utf8)) {
                guard let end = find(">", from: start) else {
                    throw Failure(offset: start, reason: "a declaration is not closed")
                }
                position = end + 1
                continue
            }
            let (token, end) = try tag(bytes, at: start)
            switch token {
            case .start(let name, _, let selfClosing):
                items.append(Item(token: token, range: start..<end, depth: open.count))
                if !selfClosing { open.append(name) }
            case .end(let name):
                guard open.last == name else {
                    throw Failure(offset: start, reason: "</\(name)> does not close <\(open.last ?? "nothing")>")
                }
                open.removeLast()
                items.append(Item(token: token, range: start..<end, depth: open.count))
            case .comment:
                break
            }
            position = end
        }
        if let unclosed = open.last { throw Failure(offset: bytes.count, reason: "<\(unclosed)> is not closed") }
        return items
    }

    /// The tag starting at `start` and the offset just after its `>`.
    private static func tag(_ bytes: [UInt8], at start: Int) throws(Failure) -> (Token, Int) {
        var cursor = start + 1
        let closing = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "/")
        if closing { cursor += 1 }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        func word() -> String {
            let from = cursor
            while cursor < bytes.count, !isSpace(bytes[cursor]), !"/>=".utf8.contains(bytes[cursor]) { cursor += 1 }
            return String(decoding: bytes[from..<cursor], as: UTF8.self)
        }
        func skipSpace() { while cursor < bytes.count && isSpace(bytes[cursor]) { cursor += 1 } }
        let name = word()
        guard !name.isEmpty else { throw Failure(offset: start, reason: "a tag has no name") }
        var attributes: [(name: String, value: String)] = []
        while true {
            skipSpace()
            guard cursor < bytes.count else { throw Failure(offset: start, reason: "<\(name)> is not closed with >") }
            if bytes[cursor] == UInt8(ascii: ">") {
                return (
                    closing ? .end(name: name) : .start(name: name, attributes: attributes, selfClosing: false),
                    cursor + 1
                )
            }
            if !closing, bytes[cursor] == UInt8(ascii: "/"), cursor + 1 < bytes.count,
                bytes[cursor + 1] == UInt8(ascii: ">")
            {
                return (.start(name: name, attributes: attributes, selfClosing: true), cursor + 2)
            }
            let attribute = word()
            skipSpace()
            guard !closing, !attribute.isEmpty, cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else {
                throw Failure(offset: cursor, reason: "<\(name)> holds something that is not an attribute")
            }
            cursor += 1
            skipSpace()
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'"),
                let close = bytes[(cursor + 1)...].firstIndex(of: bytes[cursor])
            else { throw Failure(offset: cursor, reason: "the attribute \(attribute) has no quoted value") }
            let raw = String(decoding: bytes[(cursor + 1)..<close], as: UTF8.self)
            attributes.append((attribute, XMLScanner.decoded(raw)))
            cursor = close + 1
        }
    }

    /// Attribute text with the predefined entities and character references decoded (an
    /// unknown one is kept as written: it matches no activity name).
    static func decoded(_ raw: String) -> String {
        guard raw.contains("&") else { return raw }
        var result = ""
        var rest = Substring(raw)
        while let ampersand = rest.firstIndex(of: "&"), let semicolon = rest[ampersand...].firstIndex(of: ";") {
            result += rest[..<ampersand]
            let name = rest[rest.index(after: ampersand)..<semicolon]
            let known = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
            let number =
                name.hasPrefix("#x")
                ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
            if let text = known[String(name)] {
                result += text
            } else if let number, let scalar = Unicode.Scalar(number) {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[ampersand...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}

/// Lines and indentation of a text being edited in place.
enum TextLayout {
    /// Where the line holding `offset` starts.
    static func lineStart(_ bytes: [UInt8], before offset: Int) -> Int {
        var cursor = offset
        while cursor > 0 && bytes[cursor - 1] != UInt8(ascii: "\n") { cursor -= 1 }
        return cursor
    }

    /// The spaces and tabs before `offset` on its line, or nil when something else precedes it.
    static func indentation(_ bytes: [UInt8], before offset: Int) -> String? {
        let prefix = bytes[lineStart(bytes, before: offset)..<offset]
        guard prefix.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return nil }
        return String(decoding: prefix, as: UTF8.self)
    }

    /// `(line, column)` of `offset`, both from 1, the column in bytes.
    static func position(_ bytes: [UInt8], of offset: Int) -> (line: Int, column: Int) {
        let clamped = min(offset, bytes.count)
        let line = bytes[..<clamped].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        return (line, clamped - lineStart(bytes, before: clamped) + 1)
    }

    /// Where the line after `offset` starts when only spaces and tabs follow it on its line,
    /// else `offset`: the end of a range whose whole lines are removed.
    static func lineEnd(_ bytes: [UInt8], after offset: Int) -> Int {
        var cursor = offset
        while cursor < bytes.count && (bytes[cursor] == 0x20 || bytes[cursor] == 0x09) { cursor += 1 }
        if cursor < bytes.count && bytes[cursor] == UInt8(ascii: "\r") { cursor += 1 }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\n") else {
            return cursor == bytes.count ? cursor : offset
        }
        return cursor + 1
    }

    /// One indentation step, judged from an indentation found at `depth` levels.
    static func unit(from indentation: String, depth: Int) -> String {
        if indentation.contains("\t") { return "\t" }
        guard depth > 0, !indentation.isEmpty, indentation.count % depth == 0 else { return "    " }
        return String(repeating: " ", count: indentation.count / depth)
    }

    /// The lines of `new` that `old` lacks ("+ …") and of `old` that `new` lacks ("- …"),
    /// trimmed, each counted as often as it occurs: a short summary of what an edit changes.
    static func differences(old: String, new: String) -> [String] {
        func lines(_ text: String) -> [String] {
            text.split(separator: "\n").map { String($0.drop { $0 == " " || $0 == "\t" }) }.filter { !$0.isEmpty }
        }
        var remaining: [String: Int] = [:]
        for line in lines(old) { remaining[line, default: 0] += 1 }
        var added: [String] = []
        for line in lines(new) {
            if let count = remaining[line], count > 0 { remaining[line] = count - 1 } else { added.append("+ " + line) }
        }
        var left = remaining
        let removed = lines(old).compactMap { line -> String? in
            guard let count = left[line], count > 0 else { return nil }
            left[line] = count - 1
            return "- " + line
        }
        return removed + added
    }
}
