import Testing

@testable import LinkwrightCore

/// `JSON.rendered()` writes bytes straight into an array, with its own digits and indentation:
/// it must give the text a plain renderer builds from `String`s, for seeded values nested deeper
/// than one slice of indentation, and integers at their ends.
@Suite struct JSONRenderingTests {
    private static let integers = [0, 1, -1, 9, 10, -10, 42, 1_000_000, Int.max, Int.min, Int.max - 1, Int.min + 1]
    private static let texts = ["", "plain", "quote\"d", "new\nline", "\u{1}", "café", "line\u{2028}sep"]

    private static func value(_ generator: inout SplitMix64, depth: Int) -> JSON {
        let count = Int.random(in: 0...3, using: &generator)
        switch depth == 0 ? Int.random(in: 0...3, using: &generator) : Int.random(in: 0...5, using: &generator) {
        case 0: return .string(texts.randomElement(using: &generator)!)
        case 1:
            return .int(
                Bool.random(using: &generator)
                    ? integers.randomElement(using: &generator)! : Int.random(in: Int.min...Int.max, using: &generator))
        case 2: return Bool.random(using: &generator) ? .bool(Bool.random(using: &generator)) : .null
        case 3: return depth == 0 ? .array([]) : .array([value(&generator, depth: depth - 1)])
        case 4: return .array((0..<count).map { _ in value(&generator, depth: depth - 1) })
        default:
            return .object(
                (0..<count).map { _ in (texts.randomElement(using: &generator)!, value(&generator, depth: depth - 1)) })
        }
    }

    /// The text as a reader expects it, pieced together from strings.
    private static func plain(_ value: JSON, indent: Int) -> String {
        let inner = String(repeating: " ", count: indent + 2)
        switch value {
        case .array(let items) where !items.isEmpty:
            return "[\n" + items.map { inner + plain($0, indent: indent + 2) }.joined(separator: ",\n") + "\n"
                + String(repeating: " ", count: indent) + "]"
        case .object(let members) where !members.isEmpty:
            return "{\n"
                + members.map { inner + JSON.string($0.0).renderedCompact() + ": " + plain($0.1, indent: indent + 2) }
                .joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent) + "}"
        case .int(let number): return String(number)
        case .array, .object, .null, .bool, .string: return value.renderedCompact()
        }
    }

    @Test func seededValuesRenderAsPlainText() {
        for seed in 0..<400 {
            var generator = SplitMix64(seed: UInt64(seed))
            let json = Self.value(&generator, depth: seed % 45)
            #expect(json.rendered() == Self.plain(json, indent: 0) + "\n", "seed \(seed)")
        }
    }

    /// Forty levels indent by more than one slice of spaces.
    @Test func deepValuesRenderAsPlainText() {
        for seed in 0..<20 {
            var generator = SplitMix64(seed: UInt64(seed))
            let json = (0..<40).reduce(Self.value(&generator, depth: 3)) { inner, level in
                level.isMultiple(of: 2) ? .array([inner, .int(level)]) : .object([("k", inner)])
            }
            #expect(json.rendered() == Self.plain(json, indent: 0) + "\n", "seed \(seed)")
        }
    }

    /// Scalars around every byte the string writer tests: escaped ones (controls, `"`, `\\`, DEL,
    /// C1 controls, U+2028–U+202E, U+2066–U+2069) and their neighbours sharing a leading byte.
    private static let scalars: [Unicode.Scalar] =
        [
            "a", "/", " ", "~", "\"", "\\", "\u{0}", "\n", "\r", "\t", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}",
            "\u{A0}", "\u{BF}", "\u{E9}", "\u{2000}", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202E}", "\u{202F}",
            "\u{2065}", "\u{2066}", "\u{2069}", "\u{206A}", "\u{2FFF}", "\u{4E2D}", "\u{FFFD}", "\u{1F600}",
        ]

    /// A string literal escaped scalar by scalar, as the writer's rule says.
    private static func plainLiteral(_ value: String) -> String {
        var literal = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case _ where PrintableText.isEscaped(scalar):
                let hex = String(scalar.value, radix: 16)
                literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// The writer appends the runs between escapes whole, past eight bytes at a time where none
    /// may begin one: the same text as escaping each scalar, counted as long as it is written,
    /// for seeded strings mixing escaped and plain scalars at every offset.
    @Test func seededStringsWriteAsPlainEscapes() {
        for seed in 0..<2000 {
            var generator = SplitMix64(seed: UInt64(seed))
            // From no plain ASCII to nine scalars in ten, so eight plain bytes are often together.
            let plainShare = seed % 10
            var value = ""
            for _ in 0..<Int.random(in: 0...(seed % 48), using: &generator) {
                value.unicodeScalars.append(
                    Int.random(in: 0..<10, using: &generator) < plainShare
                        ? "a" : Self.scalars.randomElement(using: &generator)!)
            }
            var bytes: [UInt8] = []
            JSON.writeString(value, to: &bytes)
            // Bytes, not strings: `String`'s `==` would take canonically equivalent texts as one.
            #expect(bytes == Array(Self.plainLiteral(value).utf8), "seed \(seed)")
            // Written in place by the document writer too.
            #expect(JSON.string(value).renderedBytes() == bytes + [UInt8(ascii: "\n")], "seed \(seed)")
            var counter = ByteCounter()
            JSON.writeString(value, to: &counter)
            #expect(counter.count == bytes.count, "seed \(seed)")
        }
    }

    /// A writer writes in place into room it owns: a copy writes apart from it.
    @Test func copiedWritersWriteApart() {
        var one = JSONWriter()
        one.writeLiteral("[")
        var other = one
        other.writeLiteral("1]")
        one.writeLiteral("2]")
        #expect(one.bytes == Array("[2]".utf8))
        #expect(other.bytes == Array("[1]".utf8))
    }

    @Test func integersRenderInDecimal() {
        for number in Self.integers {
            #expect(JSON.int(number).rendered() == "\(number)\n")
            #expect(JSON.array([.int(number)]).renderedCompact() == "[\(number)]")
        }
    }
}
