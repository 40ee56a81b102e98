/// libyaml's events for the YAML nearly every configuration file is written in, read in one
/// pass over the bytes without libyaml's per-character machinery: block mappings and lists
/// indented with spaces, one-line plain or quoted scalars without escapes, one-line flow lists
/// and mappings of scalars, comments and blank lines.
///
/// For a text it accepts, the events, their scalars' bytes and styles, and their start and end
/// marks are exactly libyaml's (0.2.5); anything else it refuses as a whole, and libyaml reads
/// that text from its first byte. It never reports an error itself, so every message and mark
/// of a broken file stays libyaml's. What it refuses, among others: tabs, carriage returns,
/// control characters and non-ASCII bytes (libyaml counts columns in characters), `---` and
/// `...`, directives, tags, anchors, aliases, `?` keys, block scalars, scalars over several
/// lines, escapes and `''` in quoted scalars, flow collections over several lines or nested,
/// plain scalars starting with an indicator, and a value where libyaml would report an error.
struct YAMLSubsetScanner {
    /// One event, as libyaml reports it; marks are 1-based.
    struct Record: Equatable {
        enum Kind: UInt8 {
            case streamStart, documentStart, documentEnd, mappingStart, mappingEnd, sequenceStart, sequenceEnd
            case scalar, streamEnd
        }

        enum Style: UInt8 {
            case none, plain, singleQuoted, doubleQuoted, block, flow
        }

        var kind: Kind
        var style: Style
        /// A scalar's bytes in the text (empty for other events and for empty scalars).
        var first: Int32
        var end: Int32
        var startLine: Int32
        var startColumn: Int32
        var endLine: Int32
        var endColumn: Int32
    }

    /// A position in the text, 0-based as libyaml's marks.
    private struct Mark {
        var line: Int32
        var column: Int32
    }

    /// An open block collection: `indent` is libyaml's indentation level for it. An indentless
    /// list (`key:` followed by `- item` in the key's column) has its mapping's.
    private struct Block {
        var indent: Int32
        var isMapping: Bool
        var isIndentless: Bool
    }

    private let text: UnsafeBufferPointer<UInt8>
    private var records: [Record] = []
    private var blocks: [Block] = []
    /// The mark of the empty scalar libyaml reports when a `key:` or `-` ending a line has no
    /// value on the lines below: just after the `:` or the `-`.
    private var pendingValue: Mark?
    private var line: Int32 = 0
    private var lineStart = 0

