import LinkwrightCore
import Testing

/// `--shard K/N`: every host in exactly one part, by name alone.
@Suite struct ShardTests {
    static let fleet = (1...2000).map { "host\($0).shop.example" }

    @Test func everyHostIsInExactlyOnePart() throws {
        for count in [1, 2, 3, 8] {
            let shards = try (1...count).map { try Shard("\($0)/\(count)") }
            for host in Self.fleet {
                #expect(shards.filter { $0.contains(host: host) }.count == 1, "\(host) in \(count) parts")
            }
            // Spread evenly enough that no machine of a matrix gets much more than its share.
            let sizes = shards.map { shard in Self.fleet.filter(shard.contains).count }
            #expect(sizes.allSatisfy { Double($0) < 1.2 * Double(Self.fleet.count) / Double(count) }, "\(sizes)")
        }
    }

    @Test func aHostsPartDependsOnItsNameAloneSoInsertionMovesNoOtherHost() {
        let before = Self.fleet.map { Shard.part(of: $0, among: 8) }
        let grown = ["new.shop.example"] + Self.fleet.shuffled() + ["another.example"]
        let after = Dictionary(uniqueKeysWithValues: grown.map { ($0, Shard.part(of: $0, among: 8)) })
        #expect(Self.fleet.map { after[$0]! } == before)
        #expect(Shard.part(of: "Host1.Shop.Example", among: 8) == Shard.part(of: "host1.shop.example", among: 8))
        // Pinned, and computed independently from the documented definition (docs/serving.md).
        #expect(Self.fleet.prefix(8).map { Shard.part(of: $0, among: 8) } == [3, 6, 7, 4, 6, 2, 6, 1])
    }

    @Test func readsKOfN() throws {
        #expect(try Shard("2/8") == Shard(index: 2, count: 8))
        #expect(try Shard("1/1").description == "1/1")
        #expect(Shard(index: 3, count: 2) == nil)
    }

    @Test(arguments: [
        ("0/3", "asks for part 0 of 3; K is from 1 to 3"),
        ("4/3", "asks for part 4 of 3; K is from 1 to 3"), ("1/0", "splits the hosts into 0 parts; N is at least 1"),
        ("1", "is not K/N with whole numbers, such as 2/8"), ("a/b", "is not K/N with whole numbers, such as 2/8"),
        ("-1/3", "is not K/N with whole numbers, such as 2/8"), ("1/3/5", "is not K/N with whole numbers, such as 2/8"),
        ("", "is not K/N with whole numbers, such as 2/8"),
    ])
    func refusesAnythingButKOfN(_ text: String, _ refusal: String) {
        let error = #expect(throws: Shard.ParseError.self) { try Shard(text) }
        #expect(error?.description == refusal)
    }
}
