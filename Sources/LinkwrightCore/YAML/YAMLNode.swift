/// A parsed YAML document: every node in one array, in document order, and every scalar's
/// bytes in one buffer.
///
/// Built from libyaml's event stream by `YAMLParser`; aliases are refused there, so the tree is
/// always finite and its size is bounded by the input size. Flat rather than a tree of values:
/// a configuration of 100,000 expectations has half a million nodes, and a node of its own per
/// value (an enum holding its text, its file name and its children's array) cost as much to build
/// and free as libyaml took to parse the file (`docs/performance.md`).
public final class YAMLDocument: Sendable {
    public let file: String
    let nodes: [Record]
    /// The children of every collection, each collection's contiguous; a mapping's are its keys
    /// and values in turn.
    let children: [Int32]
    /// Every scalar's bytes, each scalar's contiguous.
    let text: [UInt8]
    /// Explicit tags (`!!str`), by node; nearly every document has none.
    let tags: [Int32: String]

    struct Record {
        enum Kind: UInt8 {
            case plain, quoted, block, mapping, sequence

            init(_ style: YAMLScalar.Style) {
                switch style {
                case .plain: self = .plain
                case .quoted: self = .quoted
                case .block: self = .block
                }
            }

            /// A scalar's style; nil for a collection.
            var style: YAMLScalar.Style? {
                switch self {
                case .plain: .plain
                case .quoted: .quoted
                case .block: .block
                case .mapping, .sequence: nil
                }
            }
        }
        var line: Int32
        var column: Int32
        /// A scalar's first byte in `text`; a collection's first child in `children`.
        var first: Int32
        /// A scalar's length in bytes; the number of a collection's children.
        var count: Int32
        var kind: Kind

        /// A scalar's bytes in `text`.
        var bytes: Range<Int> { Int(first)..<Int(first + count) }

        func location(in file: String) -> SourceLocation {
            SourceLocation(file: file, line: Int(line), column: Int(column))
        }
    }

    init(file: String, nodes: [Record], children: [Int32], text: [UInt8], tags: [Int32: String]) {
        self.file = file
        self.nodes = nodes
        self.children = children
        self.text = text
        self.tags = tags
    }

    /// The first node written: the document's root.
    public var root: YAMLNode { YAMLNode(self, 0) }

    func location(_ index: Int32) -> SourceLocation { nodes[Int(index)].location(in: file) }

    func string(_ index: Int32) -> String {
        let bytes = nodes[Int(index)].bytes
        return text.withUnsafeBufferPointer { String(decoding: $0[bytes], as: UTF8.self) }
    }
}

/// One node of a `YAMLDocument`, which remembers where it was written. Two nodes are equal when
/// they are the same node of the same document.
public struct YAMLNode: Sendable, Equatable {
    public enum Content: Sendable {
        case scalar(YAMLScalar)
        case mapping(YAMLMapping)
        case sequence(YAMLSequence)
    }

    public let document: YAMLDocument
    let index: Int32

    init(_ document: YAMLDocument, _ index: Int32) {
        self.document = document
        self.index = index
    }

    public static func == (left: YAMLNode, right: YAMLNode) -> Bool {
        left.document === right.document && left.index == right.index
    }

    public var location: SourceLocation { document.location(index) }

    public var content: Content {
        let record = document.nodes[Int(index)]
        if let style = record.kind.style {
            let tag = document.tags.isEmpty ? nil : document.tags[index]
            return .scalar(YAMLScalar(text: document.string(index), style: style, tag: tag))
        }
        let children = YAMLSequence(node: self, record: record)
        return record.kind == .mapping ? .mapping(YAMLMapping(children: children)) : .sequence(children)
    }

    /// What kind of node this is, in words, for "expected X, found Y" messages, with an excerpt
    /// of a scalar's value.
    public var kindDescription: String { kindDescription(showingValue: true) }

