import Foundation
import LinkwrightTestSupport
import Testing

/// examples/app/android/app/build.gradle.kts cannot run here (no Gradle, no Android Gradle
/// Plugin; docs/app-builds.md). What it asks of linkwright can: every command line it holds is
/// read out of the file, its variables replaced by what Gradle passes for each flavor, and run as
/// built against the example configuration. A variable the test does not know fails it, so the
/// file cannot drift into a command that does not exist.
@Suite struct GradleSnippetTests {
    static let file = RepositoryPaths.root.appendingPathComponent("examples/app/android/app/build.gradle.kts")

    struct Invocation {
        var arguments: [String]
        /// The `--out` folder, for the router.
        var out: String?
    }

    /// The script's text, its flavors and each command line for one flavor.
    static func invocations(flavor: String, variant: String, build: String) throws -> [Invocation] {
        let text = try String(contentsOf: file, encoding: .utf8)
        // `rootDir` is the Gradle project's folder, examples/app/android.
        let root = try #require(text.firstMatch(of: /rootDir\.resolve\("([^"]+)"\)/)?.1)
        let config = RepositoryPaths.root.appendingPathComponent("examples/app/android/\(root)").standardized.path
        let app = try #require(text.firstMatch(of: /val linkwrightApp = "([^"]+)"/)?.1)
        let values = [
            "linkwrightConfig.path": config, "environment": flavor, "linkwrightApp": String(app),
            "outputDirectory.get().asFile.path": build + "/generated/linkwright/" + variant,
        ]
        var found: [Invocation] = []
        // The router's arguments (`listOf(…)`, the executable set apart) and the check's
        // `commandLine(linkwright, …)`.
        for match in text.matches(of: /(?:listOf|commandLine)\(\s*((?:[^()]|\([^()]*\))*)\)/) {
            var arguments: [String] = []
            for item in match.1.split(separator: ",") {
                let token = item.trimmingCharacters(in: .whitespacesAndNewlines)
                if token.isEmpty || token == "linkwright" { continue }
                if token.hasPrefix("\"") && token.hasSuffix("\"") {
                    arguments.append(String(token.dropFirst().dropLast()))
                } else {
                    arguments.append(try #require(values[token], "the test does not know \(token)"))
                }
            }
            guard arguments.first == "generate" || arguments.first == "sync" else { continue }
            let out = arguments.firstIndex(of: "--out").map { arguments[$0 + 1] }
            found.append(Invocation(arguments: arguments, out: out))
        }
        return found
    }

    static func flavors() throws -> [String] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.matches(of: /create\("([a-z]+)"\)/).map { String($0.1) }
    }

    @Test func theFileDeclaresAFlavorPerEnvironmentAndBothCommands() throws {
        #expect(try Self.flavors() == ["production", "staging"])
        let commands = try Self.invocations(flavor: "production", variant: "productionDebug", build: "/b")
        #expect(
            commands.map { $0.arguments.joined(separator: " ") } == [
                "generate kotlin --config \(RepositoryPaths.root.standardized.path) --env production --app museo --out /b/generated/linkwright/productionDebug",
                "sync --check --config \(RepositoryPaths.root.standardized.path) --env production --app museo --platform android",
            ])
    }

    /// docs/app-builds.md quotes the file, not a copy that could drift from it.
    @Test func theDocumentationQuotesTheFile() throws {
        let page = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("docs/app-builds.md"), encoding: .utf8)
        let quoted = try #require(page.firstMatch(of: /```kotlin\n((?:.|\n)*?)```/)?.1)
        #expect(try String(contentsOf: Self.file, encoding: .utf8).contains(quoted))
    }

    @Test func everyCommandRunsForEveryFlavorAgainstTheExample() throws {
        let build = try TemporaryFolder()
        defer { build.remove() }
        for flavor in try Self.flavors() {
            for invocation in try Self.invocations(flavor: flavor, variant: flavor + "Release", build: build.url.path) {
                let result = try runLinkwright(invocation.arguments)
                #expect(result.status == 0, "\(invocation.arguments): \(result)")
                if let out = invocation.out {
                    #expect(FileManager.default.fileExists(atPath: out + "/MuseoDestination.kt"), "\(result)")
                }
            }
        }
    }

    /// The manifest check is a gate: a hand edit of the flavor's filters fails it.
    @Test func theManifestCheckFailsOnAHandEdit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        let manifest = "examples/app/android/app/src/staging/AndroidManifest.xml"
        let text = try String(contentsOf: RepositoryPaths.root.appendingPathComponent(manifest), encoding: .utf8)
        try folder.write(
            manifest, text.replacingOccurrences(of: "android:pathPrefix=\"/\"", with: "android:pathPrefix=\"/x\""))
        let check = try #require(
            try Self.invocations(flavor: "staging", variant: "stagingDebug", build: folder.url.path).first {
                $0.arguments.first == "sync"
            })
        var arguments = check.arguments
        arguments[arguments.firstIndex(of: "--config")! + 1] = folder.url.path
        let result = try runLinkwright(arguments)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("+ <data android:pathPrefix=\"/\" />"), "\(result)")
    }

    /// The router the production variant's task writes compiles with Debian's kotlinc (Kotlin 1.3),
    /// warnings as errors.
    @Test(.enabled(if: InstalledTool.path("kotlinc") != nil, "kotlinc is not on PATH (apt-get install kotlin)"))
    func theVariantsRouterCompilesWithKotlinc() throws {
        let build = try TemporaryFolder()
        defer { build.remove() }
        let generate = try #require(
            try Self.invocations(flavor: "production", variant: "productionRelease", build: build.url.path).first {
                $0.arguments.first == "generate"
            })
        #expect(try runLinkwright(generate.arguments).status == 0)
        let kotlinc = try #require(InstalledTool.path("kotlinc"))
        let source = try #require(generate.out) + "/MuseoDestination.kt"
        let result = try runProcess(kotlinc, ["-Werror", source, "-d", build.url.path + "/classes"], timeout: 600)
        #expect(result.status == 0, "\(result)")
    }
}
