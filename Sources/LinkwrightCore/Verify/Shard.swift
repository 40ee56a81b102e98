/// Part K of N of a fleet (`--shard K/N`), so that N machines (a CI job matrix) each check a
/// share of the hosts and together check every host exactly once.
///
/// A host's part depends on its name alone, never on its place in the configuration: adding or
/// removing a host moves no other host, so a shard's state (`monitor --state`) stays its own as the
/// fleet changes. Changing N reassigns hosts. The part is the 64-bit FNV-1a hash of the host name's
/// lowercase UTF-8 bytes, mixed by SplitMix64's finaliser (so that names differing in one letter
/// spread over the parts), modulo N, plus one.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// K, from 1 to `count`.
    public let index: Int
    /// N, at least 1.
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Why a `--shard` value is refused.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `K/N` with whole numbers, N at least 1 and K in 1...N.
    public init(_ text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let number = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isNumber } ? Int(part) : nil }
        guard parts.count == 2, let index = number(parts[0]), let count = number(parts[1]) else {
            throw ParseError(description: "is not K/N with whole numbers, such as 2/8")
        }
        guard count >= 1 else { throw ParseError(description: "splits the hosts into \(count) parts; N is at least 1") }
        guard let shard = Shard(index: index, count: count) else {
            throw ParseError(description: "asks for part \(index) of \(count); K is from 1 to \(count)")
        }
        self = shard
    }

    /// Whether `host` belongs to this part.
    public func contains(host: String) -> Bool { Self.part(of: host, among: count) == index }

    /// The part, from 1 to `count`, that `host` belongs to.
    public static func part(of host: String, among count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in host.lowercased().utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return Int(hash % UInt64(max(1, count))) + 1
    }

    public var description: String { "\(index)/\(count)" }
}
