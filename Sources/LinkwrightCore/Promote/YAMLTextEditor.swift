/// Minimal edits to YAML text at positions the parser reported, so a file keeps its comments,
/// order and formatting. Edits are collected, then applied from the end of the file backwards
/// so earlier positions stay valid. Lines are cut where libyaml cuts them (`YAMLLines`), and
/// lines added end as the file's own lines do (CR LF in a file saved on Windows).
struct YAMLTextEditor {
    /// The file's lines as Unicode scalars (columns in diagnostics count scalars, as libyaml does).
    private var lines: [YAMLLines.Line]
    /// What ends a line the edits add.
    private let lineBreak: String
    private let byteOrderMark: String
    private var edits: [Edit] = []

    enum Edit {
        /// Insert text at a 1-based (line, column); column `count + 1` is the end of the line.
        case insert(line: Int, column: Int, text: String)
        /// Remove columns `from..<to` of one line.
        case remove(line: Int, from: Int, to: Int)
        /// Remove whole lines `first...last`.
        case removeLines(first: Int, last: Int)
    }

    struct EditError: Error {
        var message: String
    }

    init(_ text: String) {
        let split = YAMLLines(text)
        lines = split.lines
        lineBreak = split.lineBreak
        byteOrderMark = split.byteOrderMark
    }

    func character(at location: SourceLocation) -> Unicode.Scalar? {
        guard location.line - 1 < lines.count, location.column - 1 < lines[location.line - 1].content.count else {
            return nil
        }
        return lines[location.line - 1].content[location.column - 1]
    }

    /// Appends `value` to a sequence: `[a]` becomes `[a, value]`; a block list gets a `- value`
    /// line after its last item, at the same indentation.
    mutating func append(_ value: String, to sequence: YAMLNode) throws {
        guard case .sequence(let items) = sequence.content else { throw EditError(message: "not a list") }
        if character(at: sequence.location) == "[" {
            let close = try closingBracket(from: sequence.location)
            edits.append(.insert(line: close.line, column: close.column, text: items.isEmpty ? value : ", " + value))
            return
        }
        guard let last = items.last else { throw EditError(message: "an empty block list cannot be extended") }
        let indentation = String(repeating: " ", count: max(0, last.location.column - 3))
        let lastLine = Self.lastLine(of: last)
        edits.append(
            .insert(
                line: lastLine, column: lines[lastLine - 1].content.count + 1, text: "\n\(indentation)- \(value)"))
    }

    /// Removes item `index` of a list of plain scalars, with the separator next to it.
    mutating func remove(itemAt index: Int, of sequence: YAMLNode) throws {
        guard case .sequence(let items) = sequence.content, index < items.count else {
            throw EditError(message: "not a list")
        }
        let item = items[index]
        guard character(at: sequence.location) == "[" else {
            edits.append(.removeLines(first: item.location.line, last: item.location.line))
            return
        }
        let line = item.location.line
        let text = lines[line - 1].content
        var end = item.location.column - 1
        while end < text.count, text[end] != ",", text[end] != "]" { end += 1 }
        while end > item.location.column - 1, text[end - 1] == " " { end -= 1 }
        if index + 1 < items.count {
            // `a, b` -> `b`: remove through the comma and the spaces after it.
            var after = end
            while after < text.count, text[after] == " " || text[after] == "," { after += 1 }
            edits.append(.remove(line: line, from: item.location.column, to: after + 1))
        } else if index > 0 {
            // `a, b` -> `a`: remove from the comma before it.
            var before = item.location.column - 2
            while before > 0, text[before - 1] == " " || text[before - 1] == "," { before -= 1 }
            edits.append(.remove(line: line, from: before + 1, to: end + 1))
        } else {
            edits.append(.remove(line: line, from: item.location.column, to: end + 1))
        }
    }

    /// Removes a whole block-list item (from its line to the line before the next item).
    mutating func remove(item: YAMLNode, in sequence: YAMLNode) throws {
        guard case .sequence(let items) = sequence.content, let index = items.firstIndex(of: item),
            character(at: sequence.location) != "["
        else { throw EditError(message: "only items of block lists can be removed") }
        let last = index + 1 < items.count ? items[index + 1].location.line - 1 : Self.lastLine(of: item)
        edits.append(.removeLines(first: item.location.line, last: last))
    }

    /// Adds `key: value` at the end of a block mapping, aligned with its other keys.
    mutating func append(key: String, value: String, to mapping: YAMLNode) throws {
        guard case .mapping(let pairs) = mapping.content, let last = pairs.last else {
            throw EditError(message: "not a non-empty mapping")
        }
        if character(at: mapping.location) == "{" {
            let close = try closingBracket(from: mapping.location)
            edits.append(.insert(line: close.line, column: close.column, text: ", \(key): \(value)"))
            return
        }
        let indentation = String(repeating: " ", count: last.key.location.column - 1)
        let lastLine = max(last.key.location.line, Self.lastLine(of: last.value))
        // A value that starts on its own line (a nested block) leaves no space after the colon.
        let separator = value.hasPrefix("\n") ? ":" : ": "
        edits.append(
            .insert(
                line: lastLine, column: lines[lastLine - 1].content.count + 1,
                text: "\n\(indentation)\(key)\(separator)\(value)"))
    }

    /// The text with every edit applied.
    func applied() -> String {
        var lines = self.lines
        let ordered = edits.sorted { Self.position($0) > Self.position($1) }
        for edit in ordered {
            switch edit {
            case .insert(let line, let column, let text):
                // Inserted text holds whole lines after its first: each ends as the file's do.
                let scalars = Array(
                    text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
                        .joined(separator: Array(lineBreak.unicodeScalars)))
                lines[line - 1].content.insert(contentsOf: scalars, at: column - 1)
            case .remove(let line, let from, let to):
                lines[line - 1].content.removeSubrange((from - 1)..<(to - 1))
            case .removeLines(let first, let last):
                lines.removeSubrange((first - 1)...(last - 1))
            }
        }
        return YAMLLines(lines: lines, byteOrderMark: byteOrderMark).text
    }

    private static func position(_ edit: Edit) -> (Int, Int) {
        switch edit {
        case .insert(let line, let column, _): (line, column)
        case .remove(let line, let from, _): (line, from)
        case .removeLines(let first, _): (first, 0)
        }
    }

    /// The line of the last node inside `node` (where its text ends, for single-line scalars).
    static func lastLine(of node: YAMLNode) -> Int {
        switch node.content {
        case .scalar: node.location.line
        case .sequence(let items): items.map(lastLine).max() ?? node.location.line
        case .mapping(let pairs):
            pairs.map { max($0.key.location.line, lastLine(of: $0.value)) }.max() ?? node.location.line
        }
    }

    /// The `]` or `}` closing the flow collection that opens at `start`, skipping nested
    /// collections and quoted strings.
    private func closingBracket(from start: SourceLocation) throws -> (line: Int, column: Int) {
        var depth = 0
        var quote: Unicode.Scalar?
        var line = start.line
        var column = start.column
        while line <= lines.count {
            let text = lines[line - 1].content
            while column <= text.count {
                let character = text[column - 1]
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "\"" || character == "'" {
                    quote = character
                } else if character == "[" || character == "{" {
                    depth += 1
                } else if character == "]" || character == "}" {
                    depth -= 1
                    if depth == 0 { return (line, column) }
                }
                column += 1
            }
            line += 1
            column = 1
        }
        throw EditError(message: "unclosed flow collection at \(start)")
    }
}
