import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// The SwiftPM build-tool plugin LinkwrightRouter, used as an app uses it: examples/plugin-sample
/// (a package depending on this one by path) is built with `swift build`, its tests route the
/// example configuration's expectations through the router the plugin generated, and editing a
/// domain file makes the next build regenerate the router.
///
/// The sample's first build compiles linkwright for the plugin, in a scratch folder of its own
/// (`swift test` holds the package's): `.build/plugin-sample/scratch` is kept between runs so only
/// the first pays for it. The configuration and the sample are copied beside it afresh each run.
@Suite struct BuildToolPluginTests {
    static let swift: String? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/swift"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// The sample's tests route every URL domains/museo.yaml expects of the museo app on iOS in
    /// production: a new expectation there is one the sample must route too.
    @Test func theSampleRoutesEveryExpectationOfTheExample() throws {
        let configuration = try RouterSampleURLs.load(RepositoryPaths.root)
        let domain = try #require(configuration.domains.first { $0.name == "museo" })
        let tests = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent(
                "examples/plugin-sample/Tests/MuseoLinksTests/ExpectationTests.swift"), encoding: .utf8)
        let expected = domain.expectations.filter { expectation in
            let app: String? = {
                if case .opensApp(let name) = expectation.outcome { return name?.value }
                return "museo"  // a URL kept on the web: the router gives it no destination
            }()
            return app == "museo" && (expectation.platforms.isEmpty || expectation.platforms.contains(.ios))
                && expectation.environments.map { $0.contains { $0.value == "production" } } != false
        }
        #expect(expected.count > 5)
        for expectation in expected {
            #expect(
                tests.contains("(\"\(expectation.url.value)\", "),
                "\(expectation.url.value) is not in the sample's tests")
        }
    }

    @Test(.enabled(if: swift != nil, "swift is not on PATH, so the sample package cannot be built"))
    func theSamplePackageBuildsWithThePluginAndRebuildsWhenADomainChanges() throws {
        let folder = RepositoryPaths.root.appendingPathComponent(".build/plugin-sample")
        let work = folder.appendingPathComponent("work")
        let scratch = folder.appendingPathComponent("scratch")
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("examples"), withIntermediateDirectories: true)
        for configuration in ["environments", "domains", "policies"] {
            try FileManager.default.copyItem(
                at: RepositoryPaths.root.appendingPathComponent(configuration),
                to: work.appendingPathComponent(configuration))
        }
        let sample = work.appendingPathComponent("examples/plugin-sample")
        try FileManager.default.copyItem(
            at: RepositoryPaths.root.appendingPathComponent("examples/plugin-sample"), to: sample)
        // The copy depends on this package where it stands, instead of two folders up.
        let manifest = sample.appendingPathComponent("Package.swift")
        let declared = try String(contentsOf: manifest, encoding: .utf8)
        #expect(declared.contains(".package(name: \"Linkwright\", path: \"../..\")"))
        try declared.replacingOccurrences(
            of: "path: \"../..\")", with: "path: \"\(RepositoryPaths.root.path)\")"
        ).write(to: manifest, atomically: true, encoding: .utf8)

        func swift(_ arguments: [String]) throws -> ProcessResult {
            try runProcess(
                URL(fileURLWithPath: Self.swift!), arguments + ["--scratch-path", scratch.path], in: sample,
                timeout: 1800)
        }
        let started = Date()
        let build = try swift(["build", "--build-tests"])
        try #require(build.status == 0, "\(build)")
        print("BuildToolPluginTests: the sample's first build took \(Int(Date().timeIntervalSince(started))) s")
        // The router compiles in a Swift 6 package (complete concurrency checking) without a warning.
        let warnings = (build.stdout + build.stderr).split(separator: "\n").filter {
            $0.contains("LinkwrightRouter.swift") && $0.contains("warning:")
        }
        #expect(warnings.isEmpty, "\(warnings)")
        let router = try #require(
            FileManager.default.enumerator(
                at: scratch.appendingPathComponent("plugins"), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first { $0.lastPathComponent == "LinkwrightRouter.swift" },
            "the plugin wrote no LinkwrightRouter.swift under \(scratch.path)/plugins")
        // linkwright says what it wrote, which the build shows.
        #expect(build.stdout.contains("wrote \(router.path)\n"), "\(build)")
        let generated = try String(contentsOf: router, encoding: .utf8)
        #expect(generated.contains("//   linkwright generate swift --env production --app museo --access public\n"))
        // Nothing changed: the router is not generated again. (Right after the build that first
        // built linkwright, SwiftPM runs the command once more: the build after that one is
        // the one that must not.)
        _ = try swift(["build", "--build-tests"])
        let again = try swift(["build", "--build-tests"])
        #expect(again.status == 0 && !again.stdout.contains("wrote \(router.path)"), "\(again)")
        let test = try swift(["test", "--skip-build"])
        #expect(test.status == 0, "\(test)")

        // A domain file changes: the next build regenerates the router, and the sample's tests,
        // which pin the old path, now see exhibitions stay on the web.
        let domain = work.appendingPathComponent("domains/museo.yaml")
        let text = try String(contentsOf: domain, encoding: .utf8)
        #expect(text.contains("      - path: /exhibitions/*\n"))
        try text.replacingOccurrences(of: "      - path: /exhibitions/*\n", with: "      - path: /exposiciones/*\n")
            .write(to: domain, atomically: true, encoding: .utf8)
        let rebuilt = try swift(["build", "--build-tests"])
        #expect(rebuilt.status == 0 && rebuilt.stdout.contains("wrote \(router.path)\n"), "\(rebuilt)")
        let regenerated = try String(contentsOf: router, encoding: .utf8)
        #expect(regenerated != generated)
        #expect(regenerated.contains("Rule(path: \"/exposiciones/*\")"), "\(regenerated)")
        let changed = try swift(["test", "--skip-build"])
        #expect(changed.status != 0, "\(changed)")
        #expect(changed.stdout.contains("https://museo.example/exhibitions/monet"), "\(changed)")
        // A misspelt setting stops the build, naming the file and the keys.
        let settings = sample.appendingPathComponent("Sources/MuseoLinks/.linkwright.json")
        try Data(#"{"app": "museo", "enviroments": ["production"]}"#.utf8).write(to: settings)
        let misspelt = try swift(["build", "--build-tests"])
        #expect(misspelt.status != 0, "\(misspelt)")
        #expect(
            (misspelt.stdout + misspelt.stderr).contains(
                "\(settings.path): unknown key \"enviroments\"; the keys are configuration, app, environments and access"
            ),
            "\(misspelt)")
        print("BuildToolPluginTests: the whole test took \(Int(Date().timeIntervalSince(started))) s")
    }
}