    private init(_ text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    /// libyaml's events for `text`, from the stream start to the stream end, or nil when the
    /// text is not one this scanner reads exactly.
    static func events(_ text: UnsafeBufferPointer<UInt8>) -> [Record]? {
        guard text.count < Int(Int32.max), holdsOnlyPrintableASCIIAndLineFeeds(text) else { return nil }
        var scanner = YAMLSubsetScanner(text)
        // Size L's files hold an event per 6.5 bytes: room for all, with no copy as the array grows.
        scanner.records.reserveCapacity(text.count / 4)
        return scanner.scan() ? scanner.records : nil
    }

    /// Whether every byte of `text` is printable ASCII (0x20 to 0x7E) or a line feed, the only
    /// bytes the scanner reads. Eight bytes a step: a byte at a time cost an eighth of the scan.
    static func holdsOnlyPrintableASCIIAndLineFeeds(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let words = text.count / 8
        if let base = text.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highBits = ones &* 0x80
            for word in 0..<words {
                let bytes = raw.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self)
                // With no byte's high bit set, no sum below carries into the next byte: the high
                // bit of a byte of `bytes + 0x60` is clear for a byte below 0x20, of `bytes + 1`
                // set for 0x7F, and of `(bytes ^ 0x0A) + 0x7F` clear for a line feed.
                let control = ~(bytes &+ ones &* 0x60) & highBits
                let delete = (bytes &+ ones) & highBits
                let lineFeed = ~((bytes ^ (ones &* 0x0A)) &+ ones &* 0x7F) & highBits
                if (bytes & highBits) | delete | (control & ~lineFeed) != 0 { return false }
            }
        }
        return text[(words &* 8)...].allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == .newline }
    }

    // MARK: Lines

    private mutating func scan() -> Bool {
        append(.streamStart, at: Mark(line: 0, column: 0))
        var started = false
        var position = 0
        while position < text.count {
            lineStart = position
            while position < text.count && text[position] == .space { position += 1 }
            if position < text.count && text[position] != .newline && text[position] != .hash {
                let column = Int32(position - lineStart)
                if column == 0 && startsDocumentMarker(at: position) { return false }
                if !started {
                    started = true
                    append(.documentStart, at: Mark(line: line, column: column))
                    guard let end = blockNode(at: position) else { return false }
                    position = end
                } else {
                    guard let end = contentLine(at: position) else { return false }
                    position = end
                }
            }
            while position < text.count && text[position] != .newline { position += 1 }
            if position < text.count {
                position += 1
                line += 1
                lineStart = position
            }
        }
        finish(at: Mark(line: line, column: Int32(text.count - lineStart)), started: started)
        return true
    }

    /// Ends every open collection at the end of the text, as libyaml does: collections indented
    /// deeper than the column the text stops at end there, the rest at the start of the line after.
    private mutating func finish(at last: Mark, started: Bool) {
        let end = last.column == 0 ? last : Mark(line: last.line + 1, column: 0)
        if started {
            emptyPendingValue()
            while let top = blocks.popLast() {
                append(top.isMapping ? .mappingEnd : .sequenceEnd, at: top.indent > last.column ? last : end)
            }
            append(.documentEnd, at: end)
        }
        append(.streamEnd, at: end)
    }

    /// `---` or `...` at the start of a line.
    private func startsDocumentMarker(at position: Int) -> Bool {
        guard position + 2 < text.count else { return false }
        return (text[position] == .dash && text[position + 1] == .dash && text[position + 2] == .dash)
            || (text[position] == .dot && text[position + 1] == .dot && text[position + 2] == .dot)
    }

    /// A line after the first, its content starting at `position`: ends the collections it is
    /// left of, then continues the one it lines up with. Returns where the line's content ends.
    private mutating func contentLine(at position: Int) -> Int? {
        let column = Int32(position - lineStart)
        let here = Mark(line: line, column: column)
        let isEntry = startsEntry(at: position)
        if pendingValue != nil {
            let owner = blocks[blocks.count - 1]
            if column > owner.indent {
                pendingValue = nil
                return blockNode(at: position)
            }
            if column == owner.indent && isEntry && owner.isMapping {
                pendingValue = nil
                append(.sequenceStart, style: .block, at: here, end: Mark(line: line, column: column + 1))
                blocks.append(Block(indent: column, isMapping: false, isIndentless: true))
                return entry(at: position)
            }
            emptyPendingValue()
        }
        while let top = blocks.last {
            let ends =
                top.isIndentless ? column < top.indent || (column == top.indent && !isEntry) : top.indent > column
            guard ends else { break }
            append(top.isMapping ? .mappingEnd : .sequenceEnd, at: here)
            blocks.removeLast()
        }
        guard let top = blocks.last, top.indent == column, top.isMapping != isEntry else { return nil }
        if isEntry { return entry(at: position) }
        guard let (key, colon) = key(at: position) else { return nil }
        return pair(key: key, colon: colon)
    }

    private mutating func emptyPendingValue() {
        guard let mark = pendingValue else { return }
        pendingValue = nil
        append(.scalar, style: .plain, at: mark, end: mark)
    }

    // MARK: Block nodes

    /// A `-` followed by a space or the end of the line.
    private func startsEntry(at position: Int) -> Bool {
        text[position] == .dash
            && (position + 1 == text.count || text[position + 1] == .space || text[position + 1] == .newline)
    }

    /// A list or mapping starting at `position`, deeper than the collection it is in.
    private mutating func blockNode(at position: Int) -> Int? {
        if startsEntry(at: position) {
            let here = mark(position)
            append(.sequenceStart, style: .block, at: here, end: here)
            blocks.append(Block(indent: here.column, isMapping: false, isIndentless: false))
            return entry(at: position)
        }
        guard let (key, colon) = key(at: position) else { return nil }
        return mapping(at: position, key: key, colon: colon)
    }

    /// A block mapping whose first key, at `position`, is `key`.
    private mutating func mapping(at position: Int, key: Record, colon: Int) -> Int? {
        let here = mark(position)
        append(.mappingStart, style: .block, at: here, end: here)
        blocks.append(Block(indent: here.column, isMapping: true, isIndentless: false))
        return pair(key: key, colon: colon)
    }

    /// An item of the list on top, its `-` at `position`.
    private mutating func entry(at position: Int) -> Int? {
        let afterDash = position + 1
        let content = skipSpaces(from: afterDash)
        if endsLine(at: content, spaced: content > afterDash) {
            pendingValue = Mark(line: line, column: Int32(afterDash - lineStart))
            return content
        }
        if startsEntry(at: content) { return blockNode(at: content) }
        if let (key, colon) = key(at: content) { return mapping(at: content, key: key, colon: colon) }
        return value(at: content)
    }

    /// A pair of the mapping on top, its key scanned, its `:` at `colon`.
    private mutating func pair(key: Record, colon: Int) -> Int? {
        records.append(key)
        let afterColon = colon + 1
        let content = skipSpaces(from: afterColon)
        if endsLine(at: content, spaced: content > afterColon) {
            pendingValue = Mark(line: line, column: Int32(afterColon - lineStart))
            return content
        }
        if startsEntry(at: content) { return nil }
        return value(at: content)
    }

    /// The key scalar starting at `position` and where its `:` is, when `position` starts a
    /// one-line key followed by `: ` or `:` at the end of the line, short enough for libyaml
    /// to take it as a key.
    private func key(at position: Int) -> (Record, colon: Int)? {
        let scanned: (Record, next: Int)?
        switch text[position] {
        case .singleQuote, .doubleQuote: scanned = quoted(at: position)
        default: scanned = plain(at: position, inFlow: false)
        }
        guard let (key, colon) = scanned, colon < text.count, text[colon] == .colon,
            colon + 1 == text.count || text[colon + 1] == .space || text[colon + 1] == .newline,
            colon - position < 1000
        else { return nil }
        return (key, colon)
    }

    /// A scalar or a flow collection at `position` closing the line.
    private mutating func value(at position: Int) -> Int? {
        let next: Int
        switch text[position] {
        case .openBracket, .openBrace:
            guard let end = flowCollection(at: position) else { return nil }
            next = end
        case .singleQuote, .doubleQuote:
            guard let (scalar, end) = quoted(at: position) else { return nil }
            records.append(scalar)
            next = end
        default:
            guard let (scalar, end) = plain(at: position, inFlow: false) else { return nil }
            records.append(scalar)
            next = end
        }
        let rest = skipSpaces(from: next)
        return endsLine(at: rest, spaced: rest > next) ? rest : nil
    }

    private func skipSpaces(from position: Int) -> Int {
        var position = position
        while position < text.count && text[position] == .space { position += 1 }
        return position
    }

    /// Whether nothing but a comment follows `position` on its line; a comment must follow a space.
    private func endsLine(at position: Int, spaced: Bool) -> Bool {
        position == text.count || text[position] == .newline || (spaced && text[position] == .hash)
    }

    // MARK: Flow collections

    /// A one-line `[…]` of scalars or `{…}` of scalar pairs at `position`; returns where it ends.
    private mutating func flowCollection(at position: Int) -> Int? {
        let isMapping = text[position] == .openBrace
        let close: UInt8 = isMapping ? .closeBrace : .closeBracket
        append(
            isMapping ? .mappingStart : .sequenceStart, style: .flow, at: mark(position), end: mark(position + 1))
        var next = skipSpaces(from: position + 1)
        if next < text.count && text[next] == close {
            append(isMapping ? .mappingEnd : .sequenceEnd, at: mark(next), end: mark(next + 1))
            return next + 1
        }
        while true {
            if isMapping {
                guard let (key, colon) = flowScalar(at: next), colon < text.count, text[colon] == .colon,
                    colon + 1 < text.count, text[colon + 1] == .space, colon - next < 1000
                else { return nil }
                records.append(key)
                next = skipSpaces(from: colon + 1)
            }
            guard let (item, end) = flowScalar(at: next), end < text.count else { return nil }
            records.append(item)
            next = end
            if text[next] == close {
                append(isMapping ? .mappingEnd : .sequenceEnd, at: mark(next), end: mark(next + 1))
                return next + 1
            }
            guard text[next] == .comma else { return nil }
            next = skipSpaces(from: next + 1)
            if next < text.count && text[next] == close { return nil }
        }
    }

    /// A scalar inside a flow collection and the first position after it and the spaces that
    /// follow: a `,`, `:` or closing bracket there ends it; anything else is refused.
    private func flowScalar(at position: Int) -> (Record, next: Int)? {
        guard position < text.count else { return nil }
        let scanned: (Record, next: Int)?
        switch text[position] {
        case .singleQuote, .doubleQuote: scanned = quoted(at: position)
        default: scanned = plain(at: position, inFlow: true)
        }
        guard let (scalar, end) = scanned else { return nil }
        let next = skipSpaces(from: end)
        guard next < text.count else { return nil }
        switch text[next] {
        case .comma, .colon, .closeBracket, .closeBrace: return (scalar, next)
        default: return nil
        }
    }

    // MARK: Scalars

    /// A one-line quoted scalar at `position` without `\` escapes in double quotes, and the
    /// position after its closing quote.
    private func quoted(at position: Int) -> (Record, next: Int)? {
        let quote = text[position]
        var end = position + 1
        while end < text.count && text[end] != quote {
            if text[end] == .newline || (quote == .doubleQuote && text[end] == .backslash) { return nil }
            end += 1
        }
        // `''` or `""` would continue the scalar or start another: callers refuse any quote after it.
        guard end < text.count else { return nil }
        let record = Record(
            kind: .scalar, style: quote == .singleQuote ? .singleQuoted : .doubleQuoted, first: Int32(position + 1),
            end: Int32(end), startLine: line + 1, startColumn: Int32(position - lineStart) + 1, endLine: line + 1,
            endColumn: Int32(end + 1 - lineStart) + 1)
        return (record, end + 1)
    }

    /// A one-line plain scalar at `position` and where it stops: at the end of the line, at a
    /// comment, at `: ` or a `:` closing the line, and inside a flow collection at `,`, `]` or
    /// `}`. Refused: an indicator first (a `-` is taken before a letter or digit only), and
    /// inside a flow collection any `:`, `#`, `[` or `{` that is not a key's `: `.
    private func plain(at position: Int, inFlow: Bool) -> (Record, next: Int)? {
        switch text[position] {
        case .dash:
            guard position + 1 < text.count, text[position + 1].isAlphanumeric else { return nil }
        case .questionMark, .colon, .comma, .openBracket, .closeBracket, .openBrace, .closeBrace, .hash,
            .ampersand, .asterisk, .exclamationMark, .pipe, .greaterThan, .singleQuote, .doubleQuote, .percent,
            .at, .backtick, .space, .newline:
            return nil
        default: break
        }
        var end = position + 1
        var next = end
        while next < text.count {
            let byte = text[next]
            // Letters and most punctuation: nothing past `:` ends a plain scalar outside a flow.
            if byte > .colon && !inFlow {
                next += 1
                end = next
                continue
            }
            if byte == .newline { break }
            if byte == .space {
                let afterSpaces = skipSpaces(from: next)
                if afterSpaces == text.count || text[afterSpaces] == .newline || text[afterSpaces] == .hash { break }
                next = afterSpaces
                continue
            }
            if inFlow {
                switch byte {
                case .comma, .closeBracket, .closeBrace, .colon, .hash, .openBracket, .openBrace:
                    return (plainRecord(position, end), next)
                default: break
                }
            } else if byte == .colon
                && (next + 1 == text.count || text[next + 1] == .space || text[next + 1] == .newline)
            {
                break
            }
            next += 1
            end = next
        }
        if inFlow { return nil }
        return (plainRecord(position, end), next)
    }

    private func plainRecord(_ first: Int, _ end: Int) -> Record {
        Record(
            kind: .scalar, style: .plain, first: Int32(first), end: Int32(end), startLine: line + 1,
            startColumn: Int32(first - lineStart) + 1, endLine: line + 1, endColumn: Int32(end - lineStart) + 1)
    }

    // MARK: Records

    private func mark(_ position: Int) -> Mark { Mark(line: line, column: Int32(position - lineStart)) }

    private mutating func append(_ kind: Record.Kind, style: Record.Style = .none, at start: Mark, end: Mark? = nil) {
        let end = end ?? start
        records.append(
            Record(
                kind: kind, style: style, first: 0, end: 0, startLine: start.line + 1, startColumn: start.column + 1,
                endLine: end.line + 1, endColumn: end.column + 1))
    }
}

