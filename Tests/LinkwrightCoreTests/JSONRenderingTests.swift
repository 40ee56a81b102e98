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

    @Test func integersRenderInDecimal() {
        for number in Self.integers {
            #expect(JSON.int(number).rendered() == "\(number)\n")
            #expect(JSON.array([.int(number)]).renderedCompact() == "[\(number)]")
        }
    }
}
