import Foundation
import LinkwrightTestSupport
import Testing

/// The README's adoption commands (import, build, test, verify, then check on the commit) on
/// real files of the seven kinds issue 46 names, served by a real nginx: every command ends
/// green except for one located decision, which once taken leaves check green too.
@Suite(.serialized) struct AdoptionTests {
    /// Host → corpus files (under ../shared/corpus) it serves, as apple-app-site-association
    /// and assetlinks.json.
    static let served: [(host: String, aasa: String?, assetLinks: String?)] = [
        // Legacy paths with 23 NOT exclusions, then "*".
        ("legacy.adopt.test", "aasa/artsy__artsy-eigen-web-association__apple-app-site-association.json", nil),
        // PKCS#7-signed, with activitycontinuation and webcredentials.
        ("signed.adopt.test", "aasa/artsy__artsy-eigen-web-association__apple-app-site-association", nil),
        // paths and components in one entry.
        ("hybrid.adopt.test", "aasa/Adophlidu__firefly.social__public_.well-known_apple-app-site-association", nil),
        // Query dictionaries, an App Clip, a rule never reached.
        (
            "query.adopt.test",
            "aasa/Provenance-Emu__provenance-emu.github.io__static_.well-known_apple-app-site-association", nil
        ),
        // assetlinks.json with a web statement.
        (
            "minid.adopt.test", "aasa/felleslosninger__minid.no__static_.well-known_apple-app-site-association",
            "assetlinks/felleslosninger__minid.no__static_.well-known_assetlinks.json"
        ),
        // Three statements.
        ("three.adopt.test", nil, "assetlinks/element-hq__element-call__public_.well-known_assetlinks.json"),
        // One package signed with four keys: which is Play App Signing's is the person's decision.
        ("keys.adopt.test", nil, "assetlinks/paulgmiller__careme__internal_static_assetlinks.json"),
    ]

    @Test(.enabled(if: RepositoryPaths.sharedCorpus != nil, Comment(rawValue: RepositoryPaths.sharedCorpusMissing)))
    func theReadmesAdoptionCommandsEndGreen() throws {
        let corpus = try #require(RepositoryPaths.sharedCorpus)
        let fixture = try GitFixture()
        try fixture.commit("Before linkwright", ["README.md": "links\n"])
        let root = URL(fileURLWithPath: fixture.repository)
        var sites: [TestSite] = []
        for site in Self.served {
            var routes: [TestRoute] = []
            for (file, name) in [(site.aasa, "apple-app-site-association"), (site.assetLinks, "assetlinks.json")] {
                guard let file else { continue }
                let bytes = Array(try Data(contentsOf: corpus.appendingPathComponent(file)))
                let path = "served/\(site.host)/.well-known/\(name)"
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent(path).deletingLastPathComponent(),
                    withIntermediateDirectories: true)
                try Data(bytes).write(to: root.appendingPathComponent(path))
                routes.append(.file("/.well-known/\(name)", bytes, contentType: "application/json"))
            }
            sites.append(TestSite([site.host], routes: routes))
        }
        let environment = ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_CONFIG_NOSYSTEM": "1"]
        func linkwright(_ arguments: [String]) throws -> ProcessResult {
            try runLinkwright(arguments, in: root, environment: environment)
        }

        let imported = try linkwright(["import", "--from", "served/", "--env", "production"])
        #expect(imported.status == 0, "\(imported)")
        // The one decision: which of four keys Google Play signs with, at the line to edit.
        let decisions = imported.stdout.split(separator: "\n").filter { $0.hasPrefix("next: ") }
        #expect(decisions.count == 1, "\(imported)")
        let decision = try #require(decisions.first)
        #expect(
            decision.hasPrefix("next: environments/production.yaml:")
                && decision.contains("rename the key of cooking.careme (key-1, key-2, key-3, key-4)"),
            "\(decision)")
        #expect(try linkwright(["build"]).status == 0)
        let test = try linkwright(["test"])
        #expect(test.status == 0, "\(test)")
        try withNginx(serving: sites, standardPort: true) { server in
            let verify = try linkwright(
                ["verify", "--env", "production", "--cacert", server.certificates.trustedAuthority.certificate.path]
                    + server.resolveOverrides.flatMap { ["--resolve", $0.description] })
            // Written otherwise (legacy paths, hybrid entries) is a note at most.
            #expect(verify.status == 0, "\(verify)")
            #expect(!verify.stdout.contains("error:"), "\(verify)")
            #expect(
                verify.stdout.contains(
                    "note: https://legacy.adopt.test/.well-known/apple-app-site-association: serves a file written otherwise than the build"
                ), "\(verify)")
            #expect(verify.stdout.contains("production minid.adopt.test: apple-app-site-association "), "\(verify)")
        }

        try fixture.commit("Adopt linkwright", [:])
        let adopted = try linkwright(["check", "--against", "HEAD~1"])
        // Only the decision blocks: what the hosts served already does not.
        #expect(adopted.status == 1, "\(adopted)")
        let blocking = adopted.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(blocking.allSatisfy { $0.hasSuffix("[FINGERPRINT_CHANNEL_MISSING]") }, "\(adopted)")
        #expect(adopted.stdout.contains("note: ignored (live before adoption: linkwright import proved the build"))

        // The person looks the key up in the Play Console and renames it where they were told.
        let line = try #require(Int(decision.split(separator: ":")[2]))
        var lines = try String(contentsOf: root.appendingPathComponent("environments/production.yaml"), encoding: .utf8)
            .components(separatedBy: "\n")
        lines[line - 1] = lines[line - 1].replacingOccurrences(of: "key-1:", with: "play-signing:")
        try fixture.commit(
            "Name Play App Signing's key", ["environments/production.yaml": lines.joined(separator: "\n")])
        let decided = try linkwright(["check", "--against", "HEAD~2"])
        #expect(decided.status == 0, "\(decided)")
        #expect(decided.stdout.contains(": 0 blocking findings"), "\(decided)")

        // An edit to an adopted host is a change again: its catch-all blocks, as on any host. The
        // exclusion turned into a rule that opens the app says where it leads, as imported rules do.
        let domain = try String(contentsOf: root.appendingPathComponent("domains/legacy-adopt.yaml"), encoding: .utf8)
        try fixture.write([
            "domains/legacy-adopt.yaml": domain.replacingOccurrences(
                of: "        exclude: true\n", with: ImportCommandTests.unknownRoute, options: [],
                range: domain.range(of: "        exclude: true\n"))
        ])
        let edited = try linkwright(["check", "--against", "HEAD~2"])
        #expect(edited.status == 1, "\(edited)")
        #expect(edited.stdout.contains("error: legacy.adopt.test: rule \"*\" matches every URL"), "\(edited)")
    }
}
