import Foundation
import LinkwrightCore

/// A pull request against one domain of mixed rule shapes, for the behaviour-diff figure: the
/// base commits `rules` rules (prefixes, literals, exclusions, leading `*`, several `*` in the
/// middle, `?`-runs, query items, fragments, a language variable) under an exclusion at the top;
/// the working tree moves that exclusion to the end and makes ten other edits (a rule inserted,
/// deleted, swapped with its neighbour or rewritten), with iOS and Android 15 dynamic rules.
public struct BehaviourDiffScenario {
    public var generator: ScaleGenerator

    public init(seed: UInt64) { generator = ScaleGenerator(seed: seed) }

    static let environment = """
        tier: production
        team_id: ABCDE12345
        apps:
          example:
            ios: {bundle_id: com.example.app}
            android:
              package: com.example.app
              fingerprints:
                play-signing: "2C:F0:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE"
        hosts:
          example.com: example

        """

    /// One rule of a shape real files use.
    mutating func rule() -> String {
        let words = ScaleGenerator.words
        let word = words[generator.next(words.count)] + String(generator.next(1000))
        let other = words[generator.next(words.count)] + String(generator.next(1000))
        switch generator.next(100) {
        case 0..<30: return "      - path: /\(word)/*\n"
        case 30..<55: return "      - path: /\(word)/\(other)\n"
        case 55..<65: return "      - path: /\(word)/*\n        exclude: true\n"
        case 65..<72: return "      - path: \"*/\(word)\"\n"
        case 72..<77: return "      - path: /\(word)/*/detail/????\n"
        case 77..<87: return "      - path: /\(word)/*\n        query: {ref: \"?*\"}\n"
        case 87..<92: return "      - path: /$(lang)/\(word)/*\n"
        case 92..<96: return "      - path: /\(word)/*\n        fragment: \"sec-*\"\n"
        default: return "      - path: /*/\(word)/*\n"
        }
    }

    static func domain(_ rules: [String]) -> String {
        "applinks:\n  - apps: [example]\n    rules:\n" + rules.joined()
            + "emit:\n  android_dynamic_rules: true\n  size_budget: 131072\n"
    }

    /// The base configuration and the working tree's domain file.
    public mutating func files(rules count: Int) -> (base: [(path: String, text: String)], head: String) {
        let exclusion = "      - path: /product584/*\n        exclude: true\n"
        let rules = (0..<count).map { _ in rule() }
        var head = rules
        for _ in 0..<10 {
            let position = generator.next(head.count)
            switch generator.next(4) {
            case 0: head.insert(rule(), at: position)
            case 1: head.remove(at: position)
            case 2 where position + 1 < head.count: head.swapAt(position, position + 1)
            default: head[position] = rule()
            }
        }
        let base = [
            ("environments/production.yaml", Self.environment),
            ("domains/example.yaml", Self.domain([exclusion] + rules)),
        ]
        return (base, Self.domain(head + [exclusion]))
    }

    /// A repository at `folder` with the base committed and the head in the working tree.
    public static func build(rules: Int, seed: UInt64, at folder: URL) throws {
        var scenario = BehaviourDiffScenario(seed: seed)
        let (base, head) = scenario.files(rules: rules)
        try BenchmarkCommand.write(base, to: folder)
        for command in [
            ["git", "init", "-q", "-b", "main"], ["git", "add", "-A"],
            ["git", "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", "base"],
        ] {
            guard try Measurement.run(command, directory: folder.path).status == 0 else {
                throw BenchmarkError("\(command.joined(separator: " ")) failed in \(folder.path)")
            }
        }
        try Data(head.utf8).write(to: folder.appendingPathComponent("domains/example.yaml"))
    }
}
