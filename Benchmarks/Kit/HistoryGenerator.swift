import Foundation
import LinkwrightCore

/// A git history for benchmarks, written with `git fast-import` (thousands of commits in a
/// second): a configuration of the given size, then commits that each touch a few files, with a
/// tag every `commits / tags` commits. One commit in ten touches only a README, so tags that did
/// not change the configuration occur as they do in real repositories. With `deep`, every commit
/// but the last touches only the README: the last commit's change then looks the same from one
/// commit back as from all of them, which isolates the depth of history from the size of a change.
public struct HistoryGenerator {
    public var generator: ScaleGenerator

    public init(seed: UInt64) { generator = ScaleGenerator(seed: seed) }

    /// The fast-import stream.
    public mutating func stream(size: ScaleGenerator.Size, commits: Int, tags: Int, deep: Bool = false) -> String {
        var files = Dictionary(uniqueKeysWithValues: generator.configuration(size))
        var out = ""
        var time = 1_700_000_000
        func commit(_ message: String, _ changed: [String: String]) {
            time += 3600
            out += "commit refs/heads/main\ncommitter Bench <bench@example.invalid> \(time) +0000\n"
            out += "data \(message.utf8.count)\n\(message)\n"
            for path in changed.keys.sorted() {
                let text = changed[path]!
                out += "M 100644 inline \(path)\ndata \(text.utf8.count)\n\(text)\n"
            }
            out += "\n"
        }
        commit("Link contract", files)
        let every = max(1, (commits - 1) / max(1, tags))
        var tag = 0
        for index in 1..<commits {
            if deep ? index < commits - 1 : index % 10 == 0 {
                commit("Docs \(index)", ["README.md": "revision \(index)\n"])
            } else {
                let domain = "domains/d\(generator.next(size.domains)).yaml"
                var text = files[domain]!
                let (rule, _) = generator.rule(10_000 + index)
                // Insert the rule at the head of the rule list; sometimes drop the oldest inserted one.
                text = text.replacingOccurrences(of: "    rules:\n", with: "    rules:\n" + rule)
                files[domain] = text
                commit("Rules \(index)", [domain: text])
            }
            if index % every == 0 && tag < tags {
                tag += 1
                out +=
                    "tag v1.\(tag)\nfrom refs/heads/main\ntagger Bench <bench@example.invalid> \(time) +0000\ndata 0\n\n"
            }
        }
        return out
    }
}
