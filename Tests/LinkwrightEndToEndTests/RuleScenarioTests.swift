import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// Every rule's examples, replayed through the binary on a real repository: the base is
/// committed, the head is the working tree, and `check --against HEAD` must report the rule
/// exactly where, and as many times as, the example says.
@Suite struct RuleScenarioTests {
    @Test(arguments: RuleExampleCase.all)
    func checkReportsTheRuleExactlyWhereItShould(_ scenario: RuleExampleCase) throws {
        let fixture = try GitFixture()
        if let base = scenario.example.base {
            try fixture.commit("base", base)
        } else {
            try fixture.commit("start", ["README.md": "links\n"])
        }
        let stale = (scenario.example.base ?? [:]).keys.filter { scenario.example.head[$0] == nil }
        try fixture.write(scenario.example.head.mapValues { Optional($0) }.merging(stale.map { ($0, nil) }) { $1 })
        let result = try runLinkwright(
            ["check", "--against", "HEAD", "--format", "json"], in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder])
        #expect(result.status == 0 || result.status == 1, "\(result)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        let findings = (report["findings"] as? [[String: Any]] ?? []).filter {
            $0["rule"] as? String == scenario.rule.rawValue
        }
        let places = findings.map { "\($0["file"] ?? "no file"):\($0["line"] ?? "-"):\($0["column"] ?? "-")" }
        #expect(places == scenario.example.reportsAt, "\(findings.map { $0["message"] ?? "" })")
    }
}

/// The example configuration's own history passes `check`: every commit that touched it, against
/// its parent.
@Suite struct OwnHistoryTests {
    static let git = URL(fileURLWithPath: "/usr/bin/env")

    /// Whether the checkout holds its whole history: a shallow clone has no parents to check against.
    static var isFullClone: Bool {
        let shallow = try? runProcess(git, ["git", "rev-parse", "--is-shallow-repository"], in: RepositoryPaths.root)
        return shallow?.status == 0 && shallow?.stdout == "false\n"
    }

    @Test(.enabled(if: isFullClone, "this checkout is not a full git clone, so it has no history to check"))
    func everyCommitOfTheExamplePassesCheckAgainstItsParent() throws {
        let git = Self.git
        let root = RepositoryPaths.root
        let log = try runProcess(
            git, ["git", "rev-list", "--reverse", "HEAD", "--", "environments", "domains", "policies"], in: root)
        let commits = log.stdout.split(separator: "\n").map(String.init)
        #expect(!commits.isEmpty)
        for commit in commits {
            let parent = try runProcess(git, ["git", "rev-parse", "--verify", "-q", commit + "^"], in: root)
            guard parent.status == 0 else { continue }
            let result = try runLinkwright(
                ["check", "--head", commit, "--against", commit + "^", "--no-merge-base"], in: root)
            #expect(result.status == 0, "\(commit): \(result)")
        }
    }
}
