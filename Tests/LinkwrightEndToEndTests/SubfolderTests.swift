import Foundation
import LinkwrightTestSupport
import Testing

/// A configuration in a monorepo's subfolder (`mobile/links/`), checked from that folder and from
/// below it, as a workflow with `working-directory: mobile/links` or a developer inside
/// `domains/` runs it.
@Suite struct SubfolderTests {
    let fixture: GitFixture
    let configuration: String

    init() throws {
        fixture = try GitFixture()
        configuration = fixture.repository + "/mobile/links"
        var files: [String: String?] = ["README.md": "monorepo\n"]
        for folder in ["environments", "domains", "policies"] {
            let url = RepositoryPaths.root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                files["mobile/links/\(folder)/\(name)"] = try String(
                    contentsOf: url.appendingPathComponent(name), encoding: .utf8)
            }
        }
        try fixture.commit("The link contract", files)
        try fixture.git("checkout", "-q", "-b", "widen")
        let domain = try String(contentsOfFile: configuration + "/domains/museo.yaml", encoding: .utf8)
        try fixture.commit(
            "Open everything in the app",
            [
                "mobile/links/domains/museo.yaml": domain.replacingOccurrences(
                    of: "      - path: /exhibitions/*\n", with: "      - path: \"*\"\n")
            ])
    }

    private func linkwright(_ arguments: [String], in folder: String) throws -> ProcessResult {
        try runLinkwright(
            arguments, in: URL(fileURLWithPath: folder),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_CONFIG_NOSYSTEM": "1"])
    }

    @Test(arguments: ["", "/domains"])
    func machineFormatsNameFilesFromTheRepositoryTop(_ below: String) throws {
        let folder = configuration + below
        let github = try linkwright(["check", "--against", "main", "--format", "github"], in: folder)
        #expect(github.status == 1, "\(github)")
        let annotations = github.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(!annotations.isEmpty)
        #expect(
            annotations.allSatisfy { $0.contains("file=mobile/links/domains/museo.yaml,") || !$0.contains("file=") },
            "\(github)")
        #expect(annotations.contains { $0.contains("file=mobile/links/domains/museo.yaml,line=19,") })

        let sarif = try linkwright(["check", "--against", "main", "--format", "sarif"], in: folder)
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])[
            "runs"]
        let results = try #require((runs as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let uris = results.flatMap { result in
            (result["locations"] as? [[String: Any]] ?? []).compactMap {
                (($0["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
            }
        }
        #expect(!uris.isEmpty)
        #expect(uris.allSatisfy { $0 == "mobile/links/domains/museo.yaml" }, "\(uris)")

        let json = try linkwright(["check", "--against", "main", "--format", "json"], in: folder)
        #expect(json.stdout.contains("\"mobile/links/domains/museo.yaml\""), "\(json)")
        #expect(!json.stdout.contains("\"domains/museo.yaml\""))
        #expect(!json.stdout.contains("\"../domains/museo.yaml\""))

        let lint = try linkwright(["lint", "--format", "json"], in: folder)
        #expect(lint.status == 0, "\(lint)")
        #expect(lint.stdout.contains("\"file\": \"mobile/links/domains/museo.yaml\""), "\(lint)")
    }

    @Test func textNamesFilesFromTheCurrentFolder() throws {
        let fromDomains = try linkwright(["check", "--against", "main"], in: configuration + "/domains")
        #expect(fromDomains.status == 1, "\(fromDomains)")
        #expect(fromDomains.stdout.contains("../domains/museo.yaml:19:9: error: "), "\(fromDomains)")
        let fromTop = try linkwright(
            ["check", "--against", "main", "--config", "mobile/links"], in: fixture.repository)
        #expect(fromTop.stdout.contains("mobile/links/domains/museo.yaml:19:9: error: "), "\(fromTop)")
        // --config as given, from elsewhere: machine formats still name files from the top.
        let github = try linkwright(
            ["check", "--against", "main", "--config", "..", "--format", "github"],
            in: fixture.repository + "/mobile/links/domains")
        #expect(github.stdout.contains("file=mobile/links/domains/museo.yaml,line=19,"), "\(github)")
    }

    @Test func everyCommandFindsTheConfigurationFromBelowIt() throws {
        let domains = configuration + "/domains"
        let lint = try linkwright(["lint"], in: domains)
        #expect(lint.status == 0, "\(lint)")
        #expect(lint.stdout.hasPrefix("..: configuration is valid (0 errors, "), "\(lint)")
        // The output goes next to the configuration, not into the folder the command ran in.
        let build = try linkwright(["build"], in: domains)
        #expect(build.status == 0, "\(build)")
        #expect(FileManager.default.fileExists(atPath: configuration + "/dist/.linkwright-manifest"))
        #expect(!FileManager.default.fileExists(atPath: domains + "/dist"))
        #expect(try linkwright(["build", "--check"], in: configuration + "/environments").status == 0)
        // The catch-all of the branch sends /tickets/annual to the app: the expectations were found.
        let test = try linkwright(["test"], in: domains)
        #expect(test.status == 1, "\(test)")
        #expect(test.stdout.contains("checks failed"), "\(test)")
    }

    @Test func discoveryStopsAtTheRepositoryTop() throws {
        // A folder of the repository outside the configuration: nothing is found above it up to
        // the top, and the usual error names the current folder.
        let elsewhere = fixture.repository + "/mobile/other"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: fixture.folder + "/environments", withIntermediateDirectories: true)
        let lint = try linkwright(["lint"], in: elsewhere)
        #expect(lint.status == 2, "\(lint)")
        #expect(!(lint.stdout + lint.stderr).contains(".."), "\(lint)")
    }

    @Test func theHelpOfConfigSaysWhatTheDefaultIs() throws {
        let help = try linkwright(["check", "--help"], in: fixture.folder)
        #expect(
            help.stdout.contains(
                "default: the nearest folder holding environments/ from the current one up to the repository's top"))
    }

    /// The steps of action.yml that run linkwright, run as a runner runs them
    /// (Fixtures/action/run-steps.py), from a subfolder of the repository.
    func runActionSteps(_ inputs: [String: String], environment: [String: String] = [:]) throws -> [String: Any] {
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3",
                RepositoryPaths.root.appendingPathComponent(
                    "Tests/LinkwrightEndToEndTests/Fixtures/action/run-steps.py"
                )
                .path,
                RepositoryPaths.root.appendingPathComponent("action.yml").path, fixture.repository,
                RepositoryPaths.products.appendingPathComponent("linkwright").path,
                String(decoding: try JSONSerialization.data(withJSONObject: inputs), as: UTF8.self),
            ],
            environment: environment.merging(
                ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_CONFIG_NOSYSTEM": "1"]
            ) { given, _ in given })
        #expect(result.status == 0, "\(result)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func step(_ name: String, of run: [String: Any]) throws -> [String: Any] {
        try #require((run["steps"] as? [[String: Any]])?.first { $0["name"] as? String == name })
    }

    @Test func theActionAnnotatesSummarisesAndWritesSARIFFromASubfolder() throws {
        let run = try runActionSteps([
            "against": "main", "working-directory": "mobile/links/domains", "sarif-file": "links.sarif",
        ])
        let check = try step("Check", of: run)
        #expect(check["status"] as? Int == 0, "\(check)")
        let annotations = try #require(check["stdout"] as? String)
        #expect(annotations.contains("::error file=mobile/links/domains/museo.yaml,line=19,"), "\(check)")
        let summary = try #require(run["summary"] as? String)
        #expect(summary.contains("mobile/links/domains/museo.yaml"), "\(summary)")
        #expect(summary.contains("merge-base"), "\(summary)")
        let sarif = try Data(contentsOf: URL(fileURLWithPath: fixture.repository + "/links.sarif"))
        let document = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
        #expect(document["version"] as? String == "2.1.0")
        #expect(String(decoding: sarif, as: UTF8.self).contains("\"mobile/links/domains/museo.yaml\""))
        // The verdict fails the step: a finding blocks.
        #expect(try step("Verdict", of: run)["status"] as? Int == 1)
    }

    /// A pull request can commit a link where the SARIF file goes, or in place of a folder on
    /// its way: the action's shell redirect wrote through it, over the link's target outside
    /// the workspace. `check --output` replaces a link at the file and refuses one on the way.
    @Test func theActionNeverWritesSARIFThroughALinkInTheWorkspace() throws {
        let outside = fixture.folder + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "precious\n".write(toFile: outside + "/target", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.repository + "/links.sarif", withDestinationPath: outside + "/target")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.repository + "/reports", withDestinationPath: outside)
        let run = try runActionSteps([
            "against": "main", "working-directory": "mobile/links/domains", "sarif-file": "links.sarif",
        ])
        #expect(try step("SARIF report", of: run)["status"] as? Int == 0)
        #expect(try String(contentsOfFile: outside + "/target", encoding: .utf8) == "precious\n")
        let written = try FileManager.default.attributesOfItem(atPath: fixture.repository + "/links.sarif")
        #expect(written[.type] as? FileAttributeType == .typeRegular)
        let sarif = try Data(contentsOf: URL(fileURLWithPath: fixture.repository + "/links.sarif"))
        #expect((try JSONSerialization.jsonObject(with: sarif) as? [String: Any])?["version"] as? String == "2.1.0")

        let through = try runActionSteps(["against": "main", "config": "mobile/links", "sarif-file": "reports/x.sarif"])
        let refused = try step("SARIF report", of: through)
        #expect(
            (refused["stderr"] as? String)?.contains("reports: is a symbolic link, not a folder") == true, "\(refused)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["target"])
    }

    @Test func theActionTakesTheConfigurationFolderAndSkipsSARIFUnlessAsked() throws {
        let run = try runActionSteps(["against": "main", "config": "mobile/links", "format": "json"])
        let check = try step("Check", of: run)
        #expect((check["stdout"] as? String)?.contains("\"mobile/links/domains/museo.yaml\"") == true, "\(check)")
        #expect(try step("SARIF report", of: run)["ran"] as? Bool == false)
        #expect(try step("Verdict", of: run)["status"] as? Int == 1)
        // Off a pull request and without `against`, only the rules about the head run: the
        // branch's catch-all still blocks, and nothing is compared with main.
        let headOnly = try runActionSteps(["config": "mobile/links"])
        #expect(try step("Verdict", of: headOnly)["status"] as? Int == 1, "\(headOnly)")
        #expect(!(headOnly["summary"] as? String ?? "merge-base").contains("merge-base"), "\(headOnly)")
        #expect(!(headOnly["summary"] as? String ?? "").isEmpty)
    }

    /// `fail-on` is passed to check: nothing blocks, the annotations become warnings, and the
    /// summary still reports every finding.
    @Test func theActionPassesFailOnToCheck() throws {
        let run = try runActionSteps(["against": "main", "config": "mobile/links", "fail-on": "never"])
        #expect(try step("Verdict", of: run)["status"] as? Int == 0, "\(run)")
        let annotations = try #require(try step("Check", of: run)["stdout"] as? String)
        #expect(annotations.contains("::warning file=mobile/links/domains/museo.yaml,"), "\(annotations)")
        #expect(!annotations.contains("::error "))
        #expect((run["summary"] as? String)?.contains("CATCH_ALL_ADDED") == true)
    }
}
