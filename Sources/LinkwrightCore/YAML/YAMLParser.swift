import CYaml

/// Reads one YAML document into a `YAMLNode` tree through libyaml's event API, with the limits a
/// configuration file needs and libyaml does not enforce:
/// - a size cap, checked before parsing;
/// - valid UTF-8 only;
/// - a nesting-depth cap, because libyaml's time grows with the square of flow nesting depth
///   (measured in `swift-linux-spike.md`: depth 40,000 takes 8.7 s);
/// - no aliases, so a "billion laughs" file is an error after reading its first alias;
/// - no duplicate keys (libyaml accepts them silently);
/// - scalar keys only, and one document per file.
public struct YAMLParser: Sendable {
    public var maximumBytes: Int
    public var maximumDepth: Int

    public init(maximumBytes: Int = 1 << 20, maximumDepth: Int = 32) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }

    /// A file over `limit` bytes; trees that refuse such a file before reading it say the same.
    static func tooLarge(file: String, limit: Int) -> Diagnostic {
        Diagnostic(
            .fileTooLarge, "file is over the limit of \(limit) bytes", at: .file(file),
            hint: "split the file, or remove generated content from it")
    }

    /// Parses `bytes` read from `file`. Returns the root node (`nil` for an empty document) or
    /// the diagnostics that make the file unusable. Duplicate keys are reported all at once.
    public func parse(_ bytes: [UInt8], file: String) -> (root: YAMLNode?, diagnostics: [Diagnostic]) {
        if bytes.count > maximumBytes { return (nil, [Self.tooLarge(file: file, limit: maximumBytes)]) }
        if let (line, column) = Self.firstInvalidUTF8(bytes) {
            let location = SourceLocation(file: file, line: line, column: column)
            return (
                nil,
                [
                    Diagnostic(
                        .invalidUTF8, "file is not valid UTF-8", at: location,
                        hint: "save the file as UTF-8")
                ]
            )
        }
        var builder = TreeBuilder(file: file, maximumDepth: maximumDepth)
        do {
            try Self.events(bytes) { event, start in try builder.consume(event, at: start) }
        } catch let failure as ParseFailure {
            return (nil, builder.diagnostics + [failure.diagnostic(file: file)])
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        return (builder.root, builder.diagnostics)
    }

    /// Line and column (1-based, counted in scalars like libyaml) of the first invalid byte.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (Int, Int)? {
        // The standard library's validation is many times faster than decoding scalar by scalar;
        // only a file that fails it is walked again for the position.
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        var column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput: return nil
            case .error: return (line, column)
            }
        }
    }

    enum Event {
        case documentStart
        case mappingStart(anchor: String?)
        case mappingEnd
        case sequenceStart(anchor: String?)
        case sequenceEnd
        case scalar(YAMLScalar, anchor: String?)
        case alias(String)
    }

    struct ParseFailure: Error {
        var id: DiagnosticID
        var message: String
        var line: Int
        var column: Int
        var hint: String?

        func diagnostic(file: String) -> Diagnostic {
            Diagnostic(id, message, at: SourceLocation(file: file, line: line, column: column), hint: hint)
        }
    }

    /// The `number`th line of `bytes` (1-based) as libyaml counts lines, without its break.
    static func line(_ number: Int, of bytes: [UInt8]) -> [Unicode.Scalar] {
        let lines = YAMLLines(String(decoding: bytes, as: UTF8.self)).lines
        return number >= 1 && number <= lines.count ? lines[number - 1].content : []
    }

    /// How to fix what libyaml found, from its words and the line it stopped on: the usual
    /// causes are a tab in the indentation, a missing `: `, a value holding `: ` or starting
    /// with a character YAML reserves, and keys or items out of line.
    static func syntaxHint(_ problem: String, line: [Unicode.Scalar], column: Int) -> String {
        let indentation = line.prefix { $0 == " " || $0 == "\t" }
        if problem.contains("tab") || indentation.contains("\t") {
            return "indent with spaces: YAML does not allow tabs in indentation"
        }
        if problem.contains("could not find expected ':'") {
            return "write a key as `key: value`, with a space after the colon; quote a value that holds `: ` or ` #`"
        }
        if problem.contains("mapping values are not allowed") {
            return "quote a value that holds `: `, e.g. \"Note: text\", or end the key on the line above with `:`"
        }
        if problem.contains("cannot start any token") {
            // libyaml's columns count scalars, as `line` holds them.
            let character = column >= 1 && column <= line.count ? String(line[column - 1]) : "this character"
            return "quote the value: YAML reserves \(PrintableText.quoted(character)) at the start of a plain value"
        }
        if problem.contains("did not find expected key") || problem.contains("did not find expected '-'") {
            return "line the keys of one mapping, and the items of one list, up in the same column"
        }
        if problem.contains("quoted scalar") {
            return "close the quote: a quoted value ends with the same quote it starts with"
        }
        return "fix the YAML syntax on this line"
    }

    /// Pulls events from libyaml and hands each to `handle` with its 1-based start mark.
    private static func events(_ bytes: [UInt8], _ handle: (Event, (Int, Int)) throws -> Void) throws {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw ParseFailure(id: .yamlSyntax, message: "libyaml could not start", line: 1, column: 1)
        }
        defer { yaml_parser_delete(parser) }
        try bytes.withUnsafeBufferPointer { buffer in
            // The input buffer must outlive the parse loop: libyaml reads it lazily.
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(parser, &event) == 1 else {
                    let p = parser.pointee
                    let problem = p.problem.map { String(cString: $0) } ?? "unreadable YAML"
                    let context = p.context.map { " (\(String(cString: $0)))" } ?? ""
                    let (line, column) = (Int(p.problem_mark.line) + 1, Int(p.problem_mark.column) + 1)
                    throw ParseFailure(
                        id: .yamlSyntax, message: problem + context, line: line, column: column,
                        hint: syntaxHint(problem + context, line: Self.line(line, of: bytes), column: column))
                }
                defer { yaml_event_delete(&event) }
                let start = (Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1)
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return
                case YAML_DOCUMENT_START_EVENT:
                    try handle(.documentStart, start)
                case YAML_MAPPING_START_EVENT:
                    try handle(.mappingStart(anchor: string(event.data.mapping_start.anchor)), start)
                case YAML_MAPPING_END_EVENT:
                    try handle(.mappingEnd, start)
                case YAML_SEQUENCE_START_EVENT:
                    try handle(.sequenceStart(anchor: string(event.data.sequence_start.anchor)), start)
                case YAML_SEQUENCE_END_EVENT:
                    try handle(.sequenceEnd, start)
                case YAML_SCALAR_EVENT:
                    let data = event.data.scalar
                    let text = String(
                        decoding: UnsafeBufferPointer(start: data.value, count: Int(data.length)), as: UTF8.self)
                    let style: YAMLScalar.Style =
                        switch data.style {
                        case YAML_PLAIN_SCALAR_STYLE: .plain
                        case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE: .block
                        default: .quoted
                        }
                    let scalar = YAMLScalar(text: text, style: style, tag: string(data.tag))
                    try handle(.scalar(scalar, anchor: string(data.anchor)), start)
                case YAML_ALIAS_EVENT:
                    try handle(.alias(string(event.data.alias.anchor) ?? ""), start)
                default:
                    continue
                }
            }
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}

