import Foundation
import LinkwrightTestSupport
import Testing

/// `linkwright generate swift|kotlin` run as a user runs it, on a copy of the example configuration.
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

    /// In the order the compiled environments list their Android apps.
    static let kotlinRouters = ["EmergenciasDestination.kt", "MuseoDestination.kt"]

    @Test func writesOneKotlinRouterPerAndroidAppAsTheGoldenFilesHoldThem() throws {
        defer { folder.remove() }
        let result = try linkwright(["generate", "kotlin"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == Self.kotlinRouters.map { "wrote generated/all/kotlin/\($0)\n" }.joined(), "\(result)")
        for router in Self.kotlinRouters {
            let written = try folder.read("generated/all/kotlin/\(router)")
            let golden = RepositoryPaths.root.appendingPathComponent(
                "Tests/LinkwrightEndToEndTests/Golden/generate/all/\(router).golden")
            if let mismatch = Golden.mismatch(written, golden: golden) { Issue.record("\(mismatch)") }
        }
        for router in Self.kotlinRouters {
            let long = try folder.read("generated/all/kotlin/\(router)").split(separator: "\n").filter {
                $0.count > 120
            }
            #expect(long.isEmpty, "\(router) has lines over 120 characters: \(long)")
        }
        // The package every environment's application ID starts with.
        let museo = try folder.read("generated/all/kotlin/MuseoDestination.kt")
        #expect(
            museo.contains("\npackage com.example.museo\n")
                && museo.contains("//   linkwright generate kotlin --app museo\n"))
        #expect(
            try folder.read("generated/all/kotlin/EmergenciasDestination.kt").contains("\npackage es.emergencias.app\n")
        )
    }

    @Test func aKotlinRouterTakesItsPackageFromAnOption() throws {
        defer { folder.remove() }
        let result = try linkwright([
            "generate", "kotlin", "--env", "production", "--app", "museo", "--package", "org.museo.links", "--out",
            "kt",
        ])
        #expect(result.status == 0 && result.stdout == "wrote kt/MuseoDestination.kt\n", "\(result)")
        let written = try folder.read("kt/MuseoDestination.kt")
        #expect(written.contains("\npackage org.museo.links\n"))
        #expect(
            written.contains("//   linkwright generate kotlin --env production --app museo --package org.museo.links\n")
        )
        #expect(!written.contains("staging.museo.example") && !written.contains("\"/preview/"))
        let keyword = try linkwright([
            "generate", "kotlin", "--app", "museo", "--package", "com.example.in", "--out", "kt",
        ])
        #expect(keyword.status == 0, "\(keyword)")
        #expect(try folder.read("kt/MuseoDestination.kt").contains("\npackage com.example.`in`\n"))
        let invalid = try linkwright(["generate", "kotlin", "--package", "com..museo"])
        #expect(invalid.status == 2 && invalid.stderr.contains("is not a Kotlin package name"), "\(invalid)")
        let swift = try linkwright(["generate", "swift", "--package", "com.example"])
        #expect(swift.status == 2 && swift.stderr.contains("--package is for kotlin routers"), "\(swift)")
        #expect(!folder.exists("generated"))
    }

    /// A router in its own module is usable from the app's module only when generated public (or
    /// package, within one package); the default keeps it internal. Kotlin has no package visibility.
    @Test(.enabled(if: SwiftCompiler.available, SwiftCompiler.missing))
    func accessDecidesWhoMayUseTheRouter() throws {
        defer { folder.remove() }
        let client = try folder.write(
            "client.swift",
            """
            import Routers

            if case .ticket(let id, let source)? = MuseoRouter.destination(for: "https://museo.example/tickets/a?source=b") {
                print(id ?? "", source)
            }

            """)
        let swiftc = URL(fileURLWithPath: SwiftCompiler.path!)
        /// Builds the router as the module `Routers` and type-checks the client against it.
        func clientCompiles(_ access: [String], package: [String] = []) throws -> Bool {
            let out = "swift" + (access.last ?? "default")
            let generated = try linkwright(["generate", "swift", "--app", "museo", "--out", out] + access)
            try #require(generated.status == 0, "\(generated)")
            let module = folder.url.appendingPathComponent(out + "/module")
            try FileManager.default.createDirectory(at: module, withIntermediateDirectories: true)
            let library = try runProcess(
                swiftc,
                SwiftCompiler.strictSwift6 + package + [
                    "-parse-as-library", "-emit-module", "-module-name", "Routers", "-emit-module-path",
                    module.appendingPathComponent("Routers.swiftmodule").path,
                    folder.url.appendingPathComponent(out + "/MuseoRouter.swift").path,
                ])
            try #require(library.status == 0, "\(library)")
            let use = try runProcess(
                swiftc, SwiftCompiler.strictSwift6 + package + ["-typecheck", "-I", module.path, client.path])
            return use.status == 0
        }
        #expect(try !clientCompiles([]))
        #expect(try clientCompiles(["--access", "public"]))
        #expect(try clientCompiles(["--access", "package"], package: ["-package-name", "museum"]))
        #expect(try folder.read("swiftpublic/MuseoRouter.swift").contains("--app museo --access public\n"))

        let kotlin = try linkwright(["generate", "kotlin", "--app", "museo", "--out", "kt"])
        #expect(kotlin.status == 0)
        #expect(try folder.read("kt/MuseoDestination.kt").contains("\ninternal sealed class"))
        let open = try linkwright(["generate", "kotlin", "--app", "museo", "--access", "public", "--out", "kt"])
        #expect(open.status == 0)
        #expect(try folder.read("kt/MuseoDestination.kt").contains("\nsealed class"))
        let package = try linkwright(["generate", "kotlin", "--access", "package", "--out", "kt2"])
        #expect(package.status == 2 && package.stderr.contains("Kotlin has no package visibility"), "\(package)")
        #expect(!folder.exists("kt2"))
    }

    /// A folder where one router goes is refused before any router is replaced; the temporary
    /// files killed runs left in the folder (`AtomicFiles`) are gone after the next run.
    @Test func aRunWritesEveryRouterOrNone() throws {
        defer { folder.remove() }
        #expect(try linkwright(["generate", "swift", "--out", "r"]).status == 0)
        try folder.write("r/EmergenciasRouter.swift", "// the previous router\n")
        try folder.write("r/.MuseoRouter.swift.k1lled.linkwright-tmp", "half a router")
        try folder.write("r/.notes.txt.abc.linkwright-tmp", "someone else's")
        let blocking = folder.url.appendingPathComponent("r/MuseoClipRouter.swift")
        try FileManager.default.removeItem(at: blocking)
        try FileManager.default.createDirectory(at: blocking, withIntermediateDirectories: false)
        let refused = try linkwright(["generate", "swift", "--out", "r"])
        #expect(refused.status != 0 && refused.stderr.contains("MuseoClipRouter.swift: is a folder"), "\(refused)")
        #expect(refused.stderr.contains("nothing was written"))
        #expect(try folder.read("r/EmergenciasRouter.swift") == "// the previous router\n")
        try FileManager.default.removeItem(at: blocking)
        #expect(try linkwright(["generate", "swift", "--out", "r"]).status == 0)
        #expect(try folder.read("r/EmergenciasRouter.swift") != "// the previous router\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("r").path)
        #expect(!left.contains { $0.hasSuffix(".linkwright-tmp") }, "\(left)")
    }

    @Test func aKotlinRouterNeedsAPackageItsApplicationIDsShare() throws {
        defer { folder.remove() }
        let staging = try folder.read("environments/staging.yaml")
        try folder.write(
            "environments/staging.yaml",
            staging.replacingOccurrences(of: "package: com.example.museo.staging", with: "package: org.museo.beta"))
        let result = try linkwright(["generate", "kotlin", "--app", "museo"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("the application IDs of museo share no package of two or more segments"))
        #expect(result.stderr.contains("--package"))
        #expect(try linkwright(["generate", "kotlin", "--app", "museo", "--package", "org.museo"]).status == 0)
    }

    @Test func aKotlinRouterNeedsDynamicRulesWhereTheDomainNamesRoutes() throws {
        defer { folder.remove() }
        let domain = try folder.read("domains/emergencias.yaml")
        try folder.write(
            "domains/emergencias.yaml",
            domain.replacingOccurrences(of: "emit:\n  android_dynamic_rules: true\n", with: ""))
        #expect(try linkwright(["lint"]).status == 0)
        let result = try linkwright(["generate", "kotlin", "--app", "emergencias"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains(
                "domain emergencias names routes but emits no Android dynamic rules, so on Android its intent filters alone decide"
            ), "\(result)")
        #expect(result.stderr.contains("android_dynamic_rules: true"))
        // The iOS router does not need them.
        #expect(try linkwright(["generate", "swift", "--app", "emergencias"]).status == 0)
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
        let kotlin = try linkwright(["generate", "kotlin", "--app", "museo"])
        #expect(kotlin.status == 2, "\(kotlin)")
        #expect(
            kotlin.stderr.contains(
                "museo.example is served to museo by production and by staging with different rules"),
            "\(kotlin)")
        #expect(try linkwright(["generate", "kotlin", "--app", "museo", "--env", "staging"]).status == 0)
    }

    @Test func refusesWhatItCannotGenerate() throws {
        defer { folder.remove() }
        let language = try linkwright(["generate", "cobol"])
        #expect(
            language.status == 2 && language.stderr.contains("unknown language \"cobol\"; choose swift, kotlin"),
            "\(language)")
        let missing = try linkwright(["generate"])
        #expect(missing.status == 2 && missing.stderr.contains("name the language"), "\(missing)")
        let clip = try linkwright(["generate", "kotlin", "--app", "museo-clip"])
        #expect(
            clip.status == 2 && clip.stderr.contains("no environment builds an Android app named \"museo-clip\""),
            "\(clip)")
        #expect(clip.stderr.contains("choose one of: emergencias, museo"), "\(clip)")
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

    /// An Xcode project beside the configuration: run from the project folder, as a Run Script
    /// phase runs, the lists name every configuration file and the router as $(SRCROOT) paths.
    @Test func xcfilelistsNameEveryConfigurationFileAndTheRouter() throws {
        defer { folder.remove() }
        let project = folder.url.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let result = try runLinkwright(
            [
                "generate", "swift", "--config", "..", "--env", "production", "--app", "museo", "--out", "Generated",
                "--xcfilelists",
            ], in: project)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout
                == "wrote Generated/MuseoRouter.swift\nwrote Generated/linkwright-swift-inputs.xcfilelist\n"
                + "wrote Generated/linkwright-swift-outputs.xcfilelist\n", "\(result)")
        let golden = RepositoryPaths.root.appendingPathComponent("Tests/LinkwrightEndToEndTests/Golden/xcfilelists")
        for kind in ["inputs", "outputs"] {
            let written = try folder.read("App/Generated/linkwright-swift-\(kind).xcfilelist")
            let file = golden.appendingPathComponent("linkwright-swift-\(kind).xcfilelist.golden")
            if let mismatch = Golden.mismatch(written, golden: file) { Issue.record("\(mismatch)") }
        }
        func listed(_ kind: String) throws -> [String] {
            try folder.read("App/Generated/linkwright-swift-\(kind).xcfilelist").split(separator: "\n").map {
                #expect($0.hasPrefix("$(SRCROOT)/"))
                return project.appendingPathComponent(String($0.dropFirst("$(SRCROOT)/".count))).standardizedFileURL
                    .path
            }
        }
        // Every listed input exists, and every file linkwright reads is listed.
        let inputs = try listed("inputs")
        for input in inputs { #expect(FileManager.default.fileExists(atPath: input), "\(input)") }
        var configuration: [String] = []
        for kind in ["environments", "domains", "policies"] {
            let names = try FileManager.default.contentsOfDirectory(
                atPath: folder.url.appendingPathComponent(kind).path)
            configuration += names.filter { $0.hasSuffix(".yaml") }.map {
                folder.url.appendingPathComponent("\(kind)/\($0)").standardizedFileURL.path
            }
        }
        #expect(Set(inputs) == Set(configuration))
        #expect(try listed("outputs") == [project.appendingPathComponent("Generated/MuseoRouter.swift").path])
    }

    /// --file: one app's router at a fixed name, the build-tool plugin's output; the lists go beside it.
    @Test func fileWritesOneRouterUnderTheGivenName() throws {
        defer { folder.remove() }
        let result = try linkwright([
            "generate", "swift", "--app", "museo", "--file", "out/LinkwrightRouter.swift", "--xcfilelists",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("wrote out/LinkwrightRouter.swift\n"), "\(result)")
        #expect(try folder.read("out/LinkwrightRouter.swift").contains("enum MuseoRouter {"))
        #expect(try folder.read("out/linkwright-swift-outputs.xcfilelist") == "$(SRCROOT)/out/LinkwrightRouter.swift\n")
        let many = try linkwright(["generate", "swift", "--file", "Router.swift"])
        #expect(
            many.status == 2
                && many.stderr.contains(
                    "--file writes one router, and 3 apps would be written (emergencias, museo, museo-clip); choose one with --app"
                ), "\(many)")
        let both = try linkwright(["generate", "swift", "--app", "museo", "--file", "R.swift", "--out", "x"])
        #expect(both.status == 2 && both.stderr.contains("give --file or --out, not both"), "\(both)")
        #expect(!folder.exists("Router.swift") && !folder.exists("R.swift"))
    }

    @Test func anAppWhoseRulesNameNoRouteHasNoRouter() throws {
        defer { folder.remove() }
        try folder.write(
            "domains/emergencias.yaml", "applinks:\n  - apps: [emergencias]\n    rules:\n      - path: /servicio/*\n")
        // Nor do its schemes: their routes and expectations go too.
        for environment in ["production", "staging", "development"] {
            var skipping = false
            let kept = try folder.read("environments/\(environment).yaml").split(
                separator: "\n", omittingEmptySubsequences: false
            ).filter { line in
                if line == "        routes:" || line == "        expectations:" {
                    skipping = true
                } else if !line.hasPrefix("          ") {
                    skipping = false
                }
                return !skipping
            }
            try folder.write("environments/\(environment).yaml", kept.joined(separator: "\n"))
        }
        #expect(try linkwright(["lint"]).status == 0)
        let result = try linkwright(["generate", "swift", "--app", "emergencias"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "error: domains/emergencias.yaml:4:9: no rule opening emergencias names a route, so its router would have no destination\n"
            ), "\(result)")
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
