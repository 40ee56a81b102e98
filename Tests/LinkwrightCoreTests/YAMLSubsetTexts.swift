import CYaml

@testable import LinkwrightCore

/// One event with everything libyaml says of it that the subset scanner must reproduce.
struct ObservedYAMLEvent: Equatable, CustomStringConvertible {
    var kind: String
    /// libyaml's raw style: 1 plain, 2 single-quoted, 3 double-quoted, 4 literal, 5 folded for
    /// scalars; 1 block, 2 flow for collections; 0 otherwise.
    var style: Int
    var value: [UInt8]
    var tagged: Bool
    var anchored: Bool
    var start: [Int]
    var end: [Int]

    var description: String {
        "\(kind) \(start)-\(end) style=\(style) \(String(decoding: value, as: UTF8.self).debugDescription)"
            + (tagged ? " tagged" : "") + (anchored ? " anchored" : "")
    }

    /// Every event libyaml reads from `text`, nil when it reports an error.
    static func libyaml(_ text: [UInt8]) -> [ObservedYAMLEvent]? {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else { return nil }
        defer { yaml_parser_delete(parser) }
        return text.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            var events: [ObservedYAMLEvent] = []
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                var observed = ObservedYAMLEvent(
                    kind: "", style: 0, value: [], tagged: false, anchored: false,
                    start: [Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1],
                    end: [Int(event.end_mark.line) + 1, Int(event.end_mark.column) + 1])
                switch event.type {
                case YAML_STREAM_START_EVENT: observed.kind = "stream-start"
                case YAML_STREAM_END_EVENT: observed.kind = "stream-end"
                case YAML_DOCUMENT_START_EVENT: observed.kind = "document-start"
                case YAML_DOCUMENT_END_EVENT: observed.kind = "document-end"
                case YAML_ALIAS_EVENT: observed.kind = "alias"
                case YAML_MAPPING_START_EVENT:
                    let data = event.data.mapping_start
                    observed.kind = "mapping-start"
                    observed.style = Int(data.style.rawValue)
                    (observed.tagged, observed.anchored) = (data.tag != nil, data.anchor != nil)
                case YAML_MAPPING_END_EVENT: observed.kind = "mapping-end"
                case YAML_SEQUENCE_START_EVENT:
                    let data = event.data.sequence_start
                    observed.kind = "sequence-start"
                    observed.style = Int(data.style.rawValue)
                    (observed.tagged, observed.anchored) = (data.tag != nil, data.anchor != nil)
                case YAML_SEQUENCE_END_EVENT: observed.kind = "sequence-end"
                case YAML_SCALAR_EVENT:
                    let data = event.data.scalar
                    observed.kind = "scalar"
                    observed.style = Int(data.style.rawValue)
                    observed.value = Array(UnsafeBufferPointer(start: data.value, count: Int(data.length)))
                    (observed.tagged, observed.anchored) = (data.tag != nil, data.anchor != nil)
                default: observed.kind = "none"
                }
                events.append(observed)
                if event.type == YAML_STREAM_END_EVENT { return events }
            }
        }
    }

    /// The subset scanner's events for `text`, nil when it refuses the text.
    static func scanner(_ text: [UInt8]) -> [ObservedYAMLEvent]? {
        guard let records = text.withUnsafeBufferPointer({ YAMLSubsetScanner.events($0) }) else { return nil }
        return records.map { record in
            let kind: String
            switch record.kind {
            case .streamStart: kind = "stream-start"
            case .streamEnd: kind = "stream-end"
            case .documentStart: kind = "document-start"
            case .documentEnd: kind = "document-end"
            case .mappingStart: kind = "mapping-start"
            case .mappingEnd: kind = "mapping-end"
            case .sequenceStart: kind = "sequence-start"
            case .sequenceEnd: kind = "sequence-end"
            case .scalar: kind = "scalar"
            }
            let style: Int
            switch record.style {
            case .none: style = 0
            case .plain, .block: style = 1
            case .singleQuoted, .flow: style = 2
            case .doubleQuoted: style = 3
            }
            return ObservedYAMLEvent(
                kind: kind, style: style, value: Array(text[Int(record.first)..<Int(record.end)]), tagged: false,
                anchored: false, start: [Int(record.startLine), Int(record.startColumn)],
                end: [Int(record.endLine), Int(record.endColumn)])
        }
    }
}

