import Testing

@testable import LinkwrightCore

/// `AndroidTranslator.covering` bisects the sorted prefixes, reading each scope's UTF-8 in
/// place; it must keep what a scan of every prefix keeps, over seeded scope lists whose paths
/// share prefixes, end in slashes, and spell `é` both composed and decomposed (one `String`,
/// two byte sequences, which Android's `startsWith` tells apart).
@Suite struct ScopeCoveringTests {
    private static let pieces = ["/", "a", "b", "ab", "\u{E9}", "e\u{301}", "\u{1F600}"]

    private static func path(_ generator: inout SplitMix64) -> String {
        let count = Int.random(in: 0...4, using: &generator)
        return "/" + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    private static func scope(_ generator: inout SplitMix64) -> PathScope {
        let path = path(&generator)
        switch Int.random(in: 0..<5, using: &generator) {
        case 0, 1: return .path(path)
        case 2, 3: return .prefix(path)
        default: return .pattern(path + [".*", "\\\\.", "..", "*"].randomElement(using: &generator)! + "b")
        }
    }

    /// The scopes no prefix covers, each prefix compared with every scope.
    private static func scanned(_ ruleScopes: [PathScope]) -> [PathScope] {
        let scopes = ruleScopes.uniqued()
        let prefixes = scopes.compactMap { scope -> [UInt8]? in
            if case .prefix(let prefix) = scope { return Array(prefix.utf8) }
            return nil
        }
        func covered(_ text: String, properly: Bool) -> Bool {
            let bytes = Array(text.utf8)
            return prefixes.contains { bytes.starts(with: $0) && !(properly && $0 == bytes) }
        }
        return scopes.filter { scope in
            switch scope {
            case .path(let path): !covered(path, properly: false)
            case .prefix(let prefix): !covered(prefix, properly: true)
            case .pattern(let pattern):
                !covered(String(pattern.prefix { $0 != "." && $0 != "\\" && $0 != "*" }), properly: false)
            }
        }
    }

    @Test(arguments: 1...60)
    func keepsWhatAScanKeeps(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for round in 0..<20 {
            let ruleScopes = (0..<Int.random(in: 0...120, using: &generator)).map { _ in Self.scope(&generator) }
            #expect(AndroidTranslator.covering(ruleScopes) == Self.scanned(ruleScopes), "seed \(seed), round \(round)")
        }
    }
}