extension UInt8 {
    fileprivate static let newline = UInt8(ascii: "\n")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let hash = UInt8(ascii: "#")
    fileprivate static let dash = UInt8(ascii: "-")
    fileprivate static let dot = UInt8(ascii: ".")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let singleQuote = UInt8(ascii: "'")
    fileprivate static let doubleQuote = UInt8(ascii: "\"")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let openBracket = UInt8(ascii: "[")
    fileprivate static let closeBracket = UInt8(ascii: "]")
    fileprivate static let openBrace = UInt8(ascii: "{")
    fileprivate static let closeBrace = UInt8(ascii: "}")
    fileprivate static let questionMark = UInt8(ascii: "?")
    fileprivate static let ampersand = UInt8(ascii: "&")
    fileprivate static let asterisk = UInt8(ascii: "*")
    fileprivate static let exclamationMark = UInt8(ascii: "!")
    fileprivate static let pipe = UInt8(ascii: "|")
    fileprivate static let greaterThan = UInt8(ascii: ">")
    fileprivate static let percent = UInt8(ascii: "%")
    fileprivate static let at = UInt8(ascii: "@")
    fileprivate static let backtick = UInt8(ascii: "`")

    fileprivate var isAlphanumeric: Bool {
        (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
            || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
    }
}
