import Foundation

extension BenchmarkRun {
    /// Runs a command with standard input from `input` and standard output to `output`
    /// (`/dev/null` when nil), as `run()` measures every figure.
    typealias Measure = (_ arguments: [String], _ input: String, _ output: String?) throws -> Measurement

    /// Matching, for each mix of rule shapes: the cost per URL at each rule count against a
    /// regex per component and a raw scan of the same URLs, then how that cost grows with the
    /// rule count.
    func matchRows(_ measure: Measure) throws -> [Row] {
        let mixes = smoke ? ScaleGenerator.MatchMix.allCases : try options.mixes()
        let ruleCounts =
            smoke
            ? [10, 100]
            : (options.value("--match-rules") ?? "10,1000,10000").split(separator: ",").compactMap { Int($0) }
        // A backtracking regex takes hours on one long adversarial URL. A run the deadline stops
        // took over ten seconds, so it is not repeated (nor is any smoke run): the report read
        // below is that of the run timed.
        let deadline = smoke ? 0.5 : 20
        var rows: [Row] = []
        for mix in mixes {
            let urlCount =
                mix == .adversarial
                ? (smoke ? 100 : options.int("--adversarial-urls", 2_000))
                : (smoke ? 1_000 : options.int("--urls", 1_000_000))
            var perURL: [(rules: Int, seconds: Double)] = []
            for rules in ruleCounts {
                let name = "match-\(mix.rawValue)-\(rules)"
                var generator = ScaleGenerator(seed: options.seed)
                let aasa = work.appendingPathComponent("\(name).json")
                try Data(generator.aasa(rules: rules, mix: mix).utf8).write(to: aasa)
                let text = generator.urls(
                    count: urlCount, rules: rules, mix: mix, longPaths: smoke ? 1_000...2_000 : 10_000...100_000)
                let urls = work.appendingPathComponent("\(name).txt")
                try Data(text.utf8).write(to: urls)
                // The regex baseline tries the components one by one: it is timed on the first
                // URLs, fewer as rules grow so that a run takes seconds, and scaled per URL.
                let sampleCount = min(urlCount, smoke ? 1_000 : 20_000, max(100, 4_000_000 / max(rules, 1)))
                let sample = work.appendingPathComponent("\(name)-sample.txt")
                try Data(Self.firstLines(sampleCount, of: text).utf8).write(to: sample)

                let match = try measure([linkwright, "match", "--aasa", aasa.path, "--format", "json"], urls.path, nil)
                // Reading and compiling the file happens once, whatever the number of URLs: it is
                // its own row, and the cost per URL is what each further URL adds.
                let load = try measure(
                    [linkwright, "match", "--aasa", aasa.path, "--format", "json"], "/dev/null", nil)
                let scan = try measure([bench, "baseline", "scan"], urls.path, nil)
                let report = work.appendingPathComponent("\(name)-regex.txt").path
                let regex = try measure(
                    [bench, "baseline", "regex", aasa.path, "--deadline", String(deadline)], sample.path, report)
                guard
                    let outcome = Baselines.RegexOutcome(
                        line: (try? String(contentsOfFile: report, encoding: .utf8)) ?? "")
                else { throw BenchmarkError("the regex baseline reported nothing for \(name)") }

                let matchPerURL = max(match.seconds - load.seconds, 0) / Double(urlCount)
                let scanPerURL = scan.seconds / Double(urlCount)
                let regexPerURL = regex.seconds / Double(max(outcome.decided, 1))
                perURL.append((rules, matchPerURL))
                let regexBaseline =
                    "regex per rule, first \(outcome.decided) URLs"
                    + (outcome.stopped ? " (stopped at \(String(format: "%g", deadline)) s: a lower bound)" : "")
                let fasterGoal = mix == .mixed && rules == 1000
                rows.append(
                    Row(
                        figure: "match \(mix.title), \(rules) rules, per URL (\(urlCount) URLs)",
                        seconds: matchPerURL, peakKilobytes: match.peakKilobytes, baseline: regexBaseline,
                        baselineSeconds: regexPerURL, ratio: regexPerURL / matchPerURL,
                        goal: fasterGoal ? "≥ 20× faster than regex" : "",
                        met: fasterGoal && !smoke ? regexPerURL / matchPerURL >= 20 : nil))
                // The earlier benchmark's goal, kept on the shapes it was set on.
                let scanGoal = mix == .prefix && rules == 1000
                rows.append(
                    Row(
                        figure: "match \(mix.title), \(rules) rules, against raw scan", seconds: matchPerURL,
                        peakKilobytes: match.peakKilobytes, baseline: "raw scan", baselineSeconds: scanPerURL,
                        ratio: matchPerURL / scanPerURL, goal: scanGoal ? "≤ 10× scan" : "",
                        met: scanGoal && !smoke ? matchPerURL / scanPerURL <= 10 : nil))
                if rules == ruleCounts.max() {
                    rows.append(
                        Row(
                            figure: "match \(mix.title), \(rules) rules, reading and compiling the file",
                            seconds: load.seconds, peakKilobytes: load.peakKilobytes, baseline: "–",
                            baselineSeconds: load.seconds, ratio: 1, goal: "", met: nil))
                }
            }
            guard let fewest = perURL.min(by: { $0.rules < $1.rules }) else { continue }
            for (rules, seconds) in perURL where rules != fewest.rules {
                // Adversarial files are held to the bound the documentation gives, not to flatness.
                let flat = mix != .adversarial
                rows.append(
                    Row(
                        figure: "match cost \(mix.title), \(rules) vs \(fewest.rules) rules", seconds: seconds,
                        peakKilobytes: 0, baseline: "\(fewest.rules) rules", baselineSeconds: fewest.seconds,
                        ratio: seconds / fewest.seconds, goal: flat ? "≤ 2×" : "bounded (docs)",
                        met: flat && !smoke ? seconds / fewest.seconds <= 2 : nil))
            }
        }
        return rows
    }

    /// The first `count` lines of `text`.
    static func firstLines(_ count: Int, of text: String) -> Substring {
        var seen = 0
        for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: "\n") {
            seen += 1
            if seen == count { return text[...index] }
        }
        return text[...]
    }
}