/// Turns the event stream into a tree, reporting what the limits forbid.
private struct TreeBuilder {
    /// An open mapping or list. A struct mutated in place on the stack: rebuilding an enum
    /// payload would copy a long list on every append, quadratic in its length.
    struct Frame {
        let start: SourceLocation
        let isMapping: Bool
        var pairs: [YAMLPair] = []
        var items: [YAMLNode] = []
        /// A mapping's key waiting for its value.
        var pendingKey: Located<String>?
        /// Each key and where it was first written, kept only once the mapping has more than a
        /// few pairs: smaller mappings (nearly all) are scanned, with no hashing or allocation.
        var keyIndex: [String: SourceLocation]?

        /// A mapping expecting a key: a collection here would be a complex key.
        var expectsKey: Bool { isMapping && pendingKey == nil }

        /// Where `key` was first written in this mapping; nil when it is new, which records it.
        mutating func firstWriting(of key: String, at location: SourceLocation) -> SourceLocation? {
            if keyIndex == nil && pairs.count >= 16 {
                keyIndex = Dictionary(
                    pairs.map { ($0.key.value, $0.key.location) }, uniquingKeysWith: { first, _ in first })
            }
            guard keyIndex != nil else { return pairs.first { $0.key.value == key }?.key.location }
            if let first = keyIndex![key] { return first }
            keyIndex![key] = location
            return nil
        }
    }

