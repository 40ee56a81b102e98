import Foundation
import LinkwrightCore
import Testing

@Suite struct YAMLParserTests {
    let parser = YAMLParser()

    @Test func keepsLineAndColumnOfEveryNode() throws {
        let (root, diagnostics) = parser.parse(
            Array("apps:\n  museo:\n    ios: {bundle_id: é.x}\n".utf8), file: "f.yaml")
        #expect(diagnostics.isEmpty)
        guard case .mapping(let top) = root?.content, case .mapping(let apps) = top[0].value.content,
            case .mapping(let museo) = apps[0].value.content, case .mapping(let ios) = museo[0].value.content
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(top[0].key.location == SourceLocation(file: "f.yaml", line: 1, column: 1))
        #expect(apps[0].key.location == SourceLocation(file: "f.yaml", line: 2, column: 3))
        #expect(ios[0].value.location == SourceLocation(file: "f.yaml", line: 3, column: 22))
    }

    /// Each syntax error's hint names its usual cause, not always tabs.
    @Test(arguments: [
        ("apps:\n\tmuseo: x\n", "indent with spaces"),
        ("apps:\n  museo:\n    ios: x\n  museo-clip\n    ios:\n      bundle_id: y\n", "write a key as `key: value`"),
        ("apps:\n  museo-clip\n  museo: x\n", "quote a value that holds `: `"),
        ("comment: Note: text\n", "quote a value that holds `: `"),
        ("path: `/x`\n", "quote the value: YAML reserves \"`\""),
        ("apps:\n    a: 1\n  b: 2\n", "line the keys of one mapping"),
        ("path: \"/x\n", "close the quote"),
    ])
    func syntaxErrorsSayTheirUsualCause(_ yaml: String, _ hint: String) throws {
        let (_, diagnostics) = parser.parse(Array(yaml.utf8), file: "f.yaml")
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.id == .yamlSyntax)
        #expect(diagnostic.hint?.hasPrefix(hint) == true, "\(diagnostic)")
    }

    @Test func columnsCountCharactersNotBytes() {
        let (root, _) = parser.parse(Array("ñandú: [a, b]\n".utf8), file: "f.yaml")
        guard case .mapping(let pairs) = root?.content, case .sequence(let items) = pairs[0].value.content else {
            Issue.record("unexpected shape")
            return
        }
        #expect(items[1].location.column == 12)
    }

    @Test func resolvesPlainScalarsWithTheYAML12CoreSchema() {
        let cases: [(String, YAMLScalar.Resolved)] = [
            ("true", .bool(true)), ("False", .bool(false)), ("yes", .string), ("no", .string), ("on", .string),
            ("~", .null), ("", .null), ("null", .null), ("42", .integer(42)), ("0x1F", .integer(31)),
            ("0o17", .integer(15)),
            ("1.5", .float), ("-2e3", .float), (".inf", .float), ("1.", .float), ("1.2.3", .string), ("e5", .string),
            ("-", .string), ("ABCDE12345", .string), ("NULL", .null), ("TRUE", .bool(true)), ("+.inf", .float),
            ("+1", .integer(1)), ("/p/1", .string), ("h0.d0.example", .string), ("nothing", .string),
            ("fals", .string), ("~x", .string),
        ]
        for (text, expected) in cases {
            #expect(YAMLScalar(text: text, style: .plain).resolved == expected, "\(text)")
        }
        #expect(YAMLScalar(text: "true", style: .quoted).resolved == .string)
        #expect(YAMLScalar(text: "1", style: .plain, tag: "tag:yaml.org,2002:str").resolved == .string)
    }

    @Test func refusesInvalidUTF8WithItsPosition() {
        var bytes = Array("a: b\nc: d".utf8)
        bytes.insert(0xC3, at: 8)
        let (root, diagnostics) = parser.parse(bytes, file: "f.yaml")
        #expect(root == nil)
        #expect(diagnostics.map(\.id) == [.invalidUTF8])
        #expect(diagnostics.first?.location == SourceLocation(file: "f.yaml", line: 2, column: 4))
    }

    @Test func refusesFilesOverTheSizeCapBeforeParsing() {
        let bytes = Array(repeating: UInt8(ascii: "#"), count: parser.maximumBytes + 1)
        let (_, diagnostics) = parser.parse(bytes, file: "big.yaml")
        #expect(diagnostics.map(\.id) == [.fileTooLarge])
    }

    @Test func aliasBombIsRefusedAtTheFirstAnchor() {
        // Nine levels of nine aliases each would expand to 9^9 scalars in a naive loader.
        var text = "l0: &l0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let aliases = Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ")
            text += "l\(level): &l\(level) [\(aliases)]\n"
        }
        let (root, diagnostics) = parser.parse(Array(text.utf8), file: "bomb.yaml")
        #expect(root == nil)
        #expect(diagnostics.map(\.id) == [.yamlAlias])
    }

    @Test func deepFlowNestingIsCutAtTheCap() {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let (_, diagnostics) = parser.parse(Array(text.utf8), file: "deep.yaml")
        #expect(diagnostics.map(\.id) == [.nestingTooDeep])
        #expect(diagnostics.first?.location?.column == parser.maximumDepth + 1)
    }

    @Test func reportsEveryDuplicateKeyNotJustTheFirst() {
        let (_, diagnostics) = parser.parse(Array("a: 1\nb: 2\na: 3\nm: {x: 1, x: 2}\nb: 4\n".utf8), file: "f.yaml")
        #expect(diagnostics.map(\.id) == [.duplicateKey, .duplicateKey, .duplicateKey])
        #expect(diagnostics.compactMap(\.location?.line) == [3, 4, 5])
    }

    @Test func findsDuplicatesInMappingsSmallAndBigAlike() {
        // Past 16 keys a mapping keeps an index of its keys instead of scanning them: a duplicate
        // of an early key must be found on both sides of that change, named with its first line.
        var lines = (0..<40).map { "k\($0): \($0)" }
        lines.insert("k3: again", at: 10)
        lines.insert("k3: and again", at: 30)
        lines.append("k39: last")
        let (_, diagnostics) = parser.parse(Array(lines.joined(separator: "\n").utf8), file: "f.yaml")
        #expect(diagnostics.map(\.id) == [.duplicateKey, .duplicateKey, .duplicateKey])
        #expect(diagnostics.compactMap(\.location?.line) == [11, 31, 43])
        #expect(diagnostics.map(\.message).filter { $0.contains("first written at line 4,") }.count == 2)
        #expect(diagnostics.last?.message.contains("first written at line 42,") == true)
    }

    @Test(arguments: [[0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0x80]] as [[UInt8]])
    func refusesEveryKindOfInvalidUTF8(_ invalid: [UInt8]) {
        // A surrogate, an overlong form, a scalar past U+10FFFF and a stray continuation byte.
        let bytes = Array("a: ok\nb: é".utf8) + invalid
        let (root, diagnostics) = parser.parse(bytes, file: "f.yaml")
        #expect(root == nil)
        #expect(diagnostics.first?.location == SourceLocation(file: "f.yaml", line: 2, column: 5))
    }

    /// A value as a test writes it and reads it back: the document's flat layout must give back
    /// every collection's children, in order, under the right parent.
    indirect enum Shape: Equatable {
        case scalar(String, YAMLScalar.Style)
        case mapping([String], [Shape])
        case list([Shape])

        init(_ node: YAMLNode) {
            switch node.content {
            case .scalar(let scalar): self = .scalar(scalar.text, scalar.style)
            case .mapping(let pairs): self = .mapping(pairs.map(\.key.value), pairs.map { Shape($0.value) })
            case .sequence(let items): self = .list(items.map(Shape.init))
            }
        }

        static func random(depth: Int, flow: Bool, using generator: inout SplitMix64) -> Shape {
            let pick = depth == 0 ? 0 : Int.random(in: 0..<6, using: &generator)
            switch pick {
            case 0, 1, 2:
                let word = "w\(Int.random(in: 0..<1000, using: &generator))"
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: return .scalar(word, .plain)
                case 1: return .scalar("\(word): \"x\" #y", .quoted)
                default: return flow ? .scalar(word + " z", .quoted) : .scalar("\(word)\nsecond line\n", .block)
                }
            case 3, 4:
                let count = Int.random(in: 0..<5, using: &generator)
                return .mapping(
                    (0..<count).map { "k\($0)" },
                    (0..<count).map { _ in random(depth: depth - 1, flow: flow, using: &generator) })
            default:
                return .list(
                    (0..<Int.random(in: 0..<5, using: &generator)).map { _ in
                        random(depth: depth - 1, flow: flow, using: &generator)
                    })
            }
        }

        /// Flow style: `{k0: [a, "b c"]}`.
        var flow: String {
            switch self {
            case .scalar(let text, let style):
                return style == .plain ? text : "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
            case .mapping(let keys, let values):
                return "{" + zip(keys, values).map { "\($0): \($1.flow)" }.joined(separator: ", ") + "}"
            case .list(let items):
                return "[" + items.map(\.flow).joined(separator: ", ") + "]"
            }
        }

        /// Block style, as the value after `key:` or `-` at `indent`.
        func block(indent: Int) -> String {
            let pad = String(repeating: "  ", count: indent)
            switch self {
            case .scalar(_, .block):
                guard case .scalar(let text, _) = self else { return "" }
                return " |\n" + text.split(separator: "\n").map { pad + $0 + "\n" }.joined()
            case .scalar, .mapping([], _), .list([]):
                return " " + flow + "\n"
            case .mapping(let keys, let values):
                return "\n" + zip(keys, values).map { pad + $0 + ":" + $1.block(indent: indent + 1) }.joined()
            case .list(let items):
                return "\n" + items.map { pad + "-" + $0.block(indent: indent + 1) }.joined()
            }
        }
    }

    @Test(arguments: [false, true])
    func aDocumentGivesBackEveryNodeUnderItsParentInOrder(flow: Bool) throws {
        var generator = SplitMix64(seed: flow ? 7 : 11)
        for _ in 0..<200 {
            let keys = (0..<Int.random(in: 1..<4, using: &generator)).map { "top\($0)" }
            let values = keys.map { _ in Shape.random(depth: 4, flow: flow, using: &generator) }
            let shape = Shape.mapping(keys, values)
            let text = flow ? shape.flow + "\n" : String(shape.block(indent: 0).dropFirst())
            let (root, diagnostics) = parser.parse(Array(text.utf8), file: "f.yaml")
            #expect(diagnostics.isEmpty, "\(text)")
            #expect(try Shape(#require(root)) == shape, "\(text)")
        }
    }

    @Test func explicitTagsDecideWhatAScalarIs() throws {
        let (root, _) = parser.parse(Array("a: !!str 1\nb: 1\nc: !!null x\n".utf8), file: "f.yaml")
        guard case .mapping(let pairs) = try #require(root).content else {
            Issue.record("unexpected shape")
            return
        }
        let resolved = pairs.map { pair -> YAMLScalar.Resolved? in
            if case .scalar(let scalar) = pair.value.content { return scalar.resolved }
            return nil
        }
        #expect(resolved == [.string, .integer(1), .null])
    }

    @Test func aNodeEqualsItselfOnlyNotAnotherOfTheSameText() throws {
        let (root, _) = parser.parse(Array("a: x\nb: x\n".utf8), file: "f.yaml")
        guard case .mapping(let pairs) = try #require(root).content else {
            Issue.record("unexpected shape")
            return
        }
        #expect(pairs[0].value == pairs[0].value)
        #expect(pairs[0].value != pairs[1].value)
    }

    @Test func anEmptyDocumentHasNoRoot() {
        let (root, diagnostics) = parser.parse(Array("# only a comment\n".utf8), file: "f.yaml")
        #expect(root == nil)
        #expect(diagnostics.isEmpty)
    }
}