    /// `kindDescription`, or without the value ("a string") for text that need not be configuration.
    public func kindDescription(showingValue: Bool) -> String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let scalar):
            switch scalar.resolved {
            case .null: return "an empty value"
            case .bool: return showingValue ? "the boolean \(scalar.text)" : "a boolean"
            case .integer, .float: return showingValue ? "the number \(PrintableText.excerpt(scalar.text))" : "a number"
            case .string: return showingValue ? "the string \(PrintableText.quoted(scalar.text))" : "a string"
            }
        }
    }
}

/// A list's items, in file order.
public struct YAMLSequence: RandomAccessCollection, Sendable {
    let node: YAMLNode
    let first: Int

    public let startIndex = 0
    public let endIndex: Int

    init(node: YAMLNode, record: YAMLDocument.Record) {
        self.node = node
        first = Int(record.first)
        endIndex = Int(record.count)
    }

    public subscript(position: Int) -> YAMLNode {
        YAMLNode(node.document, node.document.children[first + position])
    }
}

/// A mapping's `key: value` entries, in file order.
public struct YAMLMapping: RandomAccessCollection, Sendable {
    /// The keys and values in turn.
    let children: YAMLSequence

    public var startIndex: Int { 0 }
    public var endIndex: Int { children.count / 2 }

    public subscript(position: Int) -> YAMLPair {
        let key = children[2 * position]
        return YAMLPair(
            key: Located(key.document.string(key.index), at: key.location), value: children[2 * position + 1])
    }
}

/// One `key: value` entry of a mapping. Keys are scalars: complex keys are refused by the parser.
public struct YAMLPair: Sendable, Equatable {
    public var key: Located<String>
    public var value: YAMLNode
}

/// A scalar as written, with what the YAML 1.2 core schema makes of it.
public struct YAMLScalar: Sendable, Equatable {
    public enum Style: Sendable, Equatable {
        case plain
        case quoted
        case block
    }

    /// The YAML 1.2 core-schema type of the scalar. Quoted and block scalars are always strings.
    public enum Resolved: Sendable, Equatable {
        case null
        case bool(Bool)
        case integer(Int)
        case float
        case string
    }

    public var text: String
    public var style: Style
    public var tag: String?

    public init(text: String, style: Style, tag: String? = nil) {
        self.text = text
        self.style = style
        self.tag = tag
    }

    public var resolved: Resolved {
        if let tag {
            switch tag {
            case "tag:yaml.org,2002:str": return .string
            case "tag:yaml.org,2002:null": return .null
            default: break
            }
        }
        guard style == .plain else { return .string }
        return Self.resolvePlain(text)
    }

    /// YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution).
    static func resolvePlain(_ text: String) -> Resolved {
        // Nearly every value is a word, a host or a path: only a null, a boolean or a number can
        // start with one of these, so anything else is a string without trying each reading.
        guard let first = text.utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"),
            UInt8(ascii: "f"), UInt8(ascii: "F"):
            break
        default:
            return .string
        }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
            return .float
        default: break
        }
        if let value = Int(text) { return .integer(value) }
        if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) { return .integer(value) }
        if text.hasPrefix("0o"), let value = Int(text.dropFirst(2), radix: 8) { return .integer(value) }
        if isFloat(text) { return .float }
        return .string
    }

    private static func isFloat(_ text: String) -> Bool {
        // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
        var chars = Substring(text)
        if chars.first == "-" || chars.first == "+" { chars = chars.dropFirst() }
        let mantissaEnd = chars.firstIndex { $0 == "e" || $0 == "E" } ?? chars.endIndex
        let mantissa = chars[..<mantissaEnd]
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (s: Substring) in s.allSatisfy { $0.isASCII && $0.isNumber } }
        guard !mantissa.isEmpty, parts.allSatisfy(digits), parts.contains(where: { !$0.isEmpty }) else {
            return false
        }
        if parts.count == 2 && parts[1].isEmpty && parts[0].isEmpty { return false }
        guard mantissaEnd != chars.endIndex else { return parts.count == 2 }
        var exponent = chars[chars.index(after: mantissaEnd)...]
        if exponent.first == "-" || exponent.first == "+" { exponent = exponent.dropFirst() }
        return !exponent.isEmpty && digits(exponent)
    }
}