    let file: String
    let maximumDepth: Int
    var stack: [Frame] = []
    var root: YAMLNode?
    var documents = 0
    var diagnostics: [Diagnostic] = []

    init(file: String, maximumDepth: Int) {
        self.file = file
        self.maximumDepth = maximumDepth
    }

    mutating func consume(_ event: YAMLParser.Event, at mark: (Int, Int)) throws {
        let location = SourceLocation(file: file, line: mark.0, column: mark.1)
        switch event {
        case .documentStart:
            documents += 1
            if documents > 1 {
                throw YAMLParser.ParseFailure(
                    id: .multipleDocuments, message: "a configuration file holds one YAML document",
                    line: mark.0, column: mark.1, hint: "remove the `---` separator, or split the file")
            }
        case .mappingStart(let anchor), .sequenceStart(let anchor):
            if anchor != nil { try refuseAnchor(at: mark) }
            if stack.count >= maximumDepth {
                throw YAMLParser.ParseFailure(
                    id: .nestingTooDeep, message: "nesting deeper than \(maximumDepth) levels",
                    line: mark.0, column: mark.1, hint: "configuration files never need this depth; flatten the value")
            }
            let isMapping: Bool
            if case .mappingStart = event { isMapping = true } else { isMapping = false }
            try requireValuePosition(at: mark, kind: isMapping ? "a mapping" : "a list")
            stack.append(Frame(start: location, isMapping: isMapping))
        case .mappingEnd, .sequenceEnd:
            guard let frame = stack.popLast() else { return }
            try attach(YAMLNode(frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items), at: frame.start))
        case .scalar(let scalar, let anchor):
            if anchor != nil { try refuseAnchor(at: mark) }
            if let top = stack.indices.last, stack[top].expectsKey {
                if let first = stack[top].firstWriting(of: scalar.text, at: location) {
                    diagnostics.append(
                        Diagnostic(
                            .duplicateKey,
                            "duplicate key \(PrintableText.quoted(scalar.text)) (first written at line \(first.line), column \(first.column))",
                            at: location, hint: "keep one of the two entries"))
                }
                stack[top].pendingKey = Located(scalar.text, at: location)
            } else {
                try attach(YAMLNode(.scalar(scalar), at: location))
            }
        case .alias(let name):
            throw YAMLParser.ParseFailure(
                id: .yamlAlias,
                message: "YAML aliases (*\(PrintableText.excerpt(name))) are not allowed in configuration files",
                line: mark.0, column: mark.1, hint: "write the value out where it is used")
        }
    }

    private func refuseAnchor(at mark: (Int, Int)) throws {
        throw YAMLParser.ParseFailure(
            id: .yamlAlias, message: "YAML anchors (&name) are not allowed in configuration files",
            line: mark.0, column: mark.1, hint: "remove the anchor and write values out where they are used")
    }

    /// A mapping or list can only be a value: as a key it would be a complex key.
    private func requireValuePosition(at mark: (Int, Int), kind: String) throws {
        if stack.last?.expectsKey == true {
            throw YAMLParser.ParseFailure(
                id: .complexKey, message: "\(kind) cannot be used as a key", line: mark.0, column: mark.1,
                hint: "keys are plain strings")
        }
    }

    private mutating func attach(_ node: YAMLNode) throws {
        guard let top = stack.indices.last else {
            root = node
            return
        }
        if stack[top].isMapping {
            guard let key = stack[top].pendingKey else { preconditionFailure("scalar keys are handled in consume") }
            stack[top].pairs.append(YAMLPair(key: key, value: node))
            stack[top].pendingKey = nil
        } else {
            stack[top].items.append(node)
        }
    }
}