/// Seeded configuration-shaped YAML texts, and hostile mutations of them, for comparing the
/// subset scanner with libyaml.
struct YAMLSubsetTexts {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    private mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }
    private mutating func spaces(_ range: ClosedRange<Int>) -> String {
        String(repeating: " ", count: Int.random(in: range, using: &random))
    }

    private static let words = [
        "path", "apps", "rules", "query", "ref", "exclude", "true", "false", "null", "~", "on", "yes", "123", "1.5",
        "-7", "0x1F", "app0", "a b", "a#b", "a:b", "$(section)", "com.example.app", "k.k.k", "-x", "x-y", "_", "y",
        "a,b", "a[0]", "a{b}", "it's", "say\"hi\"", "a  b", "<<", "=", "/", "-1a",
    ]
    private static let values = [
        "/account0", "/$(section)/orders2/*", "/videos10/?*", "https://example.com/a?b=c#d", "ABCDE10002",
        "com.example.app0.development", "d0", "131072", "true", "x # not a comment?", "a: b", "?*", "", " lead",
        "trail ", "it is", "é", "a\\b", "-", "--", "-a", ":x", "x:", "@x", "`x`", "%x", "!x", "&x", "*x", "|", ">",
    ]

    private mutating func key() -> String {
        let word = pick(Self.words)
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return "\"\(pick(Self.values))\""
        case 1: return "'\(pick(Self.values))'"
        default: return word
        }
    }

    private mutating func flowScalar() -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return "\"\(pick(Self.values))\""
        case 1: return "'\(pick(Self.values))'"
        default: return pick(["app0", "app1", "ios", "android", "1", "a b", "x-y", "/p/*", "$(s)", "a.b"])
        }
    }

    private mutating func flow() -> String {
        let count = Int.random(in: 0...3, using: &random)
        let gap = chance(20) ? spaces(0...2) : ""
        if chance(50) {
            let items = (0..<count).map { _ in flowScalar() }
            return "[" + gap + items.joined(separator: pick([", ", ",", " , "])) + gap + "]"
        }
        let pairs = (0..<count).map { _ in flowScalar() + pick([": ", ":  ", " : "]) + flowScalar() }
        return "{" + gap + pairs.joined(separator: pick([", ", ","])) + gap + "}"
    }

    private mutating func scalar() -> String {
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1: return "\"\(pick(Self.values))\""
        case 2: return "'\(pick(Self.values))'"
        case 3: return flow()
        case 4: return pick(Self.words)
        default: return pick(Self.values.prefix(10).filter { !$0.isEmpty })
        }
    }

    private mutating func lineEnd() -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return spaces(1...3) + "# " + pick(["note", "a: b", "#", ""])
        case 1: return spaces(1...2)
        default: return ""
        }
    }

    private mutating func filler(_ lines: inout [String]) {
        if chance(8) { lines.append(spaces(0...6) + "# comment" + (chance(30) ? ": x" : "")) }
        if chance(8) { lines.append(spaces(0...6)) }
    }

    /// The pairs of a block mapping at `indent`, its first written after `lead` when given.
    private mutating func pairs(indent: Int, depth: Int, lead: String?, into lines: inout [String]) {
        let step = pick([2, 2, 2, 4, 1])
        for index in 0..<Int.random(in: 1...4, using: &random) {
            let prefix = (index == 0 ? lead : nil) ?? String(repeating: " ", count: indent)
            let head = prefix + key() + ":"
            switch depth > 3 ? Int.random(in: 0...1, using: &random) : Int.random(in: 0...5, using: &random) {
            case 0: lines.append(head + spaces(1...2) + scalar() + lineEnd())
            case 1: lines.append(head + lineEnd())
            case 2:
                lines.append(head + lineEnd())
                filler(&lines)
                pairs(indent: indent + step, depth: depth + 1, lead: nil, into: &lines)
            case 3:
                lines.append(head + lineEnd())
                entries(indent: indent + step, depth: depth + 1, lead: nil, into: &lines)
            case 4:
                lines.append(head + lineEnd())
                entries(indent: indent, depth: depth + 1, lead: nil, into: &lines)
            default: lines.append(head + " " + flow() + lineEnd())
            }
            filler(&lines)
        }
    }

    /// The items of a block list whose `-` are at `indent`, the first written after `lead` when given.
    private mutating func entries(indent: Int, depth: Int, lead: String?, into lines: inout [String]) {
        for index in 0..<Int.random(in: 1...4, using: &random) {
            let prefix = (index == 0 ? lead : nil) ?? String(repeating: " ", count: indent)
            let dash = prefix + "-"
            let gap = chance(85) ? " " : spaces(2...3)
            switch depth > 3 ? Int.random(in: 0...1, using: &random) : Int.random(in: 0...5, using: &random) {
            case 0: lines.append(dash + gap + scalar() + lineEnd())
            case 1: lines.append(dash + lineEnd())
            case 2: pairs(indent: dash.count + gap.count, depth: depth + 1, lead: dash + gap, into: &lines)
            case 3:
                lines.append(dash + lineEnd())
                pairs(indent: indent + pick([1, 2, 4]), depth: depth + 1, lead: nil, into: &lines)
            case 4: entries(indent: dash.count + gap.count, depth: depth + 1, lead: dash + gap, into: &lines)
            default:
                lines.append(dash + lineEnd())
                entries(indent: indent + pick([1, 2]), depth: depth + 1, lead: nil, into: &lines)
            }
            filler(&lines)
        }
    }

    /// A configuration-shaped document.
    mutating func document() -> String {
        var lines: [String] = []
        if chance(10) { lines.append("# header") }
        let indent = chance(90) ? 0 : Int.random(in: 1...2, using: &random)
        if chance(85) {
            pairs(indent: indent, depth: 0, lead: nil, into: &lines)
        } else {
            entries(indent: indent, depth: 0, lead: nil, into: &lines)
        }
        var text = lines.joined(separator: "\n")
        if chance(90) { text += "\n" }
        if chance(5) { text += pick(["\n", "  ", "# end", "\n  \n"]) }
        return text
    }

    /// Lines of every kind at random indents, mostly not a valid document: for the scanner's
    /// line-to-line decisions (which collection a line ends, continues or opens).
    mutating func lineSoup() -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            text += spaces(0...5)
            switch Int.random(in: 0..<9, using: &random) {
            case 0: text += key() + ": " + scalar()
            case 1: text += key() + ":"
            case 2: text += "- " + scalar()
            case 3: text += "-"
            case 4: text += "- " + key() + ": " + scalar()
            case 5: text += "- " + key() + ":"
            case 6: text += pick(["- -", "- - " + scalar(), "-  - " + key() + ":"])
            case 7: text += pick(["# c", "", scalar()])
            default: text += key() + ": " + flow()
            }
            text += lineEnd()
            if chance(90) { text += "\n" }
        }
        return text
    }

    private static let hostile = [
        "\t", "\r", "\r\n", "#", " #", ":", ": ", " ", "  ", "-", "- ", "- - ", "'", "\"", "\\", "''", "&a ", "*a",
        "!t ", "!!str ", "|", ">", "? ", "[", "]", "{", "}", ",", "%", "@", "`", "é", "\u{FEFF}", "\n", "\n\n",
        "---", "...", "--- ", "\u{0}", "\u{7F}", "\u{1}", "a: b", "x:", ":x", "~", "null", "123", "true",
    ]

    /// `text` with one to three hostile edits.
    mutating func mutated(_ text: String) -> String {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let position = Int.random(in: 0...characters.count, using: &random)
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1: characters.insert(contentsOf: pick(Self.hostile), at: position)
            case 2: if position < characters.count { characters.remove(at: position) }
            case 3:
                // Indents a line more or less.
                let lineStart = characters[..<position].lastIndex(of: "\n").map { $0 + 1 } ?? 0
                if chance(50) {
                    characters.insert(contentsOf: spaces(1...2), at: lineStart)
                } else if lineStart < characters.count && characters[lineStart] == " " {
                    characters.remove(at: lineStart)
                }
            case 4:
                characters.insert(
                    contentsOf: spaces(1...3), at: characters[position...].firstIndex(of: "\n") ?? characters.count)
            case 5: characters.insert(contentsOf: String(repeating: pick(["a", "a ", "/x"]), count: 700), at: position)
            case 6:
                let lines = String(characters).split(separator: "\n", omittingEmptySubsequences: false)
                let line = Int.random(in: 0..<lines.count, using: &random)
                var copy = lines
                copy.insert(lines[line], at: Int.random(in: 0...lines.count, using: &random))
                characters = Array(copy.joined(separator: "\n"))
            default:
                if characters.last == "\n" { characters.removeLast() } else { characters.append("\n") }
            }
        }
        return String(characters)
    }
}
