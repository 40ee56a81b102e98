/// Orders tag names that look like versions (`v1.4`, `1.4.2`, `release-2.0.0-rc.1`) the way
/// semantic versioning does: numbers compare as numbers, a pre-release comes before its release.
public enum VersionOrder {
    public struct Version: Comparable, Sendable {
        public var numbers: [Int]
        /// The part after `-`, empty for a release.
        public var prerelease: [String]

        public static func < (lhs: Version, rhs: Version) -> Bool {
            let count = max(lhs.numbers.count, rhs.numbers.count)
            let left = lhs.numbers + Array(repeating: 0, count: count - lhs.numbers.count)
            let right = rhs.numbers + Array(repeating: 0, count: count - rhs.numbers.count)
            if left != right { return left.lexicographicallyPrecedes(right) }
            // A release sorts after its pre-releases (semver.org, rule 11).
            switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
            case (true, true): return false
            case (true, false): return false
            case (false, true): return true
            case (false, false):
                for (a, b) in zip(lhs.prerelease, rhs.prerelease) where a != b {
                    switch (Int(a), Int(b)) {
                    case (let x?, let y?): return x < y
                    case (.some, nil): return true
                    case (nil, .some): return false
                    case (nil, nil): return a < b
                    }
                }
                return lhs.prerelease.count < rhs.prerelease.count
            }
        }
    }

    /// The version a tag names, or `nil` when it does not look like one: an optional word prefix
    /// (`v`, `release-`), dot-separated numbers, an optional `-prerelease` and `+build`.
    public static func version(of tag: String) -> Version? {
        var text = Substring(tag)
        while let first = text.first, first.isLetter || first == "-" || first == "_" || first == "/" {
            text.removeFirst()
        }
        if let plus = text.firstIndex(of: "+") { text = text[..<plus] }
        var prerelease: [String] = []
        if let dash = text.firstIndex(of: "-") {
            prerelease = text[text.index(after: dash)...].split(separator: ".").map(String.init)
            text = text[..<dash]
            if prerelease.isEmpty { return nil }
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 4 else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count else { return nil }
        return Version(numbers: numbers, prerelease: prerelease)
    }

    /// `items` in version order when every name looks like a version, else in `fallback` order.
    public static func sorted<Item>(_ items: [Item], name: (Item) -> String, fallback: (Item, Item) -> Bool) -> [Item] {
        let versions = items.map { version(of: name($0)) }
        guard versions.allSatisfy({ $0 != nil }) else { return items.sorted(by: fallback) }
        return zip(items, versions).sorted { left, right in
            left.1! != right.1! ? left.1! < right.1! : name(left.0) < name(right.0)
        }.map(\.0)
    }
}
