import Foundation
import LinkwrightTestSupport
import Testing

/// `linkwright generate swift` run as a user runs it, on a copy of the example configuration.
@Suite struct GenerateCommandTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        try folder.copyExampleConfiguration()
    }

    private func linkwright(_ arguments: [String]) throws -> ProcessResult {
        try runLinkwright(arguments, in: folder.url)
    }

    /// In the order the compiled environments list their apps: by name.
    static let routers = ["EmergenciasRouter.swift", "MuseoRouter.swift", "MuseoClipRouter.swift"]

    @Test func writesOneRouterPerIOSAppAsTheGoldenFilesHoldThem() throws {
        defer { folder.remove() }
        let result = try linkwright(["generate", "swift"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == Self.routers.map { "wrote generated/all/swift/\($0)\n" }.joined(), "\(result)")
        for router in Self.routers {
            let written = try folder.read("generated/all/swift/\(router)")
            let golden = RepositoryPaths.root.appendingPathComponent(
                "Tests/LinkwrightEndToEndTests/Golden/generate/all/\(router).golden")
            if let mismatch = Golden.mismatch(written, golden: golden) { Issue.record("\(mismatch)") }
        }
    }

    @Test func oneEnvironmentsRouterServesOnlyItsHosts() throws {
        defer { folder.remove() }
        let result = try linkwright(["generate", "swift", "--env", "production", "--app", "museo"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "wrote generated/production/swift/MuseoRouter.swift\n")
        let written = try folder.read("generated/production/swift/MuseoRouter.swift")
        let golden = RepositoryPaths.root.appendingPathComponent(
            "Tests/LinkwrightEndToEndTests/Golden/generate/production/MuseoRouter.swift.golden")
        if let mismatch = Golden.mismatch(written, golden: golden) { Issue.record("\(mismatch)") }
        #expect(written.contains("//   linkwright generate swift --env production --app museo\n"))
        #expect(!written.contains("staging.museo.example") && !written.contains("/preview/*"))
        #expect(!folder.exists("generated/all"))
    }

    @Test func theRoutersPassSwiftFormatsStrictLint() throws {
        defer { folder.remove() }
        #expect(try linkwright(["generate", "swift", "--out", "routers"]).status == 0)
        let files = Self.routers.map { folder.url.appendingPathComponent("routers/\($0)").path }
        let configuration = RepositoryPaths.root.appendingPathComponent(".swift-format").path
        let lint = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swift", "format", "lint", "--strict", "--configuration", configuration] + files)
        #expect(lint.status == 0 && lint.stderr.isEmpty, "\(lint)")
    }

    @Test func twoEnvironmentsDecidingOneHostDifferentlyNeedEnv() throws {
        defer { folder.remove() }
        // Staging also serves museo.example, where only staging opens /preview/*.
        let staging = try folder.read("environments/staging.yaml")
        try folder.write(
            "environments/staging.yaml",
            staging.replacingOccurrences(
                of: "  staging.museo.example: museo\n", with: "  staging.museo.example: museo\n  museo.example: museo\n"
            ))
        let result = try linkwright(["generate", "swift", "--app", "museo"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains(
                "museo.example is served to museo by production and by staging with different rules"), "\(result)")
        #expect(result.stderr.contains("--env"))
        #expect(!folder.exists("generated"))
        #expect(try linkwright(["generate", "swift", "--app", "museo", "--env", "staging"]).status == 0)
    }

    @Test func refusesWhatItCannotGenerate() throws {
        defer { folder.remove() }
        let language = try linkwright(["generate", "cobol"])
        #expect(
            language.status == 2 && language.stderr.contains("unknown language \"cobol\"; choose swift"), "\(language)")
        let missing = try linkwright(["generate"])
        #expect(missing.status == 2 && missing.stderr.contains("name the language"), "\(missing)")
        let app = try linkwright(["generate", "swift", "--app", "museum"])
        #expect(app.status == 2 && app.stderr.contains("no environment builds an iOS app named \"museum\""), "\(app)")
        #expect(app.stderr.contains("emergencias, museo, museo-clip") || app.stderr.contains("museo"), "\(app)")
        let environment = try linkwright(["generate", "swift", "--env", "prod"])
        #expect(environment.status == 2 && environment.stderr.contains("did you mean \"production\""), "\(environment)")
        try folder.write("domains/museo.yaml", "applinks: [")
        let broken = try linkwright(["generate", "swift"])
        #expect(broken.status == 2 && broken.stderr.contains("domains/museo.yaml:"), "\(broken)")
        #expect(!folder.exists("generated"))
    }

    @Test func anAppWhoseRulesNameNoRouteHasNoRouter() throws {
        defer { folder.remove() }
        try folder.write(
            "domains/emergencias.yaml", "applinks:\n  - apps: [emergencias]\n    rules:\n      - path: /servicio/*\n")
        #expect(try linkwright(["lint"]).status == 0)
        let result = try linkwright(["generate", "swift", "--app", "emergencias"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("no rule opening emergencias names a route"), "\(result)")
    }

    @Test func neverWritesThroughALinkInTheConfigurationFolder() throws {
        defer { folder.remove() }
        let outside = try TemporaryFolder()
        defer { outside.remove() }
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("generated"), withDestinationURL: outside.url)
        let result = try linkwright(["generate", "swift"])
        #expect(result.status == 2, "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path).isEmpty)
    }
}
