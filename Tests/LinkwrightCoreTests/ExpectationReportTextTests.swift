import Foundation
import LinkwrightTestSupport
import Testing

@testable import LinkwrightCore

/// `test`'s text report, byte for byte, plain and coloured: each failure's line, where it failed
/// (one host, or hosts counted per environment), the deciding rule, the hint, escaped text from
/// the files; and the same bytes whether printed whole or streamed.
@Suite struct ExpectationReportTextTests {
    private func report() throws -> ExpectationReport {
        let environment = { (name: String, tier: String, hosts: [String]) in
            "tier: \(tier)\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                + "    android:\n      package: com.example.shop\n      fingerprints:\n"
                + "        release: \"" + (0..<32).map { _ in "AB" }.joined(separator: ":") + "\"\n"
                + "hosts:\n" + hosts.map { "  \($0)\n" }.joined()
        }
        let files = [
            "environments/production.yaml": environment(
                "production", "production",
                ["a.example: shop", "b.example: shop", "c.example: shop", "d.example: shop", "one.example: single"]),
            "environments/staging.yaml": environment("staging", "staging", ["s1.example: shop", "s2.example: shop"]),
            "domains/shop.yaml": """
            applinks:
              - apps: [shop]
                rules:
                  - path: /admin/*
                    exclude: true
                  - path: /p/*
            expectations:
              - url: /p/1
                opens_app: shop
              - url: /q
                opens_app: shop
                comment: "the search page,\\tnot a product\\u001B[2J"
              - url: /admin/x
                opens_app: shop
                platforms: [ios]
              - url: /p/%0Aforged
                opens_web: true
                environments: [staging]

            """,
            "domains/single.yaml": """
            applinks:
              - apps: [shop]
                rules:
                  - path: /only/*
            expectations:
              - url: /elsewhere
                opens_app: shop
                platforms: [android]
                comment: one host

            """,
        ]
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let loaded = try #require(configuration, "\(diagnostics)")
        return ExpectationReport(
            loaded, Compiler().compile(loaded).compiled, keeping: .failures, pathPrefix: "con\u{2028}fig/")
    }

    /// Many failures, more than one piece of them (`failuresPerTextPiece`), ranked: failing in
    /// production first, then on more hosts, then in file order.
    private func manyFailures() throws -> ExpectationReport {
        let count = ExpectationReport.failuresPerTextPiece * 2 + 37
        let environment = { (tier: String, hosts: [String]) in
            "tier: \(tier)\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\nhosts:\n"
                + hosts.map { "  \($0): shop\n" }.joined()
        }
        let expectations = (0..<count).map { index in
            // Every third only in staging, which has fewer hosts: the ranking moves them last.
            "  - url: /e\(index)\n    opens_app: shop\n" + (index % 3 == 0 ? "    environments: [staging]\n" : "")
        }
        let files = [
            "environments/production.yaml": environment("production", ["a.example", "b.example", "c.example"]),
            "environments/staging.yaml": environment("staging", ["s.example"]),
            "domains/shop.yaml": "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\nexpectations:\n"
                + expectations.joined(),
        ]
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let loaded = try #require(configuration, "\(diagnostics)")
        return ExpectationReport(loaded, Compiler().compile(loaded).compiled, keeping: .failures, pathPrefix: "")
    }

    /// Pieces written on every core come out in the report's order, each failure once, and the
    /// streamed bytes are the printed ones.
    @Test func piecesKeepTheFailuresRanked() throws {
        let report = try manyFailures()
        #expect(report.failures.count > ExpectationReport.failuresPerTextPiece * 2)
        let printed = try #require(report.printed(as: .text, style: .plain, version: "1")).out
        let errorLines = printed.split(separator: "\n").filter { $0.contains(": error: ") }
        let messages = report.failures.map { ExpectationReport.message($0, report.context) }
        let written = errorLines.map { String($0.split(separator: ": error: ", maxSplits: 1)[1]) }
        #expect(written.count == messages.count)
        let firstOutOfPlace = zip(written, messages).enumerated().first { $1.0 != $1.1 + " [EXPECTATION_FAILED]" }?
            .offset
        #expect(firstOutOfPlace == nil, "failure \(firstOutOfPlace ?? 0) is not where the ranking puts it")
        #expect(messages.first?.hasPrefix("/e1 ") == true)
        #expect(messages.last?.contains("in staging") == true)
        var streamed: [UInt8] = []
        var pieces = 0
        #expect(
            report.stream(as: .text, style: .plain) {
                streamed += $0
                pieces += 1
            })
        #expect(String(decoding: streamed, as: UTF8.self) == printed)
        #expect(pieces > 3, "pieces of failures, not one string")
    }

    private static let golden = RepositoryPaths.root.appendingPathComponent(
        "Tests/LinkwrightCoreTests/Fixtures/golden/test-report")

    @Test(arguments: [("plain", TextStyle.plain), ("colour", TextStyle(colour: true))])
    func textIsItsGoldenFile(_ name: String, _ style: TextStyle) throws {
        let text = try #require(try report().printed(as: .text, style: style, version: "1"))
        #expect(text.err.isEmpty)
        if let mismatch = Golden.mismatch(text.out, golden: Self.golden.appendingPathComponent("\(name).txt")) {
            Issue.record(Comment(rawValue: mismatch))
        }
    }
}
