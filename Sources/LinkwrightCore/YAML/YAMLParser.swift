import CYaml

/// Reads one YAML document into a `YAMLDocument` through libyaml's event API, with the limits a
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
    /// The root's `document` holds every node.
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
        var builder = DocumentBuilder(file: file, maximumDepth: maximumDepth, inputBytes: bytes.count)
        do {
            try Self.events(bytes) { event, start in try builder.consume(event, at: start) }
        } catch let failure as ParseFailure {
            return (nil, builder.diagnostics + [failure.diagnostic(file: file)])
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        return (builder.document().map(\.root), builder.diagnostics)
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

    /// What readers need of libyaml's events. A scalar's bytes are libyaml's, valid only while
    /// the event is handled: the document builder copies them into its document's buffer.
    enum Event {
        case documentStart
        case mappingStart(anchored: Bool)
        case mappingEnd
        case sequenceStart(anchored: Bool)
        case sequenceEnd
        case scalar(UnsafeBufferPointer<UInt8>, style: YAMLScalar.Style, tag: String?, anchored: Bool)
        case alias(String)
        /// The end of the text: nothing follows.
        case streamEnd
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
    static func line(_ number: Int, of bytes: some Collection<UInt8>) -> [Unicode.Scalar] {
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
        try YAMLEventStream.reading(bytes) { stream in
            while true {
                let (event, start) = try stream.next()
                if case .streamEnd = event { return }
                try handle(event, start)
            }
        }
    }
}

/// libyaml's events of one text, pulled one at a time, for readers that consume them as they
/// come: the document builder, and decoders that build the model without a document. Valid
/// only inside `reading`, which keeps the text in place while libyaml reads it lazily. A text
/// in the subset `YAMLSubsetScanner` reads exactly is read by it instead, in one pass, and
/// libyaml is not started.
final class YAMLEventStream {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The scanner's events when it read the text, served in order from `nextScanned`; empty
    /// when libyaml reads it (the scanner's events always hold the stream's start and end).
    private let scanned: [YAMLSubsetScanner.Record]
    private var nextScanned = 0
    /// libyaml's parser, for a text the scanner refused.
    private let parser: UnsafeMutablePointer<yaml_parser_t>?
    /// The last event libyaml read, in memory of its own: a stored `var` of a class is checked
    /// for exclusive access at each `&`, twice an event.
    private let event: UnsafeMutablePointer<yaml_event_t>?
    /// Whether `event` holds an event libyaml allocated, deleted before the next is read.
    private var holdsEvent = false
    /// Collections open after the last event read.
    private(set) var depth = 0
    /// Whether the text can be read: libyaml fails to set its parser up only when memory runs out.
    private let started: Bool

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        scanned = YAMLSubsetScanner.events(bytes) ?? []
        if !scanned.isEmpty {
            (parser, event, started) = (nil, nil, true)
            return
        }
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
        event.initialize(to: yaml_event_t())
        started = yaml_parser_initialize(parser) == 1
        if started { yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count) }
        (self.parser, self.event) = (parser, event)
    }

    deinit {
        guard let parser, let event else { return }
        if holdsEvent { yaml_event_delete(event) }
        event.deallocate()
        if started { yaml_parser_delete(parser) }
        parser.deallocate()
    }

    /// Runs `body` over the events of `bytes`; the stream must not outlive it.
    static func reading<Result>(_ bytes: [UInt8], _ body: (YAMLEventStream) throws -> Result) throws -> Result {
        try bytes.withUnsafeBufferPointer { buffer in
            let stream = YAMLEventStream(buffer)
            guard stream.started else {
                throw YAMLParser.ParseFailure(id: .yamlSyntax, message: "libyaml could not start", line: 1, column: 1)
            }
            return try body(stream)
        }
    }

    /// The next event and its 1-based start mark (line, column). A scalar's bytes are valid
    /// until the next call. Stream starts and document ends are skipped; after `.streamEnd`
    /// there is nothing more to read.
    func next() throws -> (YAMLParser.Event, (Int, Int)) {
        let (read, start) = try scanned.isEmpty ? nextParsed() : nextRecord()
        switch read {
        case .mappingStart, .sequenceStart: depth += 1
        case .mappingEnd, .sequenceEnd: depth -= 1
        case .documentStart, .scalar, .alias, .streamEnd: break
        }
        return (read, start)
    }

    private func nextRecord() -> (YAMLParser.Event, (Int, Int)) {
        while true {
            let record = scanned[nextScanned]
            let read: YAMLParser.Event
            switch record.kind {
            case .streamStart, .documentEnd:
                nextScanned += 1
                continue
            case .streamEnd: read = .streamEnd
            case .documentStart: read = .documentStart
            case .mappingStart: read = .mappingStart(anchored: false)
            case .mappingEnd: read = .mappingEnd
            case .sequenceStart: read = .sequenceStart(anchored: false)
            case .sequenceEnd: read = .sequenceEnd
            case .scalar:
                read = .scalar(
                    UnsafeBufferPointer(rebasing: bytes[Int(record.first)..<Int(record.end)]),
                    style: record.style == .plain ? .plain : .quoted, tag: nil, anchored: false)
            }
            if record.kind != .streamEnd { nextScanned += 1 }
            return (read, (Int(record.startLine), Int(record.startColumn)))
        }
    }

    private func nextParsed() throws -> (YAMLParser.Event, (Int, Int)) {
        guard let parser, let event else { preconditionFailure("libyaml reads only a text the scanner refused") }
        while true {
            if holdsEvent {
                yaml_event_delete(event)
                holdsEvent = false
            }
            guard yaml_parser_parse(parser, event) == 1 else {
                let p = parser.pointee
                let problem = p.problem.map { String(cString: $0) } ?? "unreadable YAML"
                let context = p.context.map { " (\(String(cString: $0)))" } ?? ""
                let (line, column) = (Int(p.problem_mark.line) + 1, Int(p.problem_mark.column) + 1)
                throw YAMLParser.ParseFailure(
                    id: .yamlSyntax, message: problem + context, line: line, column: column,
                    hint: YAMLParser.syntaxHint(
                        problem + context, line: YAMLParser.line(line, of: bytes), column: column))
            }
            holdsEvent = true
            let event = event.pointee
            let start = (Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1)
            switch event.type {
            case YAML_STREAM_END_EVENT: return (.streamEnd, start)
            case YAML_DOCUMENT_START_EVENT: return (.documentStart, start)
            case YAML_MAPPING_START_EVENT:
                return (.mappingStart(anchored: event.data.mapping_start.anchor != nil), start)
            case YAML_MAPPING_END_EVENT: return (.mappingEnd, start)
            case YAML_SEQUENCE_START_EVENT:
                return (.sequenceStart(anchored: event.data.sequence_start.anchor != nil), start)
            case YAML_SEQUENCE_END_EVENT: return (.sequenceEnd, start)
            case YAML_SCALAR_EVENT:
                let data = event.data.scalar
                let bytes = UnsafeBufferPointer(start: data.value, count: Int(data.length))
                let style: YAMLScalar.Style =
                    switch data.style {
                    case YAML_PLAIN_SCALAR_STYLE: .plain
                    case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE: .block
                    default: .quoted
                    }
                return (.scalar(bytes, style: style, tag: Self.string(data.tag), anchored: data.anchor != nil), start)
            case YAML_ALIAS_EVENT: return (.alias(Self.string(event.data.alias.anchor) ?? ""), start)
            default: continue
            }
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}

/// Turns the event stream into a `YAMLDocument`, reporting what the limits forbid.
private struct DocumentBuilder {
    /// An open mapping or list.
    struct Frame {
        let node: Int32
        let isMapping: Bool
        /// Where its children start in `open`.
        let firstChild: Int
        /// Each key and where it was first written, kept only once the mapping has more than a
        /// few pairs: smaller mappings (nearly all) are scanned, with no hashing or allocation.
        var keyIndex: [String: SourceLocation]?
    }

    let file: String
    let maximumDepth: Int
    var nodes: [YAMLDocument.Record] = []
    var children: [Int32] = []
    var text: [UInt8] = []
    var tags: [Int32: String] = [:]
    var stack: [Frame] = []
    /// The children of every open collection, each one's after its parent's: a collection's are
    /// moved to `children` when it ends, so each collection's children are contiguous there.
    var open: [Int32] = []
    var documents = 0
    var diagnostics: [Diagnostic] = []

    init(file: String, maximumDepth: Int, inputBytes: Int) {
        self.file = file
        self.maximumDepth = maximumDepth
        // The scalars' bytes are about the input's at most, and a node takes a few bytes of it.
        text.reserveCapacity(inputBytes)
        nodes.reserveCapacity(inputBytes / 16)
        children.reserveCapacity(inputBytes / 16)
    }

    /// The document, `nil` when it holds no node.
    func document() -> YAMLDocument? {
        nodes.isEmpty ? nil : YAMLDocument(file: file, nodes: nodes, children: children, text: text, tags: tags)
    }

    /// A mapping expecting a key: a collection here would be a complex key.
    private var expectsKey: Bool {
        guard let top = stack.last, top.isMapping else { return false }
        return (open.count - top.firstChild) % 2 == 0
    }

    mutating func consume(_ event: YAMLParser.Event, at mark: (Int, Int)) throws {
        switch event {
        case .documentStart:
            documents += 1
            if documents > 1 {
                throw YAMLParser.ParseFailure(
                    id: .multipleDocuments, message: "a configuration file holds one YAML document",
                    line: mark.0, column: mark.1, hint: "remove the `---` separator, or split the file")
            }
        case .mappingStart(let anchored), .sequenceStart(let anchored):
            if anchored { try refuseAnchor(at: mark) }
            if stack.count >= maximumDepth {
                throw YAMLParser.ParseFailure(
                    id: .nestingTooDeep, message: "nesting deeper than \(maximumDepth) levels",
                    line: mark.0, column: mark.1, hint: "configuration files never need this depth; flatten the value")
            }
            let isMapping: Bool
            if case .mappingStart = event { isMapping = true } else { isMapping = false }
            try requireValuePosition(at: mark, kind: isMapping ? "a mapping" : "a list")
            let node = append(mark, first: 0, count: 0, kind: isMapping ? .mapping : .sequence)
            stack.append(Frame(node: node, isMapping: isMapping, firstChild: open.count))
        case .mappingEnd, .sequenceEnd:
            guard let frame = stack.popLast() else { return }
            nodes[Int(frame.node)].first = Int32(children.count)
            nodes[Int(frame.node)].count = Int32(open.count - frame.firstChild)
            children.append(contentsOf: open[frame.firstChild...])
            open.removeSubrange(frame.firstChild...)
        case .scalar(let bytes, let style, let tag, let anchored):
            if anchored { try refuseAnchor(at: mark) }
            if expectsKey { checkKey(bytes, at: mark) }
            let node = append(mark, first: Int32(text.count), count: Int32(bytes.count), kind: .init(style))
            text.append(contentsOf: bytes)
            if let tag { tags[node] = tag }
        case .alias(let name):
            throw YAMLParser.ParseFailure(
                id: .yamlAlias,
                message: "YAML aliases (*\(PrintableText.excerpt(name))) are not allowed in configuration files",
                line: mark.0, column: mark.1, hint: "write the value out where it is used")
        case .streamEnd:
            break
        }
    }

    /// Adds a node, as a child of the open collection if there is one.
    private mutating func append(
        _ mark: (Int, Int), first: Int32, count: Int32, kind: YAMLDocument.Record.Kind
    ) -> Int32 {
        let node = Int32(nodes.count)
        nodes.append(
            YAMLDocument.Record(line: Int32(mark.0), column: Int32(mark.1), first: first, count: count, kind: kind))
        if !stack.isEmpty { open.append(node) }
        return node
    }

    /// Reports a key the open mapping already has (libyaml accepts duplicates silently).
    private mutating func checkKey(_ bytes: UnsafeBufferPointer<UInt8>, at mark: (Int, Int)) {
        let top = stack.count - 1
        let (nodes, open) = (nodes, open)
        let keys = stride(from: stack[top].firstChild, to: open.count, by: 2).lazy.map { nodes[Int(open[$0])] }
        var first: SourceLocation?
        if stack[top].keyIndex == nil && (open.count - stack[top].firstChild) / 2 < 16 {
            first = keys.first { text[$0.bytes].elementsEqual(bytes) }?.location(in: file)
        } else {
            if stack[top].keyIndex == nil {
                var index: [String: SourceLocation] = [:]
                for key in keys {
                    let name = String(decoding: text[key.bytes], as: UTF8.self)
                    if index[name] == nil { index[name] = key.location(in: file) }
                }
                stack[top].keyIndex = index
            }
            let key = String(decoding: bytes, as: UTF8.self)
            first = stack[top].keyIndex![key]
            if first == nil { stack[top].keyIndex![key] = SourceLocation(file: file, line: mark.0, column: mark.1) }
        }
        guard let first else { return }
        let key = String(decoding: bytes, as: UTF8.self)
        diagnostics.append(
            Diagnostic(
                .duplicateKey,
                "duplicate key \(PrintableText.quoted(key)) (first written at line \(first.line), column \(first.column))",
                at: SourceLocation(file: file, line: mark.0, column: mark.1), hint: "keep one of the two entries"))
    }

    private func refuseAnchor(at mark: (Int, Int)) throws {
        throw YAMLParser.ParseFailure(
            id: .yamlAlias, message: "YAML anchors (&name) are not allowed in configuration files",
            line: mark.0, column: mark.1, hint: "remove the anchor and write values out where they are used")
    }

    /// A mapping or list can only be a value: as a key it would be a complex key.
    private func requireValuePosition(at mark: (Int, Int), kind: String) throws {
        if expectsKey {
            throw YAMLParser.ParseFailure(
                id: .complexKey, message: "\(kind) cannot be used as a key", line: mark.0, column: mark.1,
                hint: "keys are plain strings")
        }
    }
}
