import Foundation
import LinkwrightCore

/// The command line of `linkwright-bench`.
public enum BenchmarkCommand {
    static let usage = """
        linkwright-bench: benchmarks of linkwright, each figure against a baseline measured in the same run

        Usage:
          linkwright-bench run [--only PARTS] [--sizes S,M,L] [--mixes MIXES] [--match-rules 10,1000,10000]
                               [--urls N] [--adversarial-urls N] [--commits N] [--tags N] [--diff-rules N]
                               [--fleet-hosts N]
                               [--smoke] [--json FILE] [--linkwright PATH] [--example DIR] [--seed N]
          linkwright-bench generate config --size S|M|L --out DIR [--seed N]
          linkwright-bench generate history --size S|M|L --commits N --tags N --out DIR [--deep] [--seed N]
          linkwright-bench generate aasa --rules N --out FILE [--mix MIX] [--seed N]
          linkwright-bench generate urls --rules N --count N --out FILE [--mix MIX] [--seed N]
          linkwright-bench baseline yaml DIR | baseline regex AASA [--deadline SECONDS] < URLS
                         | baseline scan < URLS

        PARTS: startup, build, files, match, history, diff, example, fleet, comma-separated (default: all).
        fleet serves --fleet-hosts hosts (default 2000) from one local nginx (wildcard certificate) and
        times verify against curl --parallel --parallel-max 50 fetching the same URLs.
        MIXES: prefix, suffix, middle, mixed, adversarial, comma-separated (default: all); --urls URLs
        each (default 1000000), --adversarial-urls for adversarial (default 2000, one in a hundred
        10-100 KB long).

        run builds nothing: build linkwright first with `swift build -c release` (scripts/benchmark.sh does).
        It uses the linkwright next to itself unless --linkwright says otherwise, and times `check` on the
        example configuration in --example (default: the current directory). generate aasa and generate
        urls with run's --seed, a rule count, a mix and its URL count write the files behind one matching
        figure; the regex baseline reads the first lines of those URLs. generate history --deep writes
        the history behind the depth figure: every commit but the last touches only the README.
        """

    public static func run(_ arguments: [String]) throws -> Int32 {
        let options = Options(arguments)
        switch (arguments.first, arguments.dropFirst().first) {
        case ("generate", "config"?):
            var generator = ScaleGenerator(seed: options.seed)
            try write(
                generator.configuration(try options.size()), to: URL(fileURLWithPath: try options.required("--out")))
        case ("generate", "history"?):
            try HistoryBuilder.build(
                size: try options.size(), commits: options.int("--commits", 1000), tags: options.int("--tags", 100),
                deep: options.flag("--deep"), seed: options.seed,
                at: URL(fileURLWithPath: try options.required("--out")))
        case ("generate", "aasa"?):
            let text = ScaleGenerator(seed: options.seed).aasa(
                rules: options.int("--rules", 100), mix: try options.mix())
            try Data(text.utf8).write(to: URL(fileURLWithPath: try options.required("--out")))
        case ("generate", "urls"?):
            var generator = ScaleGenerator(seed: options.seed)
            let text = generator.urls(
                count: options.int("--count", 1000), rules: options.int("--rules", 100), mix: try options.mix())
            try Data(text.utf8).write(to: URL(fileURLWithPath: try options.required("--out")))
        case ("baseline", "yaml"?):
            print(try Baselines.parseYAML(in: URL(fileURLWithPath: arguments[2])))
        case ("baseline", "regex"?):
            let deadline = options.value("--deadline").flatMap(Double.init) ?? .infinity
            print(
                try Baselines.regexMatch(
                    aasa: URL(fileURLWithPath: arguments[2]), urls: .standardInput, deadline: deadline
                )
                .line)
        case ("baseline", "scan"?):
            print(try Baselines.scan(.standardInput))
        case ("run", _):
            let report = try BenchmarkRun(options: options).run()
            print(report.table)
            if let path = options.value("--json") {
                try Data(report.json.rendered().utf8).write(to: URL(fileURLWithPath: path))
            }
            return report.failures.isEmpty ? 0 : 1
        default:
            print(usage)
            return arguments.first == "help" || arguments.isEmpty ? 0 : 2
        }
        return 0
    }

    static func write(_ files: [(path: String, text: String)], to folder: URL) throws {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }
}

/// `--name value` options of the bench command line.
struct Options {
    let arguments: [String]

    init(_ arguments: [String]) { self.arguments = arguments }

    func value(_ name: String) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    func flag(_ name: String) -> Bool { arguments.contains(name) }

    func required(_ name: String) throws -> String {
        guard let value = value(name) else { throw BenchmarkError("\(name) is required") }
        return value
    }

    func int(_ name: String, _ fallback: Int) -> Int { value(name).flatMap(Int.init) ?? fallback }

    var seed: UInt64 { value("--seed").flatMap(UInt64.init) ?? 2026 }

    /// `--mix`, prefix when absent.
    func mix() throws -> ScaleGenerator.MatchMix { try Self.mix(value("--mix") ?? "prefix") }

    /// `--mixes`, comma-separated, every mix when absent.
    func mixes() throws -> [ScaleGenerator.MatchMix] {
        guard let list = value("--mixes") else { return ScaleGenerator.MatchMix.allCases }
        return try list.split(separator: ",").map { try Self.mix(String($0)) }
    }

    static func mix(_ name: String) throws -> ScaleGenerator.MatchMix {
        guard let mix = ScaleGenerator.MatchMix(rawValue: name) else {
            throw BenchmarkError(
                "unknown mix \(name): \(ScaleGenerator.MatchMix.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return mix
    }

    func size() throws -> ScaleGenerator.Size {
        let name = value("--size") ?? "S"
        guard let size = ScaleGenerator.Size.named(name) else {
            throw BenchmarkError("unknown size \(name): S, M, L or smoke")
        }
        return size
    }
}

/// A git repository from `HistoryGenerator`, checked out.
enum HistoryBuilder {
    static func build(
        size: ScaleGenerator.Size, commits: Int, tags: Int, deep: Bool = false, seed: UInt64, at folder: URL
    ) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = HistoryGenerator(seed: seed)
        let stream = folder.appendingPathComponent(".fast-import")
        try Data(generator.stream(size: size, commits: commits, tags: tags, deep: deep).utf8).write(to: stream)
        defer { try? FileManager.default.removeItem(at: stream) }
        for command in [
            ["git", "init", "-q", "-b", "main"], ["git", "fast-import", "--quiet"],
            ["git", "checkout", "-q", "-f", "main"],
        ] {
            let result = try Measurement.run(
                command, input: command[1] == "fast-import" ? stream.path : nil, directory: folder.path)
            guard result.status == 0 else {
                throw BenchmarkError("\(command.joined(separator: " ")) failed in \(folder.path)")
            }
        }
    }
}
