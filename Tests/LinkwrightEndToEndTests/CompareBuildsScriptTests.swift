import Foundation
import LinkwrightTestSupport
import Testing

/// `scripts/compare-builds.sh`, which lands an optimisation only when two builds print and write
/// the same bytes, finds exactly the outputs a build changes: its quick inputs run against a
/// wrapper of this build that changes one part of a few commands' output.
@Suite struct CompareBuildsScriptTests {
    /// Each command the wrapper changes, the part it changes, and the outputs that show it.
    static let planted: [(command: String, change: String, differences: [String])] = [
        (
            "lint", #""$linkwright" "$@"; status=$?; echo planted; exit "$status""#,
            ["example", "generated", "invalid", "turned", "yaml-forms", "yaml-broken"].map { "lint-\($0) (out)" }
        ),
        (
            "generate", #""$linkwright" "$@"; status=$?; echo planted > "$4/Planted.txt"; exit "$status""#,
            ["generate-swift (written files)", "generate-kotlin (written files)"]
        ),
        (
            "diff", #""$linkwright" "$@"; status=$?; echo planted >&2; exit "$status""#,
            ["tags", "mixed-1", "mixed-2"].map { "diff-\($0) (err)" }
        ),
        // Only `match --aasa rules.json`, the text one of the two match commands.
        (
            "match", #""$linkwright" "$@"; status=$?; [ "$#" -eq 3 ] && status=3; exit "$status""#,
            ["match-text (status)"]
        ),
    ]

    @Test func itNamesEveryOutputAChangedBuildChangesAndNoOther() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let linkwright = RepositoryPaths.products.appendingPathComponent("linkwright").path
        let cases = Self.planted.map { "\($0.command)) \($0.change) ;;" }.joined(separator: "\n")
        let wrapper = try folder.write(
            "changed-linkwright",
            "#!/bin/sh\nlinkwright='\(linkwright)'\ncase \"$1\" in\n\(cases)\n*) exec \"$linkwright\" \"$@\" ;;\nesac\n"
        )
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)

        let result = try runProcess(
            URL(fileURLWithPath: "/bin/bash"),
            ["scripts/compare-builds.sh", "--quick", linkwright, wrapper.path],
            in: RepositoryPaths.root,
            environment: [
                "COMPARE_BUILDS_DIR": folder.url.appendingPathComponent("work").path,
                "LINKWRIGHT_BENCH": RepositoryPaths.products.appendingPathComponent("linkwright-bench").path,
            ])
        #expect(result.status == 1, "\(result)")
        let named = result.stdout.split(separator: "\n").filter { $0.hasPrefix("differs: ") }.map { $0.dropFirst(9) }
        let expected = Self.planted.flatMap(\.differences)
        #expect(Set(named.map(String.init)) == Set(expected), "\(result)")
        #expect(named.count == expected.count)
        // Every other output was compared and found equal.
        let summary = try #require(result.stdout.split(separator: "\n").last)
        let counts = summary.split(separator: " ").compactMap { Int($0) }
        #expect(summary.hasSuffix("outputs differ; both sides are in \(folder.url.path)/work/run"), "\(summary)")
        #expect(counts.first == expected.count && (counts.last ?? 0) > 150, "\(summary)")
        // Only the changed commands' outputs are kept, both sides of each.
        let run = folder.url.appendingPathComponent("work/run")
        let kept = try FileManager.default.contentsOfDirectory(atPath: run.appendingPathComponent("outputs").path)
        let changed = Set(expected.map { String($0.prefix { $0 != " " }) })
        #expect(
            Set(kept)
                == Set(
                    changed.flatMap { name in
                        ["old", "new"].flatMap { side in
                            ["out", "err", "status"].map { "\(name).\(side).\($0)" }
                        }
                    }))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: run.appendingPathComponent("trees").path).sorted()
                == ["generate-kotlin.new", "generate-kotlin.old", "generate-swift.new", "generate-swift.old"])
    }

    @Test func itRefusesWhatIsNotABinary() throws {
        let result = try runProcess(
            URL(fileURLWithPath: "/bin/bash"), ["scripts/compare-builds.sh", "/nonexistent/linkwright", "/bin/true"],
            in: RepositoryPaths.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/linkwright is not an executable linkwright"), "\(result)")
    }
}
