import Testing

@testable import LinkwrightCore

/// `StructuralDiff.rules` pairs each key of the head's sequences with the base's key at the same
/// position when it is the same key, and looks it up otherwise. Whatever keys the sides read,
/// in whatever order, repeated or not, its changes must be those of every key looked up.
@Suite struct RuleSequencesPairingTests {
    typealias Key = RuleSequences.Key
    typealias Entry = (key: Key, signatures: [RuleSignature])

    /// Everything the structural diff reports of a rule change.
    static func described(_ changes: [LinkChange]) -> [String] {
        changes.map { change in
            [
                "\(change.kind)", change.host ?? "-", change.platform?.rawValue ?? "-", change.app ?? "-",
                change.before ?? "-", change.after ?? "-", change.location?.description ?? "-", "\(change.side)",
            ].joined(separator: "|")
        }
    }

    /// The changes the head's entries make to the base's, each key's rules found by reading
    /// every entry in turn (a key reads its entries' lists one after another).
    static func plainChanges(old: [Entry], new: [Entry], environment: String) -> [LinkChange] {
        func sequences(_ entries: [Entry]) -> [(key: Key, rules: [RuleSignature])] {
            var read: [(key: Key, rules: [RuleSignature])] = []
            for (key, signatures) in entries {
                if let known = read.firstIndex(where: { $0.key == key }) {
                    read[known].rules += signatures
                } else {
                    read.append((key, signatures))
                }
            }
            return read
        }
        let oldSequences = sequences(old)
        var changes: [LinkChange] = []
        for (key, newRules) in sequences(new) {
            guard let oldRules = oldSequences.first(where: { $0.key == key })?.rules, !oldRules.isEmpty,
                !newRules.isEmpty
            else { continue }
            changes += SequenceDiff.changes(from: oldRules, to: newRules).map { edit in
                LinkChange(
                    kind: edit.kind, environment: environment, host: key.host, platform: key.platform, app: key.app,
                    before: edit.before?.description, after: edit.after?.description,
                    location: (edit.after ?? edit.before)?.origin, side: edit.after == nil ? .base : .head)
            }
        }
        return changes
    }

    /// Seeded pairs of sequences: the head's entries the base's with keys inserted, dropped,
    /// moved, read twice or swapped, and lists edited, emptied or kept in their storage.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func pairedChangesAreThoseOfEveryKeyLookedUp(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let keys = ["shop.example", "news.example", "caf\u{E9}.example"].flatMap { host in
            [
                Key(host: host, platform: .ios, app: "ABCDE12345.com.example.shop"),
                Key(host: host, platform: .ios, app: "ABCDE12345.com.example.news"),
                Key(host: host, platform: .android, app: "com.example.shop"),
                Key(host: host, platform: .android, app: "com.example.shop", manifest: true),
            ]
        }
        var serial = 0
        func rule() -> RuleSignature {
            serial += 1
            var rule = RuleSignature(legacyPath: "/\(["shop", "sale"].randomElement(using: &generator)!)\(serial % 7)")
            rule.origin = SourceLocation(file: "domains/shop.yaml", line: serial, column: 7)
            return rule
        }
        func list() -> [RuleSignature] { (0..<Int.random(in: 0...5, using: &generator)).map { _ in rule() } }
        func edited(_ list: [RuleSignature]) -> [RuleSignature] {
            var list = list
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: list.insert(rule(), at: Int.random(in: 0...list.count, using: &generator))
            case 1 where !list.isEmpty: list.remove(at: Int.random(in: 0..<list.count, using: &generator))
            case 2: list = []
            default: break
            }
            return list
        }
        var diffed = DiffedLists()
        for round in 0..<150 {
            let old: [Entry] = (0..<Int.random(in: 0...10, using: &generator)).map { _ in
                (keys.randomElement(using: &generator)!, list())
            }
            var new = old
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let position = Int.random(in: 0...new.count, using: &generator)
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: new.insert((keys.randomElement(using: &generator)!, list()), at: position)
                case 1 where position < new.count: new.remove(at: position)
                case 2 where position < new.count:
                    let moved = new.remove(at: position)
                    new.insert(moved, at: Int.random(in: 0...new.count, using: &generator))
                case 3 where position < new.count: new.insert(new[position], at: position)
                case 4 where position + 1 < new.count: new.swapAt(position, position + 1)
                default:
                    if position < new.count { new[position].signatures = edited(new[position].signatures) }
                }
            }
            let context = StructuralDiff.Context(
                environment: "production", baseConfiguration: nil, headConfiguration: nil)
            let paired = StructuralDiff.rules(
                old: RuleSequences(reading: old), new: RuleSequences(reading: new), context, diffed: &diffed)
            #expect(
                Self.described(paired)
                    == Self.described(Self.plainChanges(old: old, new: new, environment: "production")),
                "seed \(seed) round \(round)")
        }
    }
}
