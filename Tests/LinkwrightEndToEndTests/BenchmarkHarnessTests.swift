import Foundation
import LinkwrightBenchKit
import LinkwrightTestSupport
import Testing

/// The benchmark harness: deterministic inputs, and a smoke run that proves it still works (the
/// full benchmark runs with scripts/benchmark.sh, not in CI).
@Suite struct BenchmarkHarnessTests {
    @Test func theGeneratorIsDeterministicForASeed() {
        var first = ScaleGenerator(seed: 7)
        var second = ScaleGenerator(seed: 7)
        var other = ScaleGenerator(seed: 8)
        let a = first.configuration(.s)
        let b = second.configuration(.s)
        #expect(a.map(\.path) == b.map(\.path))
        #expect(a.map(\.text) == b.map(\.text))
        #expect(other.configuration(.s).map(\.text) != a.map(\.text))
        var history = HistoryGenerator(seed: 7)
        var again = HistoryGenerator(seed: 7)
        #expect(history.stream(size: .smoke, commits: 20, tags: 3) == again.stream(size: .smoke, commits: 20, tags: 3))
    }

    /// The depth figure's history: the configuration, then commits touching only the README, then
    /// one commit changing one domain.
    @Test func aDeepHistoryChangesTheConfigurationOnlyInItsLastCommit() {
        var generator = HistoryGenerator(seed: 7)
        let commits = generator.stream(size: .smoke, commits: 20, tags: 0, deep: true)
            .components(separatedBy: "commit refs/heads/main\n").dropFirst()
        #expect(commits.count == 20)
        let changed = commits.map { commit in
            commit.split(separator: "\n").filter { $0.hasPrefix("M 100644 inline ") }.map { $0.dropFirst(16) }
        }
        #expect(changed.first?.contains { $0.hasPrefix("domains/") } == true)
        #expect(changed.dropFirst().dropLast().allSatisfy { $0 == ["README.md"] })
        #expect(changed.last?.count == 1 && changed.last?.first?.hasPrefix("domains/") == true)
    }

    @Test func generatedConfigurationsAreValid() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var generator = ScaleGenerator(seed: 2026)
        for (path, text) in generator.configuration(.s) { try folder.write(path, text) }
        let lint = try runLinkwright(["lint"], in: folder.url)
        #expect(lint.status == 0, "\(lint)")
    }

    @Test(.enabled(if: LinuxOnly.here, "Linux only: the harness measures memory with GNU time's -f"))
    func aSmokeRunMeasuresEveryFigure() throws {
        let result = try runProcess(
            RepositoryPaths.products.appendingPathComponent("linkwright-bench"), ["run", "--smoke"],
            in: RepositoryPaths.root)
        #expect(result.status == 0, "\(result)")
        for figure in [
            "linkwright --version", "build, size smoke", "build, size smoke, against writing its output",
            "match prefix-heavy, 100 rules, per URL",
            "check --against HEAD~1", "check, 29 vs 1 commit back (29 commits of changes)",
            "check, 29 vs 1 commit back (one change)", "changelog, 5 tags", "changelog, 29 tags (every commit)",
            "changelog cost, 29 vs 5 tags", "changelog, 3 tags, size smoke history (1 domain)",
            "check on the example", "lint, 1,000 domain files", "lint cost, 1,000 vs 100 domain files",
            "verify, 20 hosts × 2 files over TLS", "verify, 20 hosts with 40 --connect-to entries",
            "curl --parallel --parallel-max 50, 20 hosts",
        ] {
            #expect(result.stdout.contains("| \(figure)"), "\(figure) missing")
        }
        #expect(!result.stdout.contains("failures:"), "\(result.stdout)")
    }
}
