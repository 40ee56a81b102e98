import Foundation
import LinkwrightTestSupport
import Testing

/// `linkwright build` and `lint` run as a user runs them: the built binary in a folder holding a
/// copy of the example configuration.
@Suite struct BuildCommandTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        try folder.copyExampleConfiguration()
    }

    private func linkwright(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try runLinkwright(arguments, in: folder.url, environment: environment)
    }

    private func files(under path: String) -> [String] {
        let root = folder.url.appendingPathComponent(path)
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let next = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root.appendingPathComponent(next).path, isDirectory: &isFolder)
            if !isFolder.boolValue { found.append(next) }
        }
        return found.sorted()
    }

    @Test func buildsTheExampleAndSummarisesWhatItWrote() throws {
        defer { folder.remove() }
        let result = try linkwright(["build"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains(
                "production (production): 4 hosts (museo.example, *.museo.example, entradas.museo.example, app.emergencias.example), 3 entitlements files, 2 intent-filter files, 2 URL-types files\n"
            ))
        #expect(result.stdout.hasSuffix("dist: 29 created, 0 updated, 0 unchanged, 0 removed\n"))
        #expect(
            result.stderr.hasPrefix(
                "domains/museo.yaml:31:9: warning: Android dynamic rules have no substitution variables"))
        #expect(files(under: "dist").contains("production/museo.example/.well-known/apple-app-site-association"))
        #expect(files(under: "dist").contains("staging/ios/museo-clip.entitlements"))
        #expect(files(under: "dist").contains("production/ios/emergencias.url-types.plist"))
        #expect(files(under: "dist").contains(".linkwright-manifest"))
    }

    @Test func twoBuildsWriteIdenticalBytesAndMatchTheCommittedDist() throws {
        defer { folder.remove() }
        #expect(try linkwright(["build", "--out", "one"]).status == 0)
        #expect(try linkwright(["build", "--out", "two"]).status == 0)
        let written = files(under: "one")
        #expect(written == files(under: "two"))
        for path in written {
            let one = try Data(contentsOf: folder.url.appendingPathComponent("one/" + path))
            #expect(one == (try Data(contentsOf: folder.url.appendingPathComponent("two/" + path))), "\(path)")
            #expect(
                one == (try Data(contentsOf: RepositoryPaths.root.appendingPathComponent("dist/" + path))), "\(path)")
        }
        let second = try linkwright(["build", "--out", "one"])
        #expect(second.stdout.hasSuffix("one: 0 created, 0 updated, 29 unchanged, 0 removed\n"))
    }

    @Test func checkFindsEveryKindOfDrift() throws {
        defer { folder.remove() }
        #expect(try linkwright(["build"]).status == 0)
        let clean = try linkwright(["build", "--check"])
        #expect(clean.status == 0)
        #expect(clean.stdout == "dist: 29 files up to date\n")

        try folder.write("dist/production/museo.example/.well-known/assetlinks.json", "[]\n")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("dist/staging/ios/museo.entitlements"))
        let environment = try folder.read("environments/staging.yaml").replacingOccurrences(
            of: "  app.staging.emergencias.example: emergencias\n", with: "")
        try folder.write("environments/staging.yaml", environment)
        let drift = try linkwright(["build", "--check"])
        #expect(drift.status == 1, "\(drift)")
        #expect(
            drift.stdout.contains("dist/production/museo.example/.well-known/assetlinks.json: differs from the build\n")
        )
        #expect(drift.stdout.contains("dist/staging/ios/museo.entitlements: missing\n"))
        #expect(
            drift.stdout.contains(
                "dist/staging/app.staging.emergencias.example/.well-known/apple-app-site-association: no longer produced\n"
            ))
        #expect(drift.stdout.contains("out of date; run `linkwright build` to update them"))
        // --check writes nothing.
        #expect(!folder.exists("dist/staging/ios/museo.entitlements"))
    }

    @Test func removesWhatItWroteForVanishedHostsAndNothingElse() throws {
        defer { folder.remove() }
        #expect(try linkwright(["build"]).status == 0)
        try folder.write("dist/README.md", "published by the web team\n")
        try folder.write("dist/staging/app.staging.emergencias.example/.well-known/security.txt", "Contact: x\n")
        let environment = try folder.read("environments/staging.yaml").replacingOccurrences(
            of: "  app.staging.emergencias.example: emergencias\n", with: "")
        try folder.write("environments/staging.yaml", environment)
        let result = try linkwright(["build"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasSuffix("dist: 0 created, 1 updated, 25 unchanged, 3 removed\n"))
        #expect(!folder.exists("dist/staging/app.staging.emergencias.example/.well-known/apple-app-site-association"))
        // The app still declares its custom scheme: only the verified filter goes.
        let filters = try folder.read("dist/staging/android/emergencias.intent-filters.xml")
        #expect(!filters.contains("autoVerify") && filters.contains("es.emergencias.app.staging"))
        #expect(!folder.exists("dist/staging/ios/emergencias.entitlements"))
        #expect(folder.exists("dist/README.md"))
        #expect(folder.exists("dist/staging/app.staging.emergencias.example/.well-known/security.txt"))
        #expect(!(try folder.read("dist/.linkwright-manifest")).contains("app.staging.emergencias.example"))
    }

    @Test func aFailedWriteLeavesNoPartialOutput() throws {
        defer { folder.remove() }
        // A file where the build needs a folder: the write fails after other files were staged.
        try folder.write("dist/staging", "not a folder\n")
        let result = try linkwright(["build"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: cannot write"))
        #expect(result.stderr.contains("hint: nothing was changed in dist"))
        #expect(files(under: "dist") == ["staging"])
    }

    /// Each environment's files are staged while the next is compiled: an environment compiled
    /// last that fails (an association file over Apple's limit) must discard what the ones
    /// before it staged, leave an existing output folder as it was, and not create a missing one.
    @Test func aCompileErrorInTheLastEnvironmentWritesNothing() throws {
        defer { folder.remove() }
        let rules = (0..<3000).map { "      - path: /products/category-\($0)/item-*\n" }.joined()
        try folder.write("domains/shop.yaml", "applinks:\n  - apps: [museo]\n    rules:\n" + rules)
        let staging = try folder.read("environments/staging.yaml")
        try folder.write(
            "environments/staging.yaml",
            staging.replacingOccurrences(of: "hosts:\n", with: "hosts:\n  shop.staging.example: shop\n"))
        let fresh = try linkwright(["build"])
        #expect(fresh.status == 2, "\(fresh)")
        #expect(fresh.stderr.contains("[AASA_TOO_LARGE]"))
        #expect(!folder.exists("dist"))
        let nested = try linkwright(["build", "--out", "out/site/dist"])
        #expect(nested.status == 2, "\(nested)")
        #expect(!folder.exists("out"))

        try folder.write("environments/staging.yaml", staging)
        #expect(try linkwright(["build"]).status == 0)
        let before = try files(under: "dist").map { ($0, try folder.read("dist/" + $0)) }
        try folder.write(
            "environments/staging.yaml",
            staging.replacingOccurrences(of: "hosts:\n", with: "hosts:\n  shop.staging.example: shop\n"))
        try folder.write(
            "environments/production.yaml",
            try folder.read("environments/production.yaml").replacingOccurrences(
                of: "team_id: A1B2C3D4E5", with: "team_id: Z9Y8X7W6V5"))
        #expect(try linkwright(["build"]).status == 2)
        let after = try files(under: "dist").map { ($0, try folder.read("dist/" + $0)) }
        #expect(after.map(\.0) == before.map(\.0))
        #expect(after.map(\.1) == before.map(\.1))
    }

    @Test func buildsOnlyTheSelectedEnvironments() throws {
        defer { folder.remove() }
        let result = try linkwright(["build", "--env", "staging", "--env", "development"])
        #expect(result.status == 0)
        #expect(
            files(under: "dist").allSatisfy {
                $0.hasPrefix("staging/") || $0.hasPrefix("development/") || $0 == ".linkwright-manifest"
            })
        // A later build of production alone keeps staging's files.
        #expect(try linkwright(["build", "--env", "production"]).status == 0)
        #expect(folder.exists("dist/staging/ios/museo.entitlements"))
        #expect(try linkwright(["build", "--check"]).status == 0)
    }

    @Test func anUnknownEnvironmentIsAUsageError() throws {
        defer { folder.remove() }
        let result = try linkwright(["build", "--env", "prod"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: unknown environment \"prod\"; did you mean \"production\"?"))
        #expect(!folder.exists("dist"))
    }

    @Test func invalidConfigurationIsReportedAllAtOnceAndNothingIsWritten() throws {
        defer { folder.remove() }
        let domain = try folder.read("domains/museo.yaml")
            .replacingOccurrences(
                of: "      - path: /exhibitions/*\n",
                with: "      - path: /exhibitions/$(year)/*\n        exclude: yes\n")
        try folder.write("domains/museo.yaml", domain)
        try folder.write(
            "environments/production.yaml",
            try folder.read("environments/production.yaml").replacingOccurrences(
                of: "team_id: A1B2C3D4E5", with: "team_id: A1B2C3D4E"))
        let result = try runLinkwright(
            ["build", "--config", folder.url.lastPathComponent], in: folder.url.deletingLastPathComponent())
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let name = folder.url.lastPathComponent
        let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("  hint:") }
        #expect(
            lines == [
                "\(name)/domains/museo.yaml:19:15: error: pattern \"/exhibitions/$(year)/*\" uses $(year), which is not defined [UNDEFINED_VARIABLE]",
                "\(name)/domains/museo.yaml:20:18: error: \"yes\" is not a boolean in YAML 1.2 (exclude needs true or false) [YAML11_BOOLEAN]",
                "\(name)/environments/production.yaml:4:10: error: \"A1B2C3D4E\" is not an Apple team ID [INVALID_TEAM_ID]",
            ])
        #expect(result.stderr.contains("  hint: copy the 10-character Team ID from the Membership page"))
        #expect(!folder.exists("dist"))
    }

    @Test func aMissingConfigurationFolderIsExplained() throws {
        defer { folder.remove() }
        let result = try linkwright(["lint", "--config", "nowhere"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: configuration folder nowhere does not exist"))
        let empty = try TemporaryFolder()
        defer { empty.remove() }
        let none = try runLinkwright(["lint"], in: empty.url)
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("error: no environment files found in environments/ [NO_ENVIRONMENTS]"))
    }

    @Test func lintReportsAndWritesNothing() throws {
        defer { folder.remove() }
        let result = try linkwright(["lint"])
        #expect(result.status == 0)
        // The widened `$(lang)` (`?*` before more text), which Android 15's first parser never matches.
        #expect(result.stdout == ".: configuration is valid (0 errors, 2 warnings)\n")
        #expect(!folder.exists("dist"))
    }

    @Test func jsonOutputIsValidJSONForAnIndependentParser() throws {
        defer { folder.remove() }
        let build = try linkwright(["build", "--format", "json"])
        #expect(build.status == 0)
        #expect(build.stderr.isEmpty)
        let lint = try linkwright(["lint", "--format", "json"])
        let script = """
            import json, sys
            build = json.loads(sys.argv[1]); lint = json.loads(sys.argv[2])
            assert len(build["files"]) == 29 and all(f["status"] == "created" for f in build["files"])
            assert build["environments"] == ["development", "production", "staging"]
            assert [d["id"] for d in lint] == ["ANDROID_PATTERN_WIDENED", "ANDROID_RELEASES_DIFFER"], lint
            assert all(d["file"] == "domains/museo.yaml" and d["line"] == 31 for d in lint)
            print("ok")
            """
        let checked = try python(script, [build.stdout, lint.stdout])
        #expect(checked.stdout == "ok\n", "\(checked)")
    }

    @Test func emittedFilesParseWithIndependentConsumers() throws {
        defer { folder.remove() }
        #expect(try linkwright(["build"]).status == 0)
        let written = files(under: "dist")
        for path in written where path.hasSuffix(".entitlements") || path.hasSuffix(".plist") {
            let lint = try runProcess(
                URL(fileURLWithPath: "/opt/swift/usr/bin/plutil"),
                ["-lint", folder.url.appendingPathComponent("dist/" + path).path])
            #expect(lint.status == 0, "\(path): \(lint)")
        }
        let script = """
            import json, plistlib, sys, xml.etree.ElementTree as ET, pathlib
            root = pathlib.Path(sys.argv[1])
            for path in sorted(root.rglob("*")):
                if path.name == "apple-app-site-association":
                    doc = json.loads(path.read_text()); assert "applinks" in doc or "webcredentials" in doc, path
                elif path.name == "assetlinks.json":
                    doc = json.loads(path.read_text()); assert all("target" in s for s in doc), path
                elif path.suffix == ".entitlements":
                    doc = plistlib.loads(path.read_bytes()); assert doc["com.apple.developer.associated-domains"], path
                elif path.name.endswith(".url-types.plist"):
                    doc = plistlib.loads(path.read_bytes())
                    assert all(t["CFBundleURLSchemes"] for t in doc["CFBundleURLTypes"]), path
                elif path.suffix == ".xml":
                    tree = ET.parse(path); assert tree.getroot().findall("intent-filter"), path
                else:
                    continue
                print(path.relative_to(root))
            """
        let checked = try python(script, [folder.url.appendingPathComponent("dist").path])
        #expect(checked.status == 0, "\(checked)")
        #expect(checked.stdout.split(separator: "\n").count == written.count - 1)
    }

    /// A path may hold `&`, `<` or `--` followed by a combining mark, or start with `/` and one:
    /// one Swift `Character` each, but still the reserved byte to an XML parser and the leading
    /// slash to Android. The intent filters stay well formed and, like the dynamic rules of
    /// `assetlinks.json`, give each path back unchanged.
    @Test func androidOutputKeepsPathsWithCombiningMarksAsWritten() throws {
        defer { folder.remove() }
        let paths = ["/a&\u{301}b<\u{338}c--\u{301}", "/\u{301}x"]
        let rules = paths.map { "      - path: \"\($0)/*\"\n        route: none\n        reason: odd names\n" }.joined()
        let domain = try folder.read("domains/emergencias.yaml").replacingOccurrences(
            of: "      - path: /servicio/*\n", with: rules + "      - path: /servicio/*\n")
        try folder.write("domains/emergencias.yaml", domain)
        let build = try linkwright(["build"])
        #expect(build.status == 0, "\(build)")
        let script = """
            import json, sys, pathlib, xml.etree.ElementTree as ET
            root, wanted = pathlib.Path(sys.argv[1]), [p + "/" for p in sys.argv[2:]]
            prefixes = set()
            for path in sorted(root.rglob("*.intent-filters.xml")):
                for data in ET.parse(path).iter("data"):
                    prefixes.add(data.get("{http://schemas.android.com/apk/res/android}pathPrefix"))
            assert all(p in prefixes for p in wanted), sorted(p for p in prefixes if p)
            dynamic = set()
            for path in root.rglob("assetlinks.json"):
                for statement in json.loads(path.read_text()):
                    for component in statement.get("relation_extensions", {}).get(
                            "delegate_permission/common.handle_all_urls", {}).get("dynamic_app_link_components", []):
                        dynamic.add(component.get("/"))
            assert all(p + "*" in dynamic for p in wanted), sorted(p for p in dynamic if p)
            print("ok")
            """
        let checked = try python(script, [folder.url.appendingPathComponent("dist").path] + paths)
        #expect(checked.stdout == "ok\n", "\(checked)")
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        defer { folder.remove() }
        let broken = try folder.read("environments/staging.yaml").replacingOccurrences(
            of: "tier: staging", with: "tier: stagign")
        try folder.write("environments/staging.yaml", broken)
        let piped = try linkwright(["lint"])
        #expect(!piped.stderr.contains("\u{1B}["))
        // `script` gives the command a pseudo-terminal.
        let binary = RepositoryPaths.products.appendingPathComponent("linkwright").path
        let terminal = try runProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", "\(binary) lint", "/dev/null"], in: folder.url)
        #expect(terminal.stdout.contains("\u{1B}[1;31merror:"), "\(terminal)")
        let noColor = try runProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", "\(binary) lint", "/dev/null"], in: folder.url,
            environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["), "\(noColor)")
        #expect(noColor.stdout.contains("error: \"stagign\" is not a valid tier"))
        // An empty NO_COLOR does not count (no-color.org).
        let empty = try runProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", "\(binary) lint", "/dev/null"], in: folder.url,
            environment: ["NO_COLOR": ""])
        #expect(empty.stdout.contains("\u{1B}[1;31merror:"), "\(empty)")
    }
}
