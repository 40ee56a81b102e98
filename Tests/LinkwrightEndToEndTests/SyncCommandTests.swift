import Foundation
import LinkwrightTestSupport
import Testing

/// `linkwright sync` on the example app tree (examples/app), run as built in throwaway git
/// repositories holding the example configuration and the app's files as they were before:
/// the committed tree is the golden output.
@Suite struct SyncCommandTests {
    static let before = RepositoryPaths.root.appendingPathComponent(
        "Tests/LinkwrightEndToEndTests/Fixtures/AppSync/before")
    static let golden = RepositoryPaths.root.appendingPathComponent("examples/app")

    /// The app files the example configuration declares, under examples/app.
    static let appFiles = [
        "ios/Museo/Production.entitlements", "ios/Museo/Info-Production.plist",
        "android/app/src/production/AndroidManifest.xml", "ios/Museo/Staging.entitlements",
        "ios/Museo/Info-Staging.plist", "android/app/src/staging/AndroidManifest.xml",
    ]

    static func beforeText(_ path: String) throws -> String {
        try String(contentsOf: before.appendingPathComponent(path), encoding: .utf8)
    }

    /// A repository holding the example configuration and the app files as they were before sync.
    func repository() throws -> GitFixture {
        let git = try GitFixture()
        var files = try GitFixture.exampleFiles()
        for path in Self.appFiles { files["examples/app/" + path] = try Self.beforeText(path) }
        try git.commit("the example and its app", files)
        return git
    }

    func sync(_ arguments: [String] = [], in git: GitFixture) throws -> ProcessResult {
        try runLinkwright(["sync"] + arguments, in: URL(fileURLWithPath: git.repository))
    }

    func appFile(_ path: String, in git: GitFixture) throws -> String {
        try String(contentsOfFile: git.repository + "/examples/app/" + path, encoding: .utf8)
    }

    func expectUntouched(_ git: GitFixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for path in Self.appFiles {
            #expect(
                try appFile(path, in: git) == Self.beforeText(path), "\(path) was written",
                sourceLocation: sourceLocation)
        }
    }

    @Test func syncWritesTheExampleAppTreeAsCommittedAndASecondRunChangesNothing() throws {
        let git = try repository()
        let first = try sync(in: git)
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.hasSuffix("6 updated, 0 unchanged\n"), "\(first)")
        #expect(
            first.stderr.contains(
                "note: examples/app/android/app/src/production/AndroidManifest.xml: inserted the markers"),
            "\(first)")
        for path in Self.appFiles {
            if let mismatch = Golden.mismatch(
                try appFile(path, in: git), golden: Self.golden.appendingPathComponent(path))
            {
                Issue.record(Comment(rawValue: mismatch))
            }
        }
        try git.commit("synced")
        let second = try sync(in: git)
        #expect(second.status == 0 && second.stdout.hasSuffix("0 updated, 6 unchanged\n"), "\(second)")
        #expect(try git.git("status", "--porcelain").isEmpty)
        let check = try sync(["--check"], in: git)
        #expect(check.status == 0 && check.stdout.hasSuffix("6 app files in step with the configuration\n"), "\(check)")
    }

    /// The repository's own example app tree is what its configuration says, as dist/ is.
    @Test func theCommittedExampleIsInStep() throws {
        let result = try runLinkwright(["sync", "--check"], in: RepositoryPaths.root)
        #expect(result.status == 0, "examples/app drifted: run `linkwright sync` at the top\n\(result)")
    }

    /// Every byte outside the contract's part is the app's own, as it was.
    @Test func onlyTheContractsPartChanges() throws {
        let git = try repository()
        #expect(try sync(in: git).status == 0)
        let script = """
            import plistlib, sys
            owned = {"entitlements": "com.apple.developer.associated-domains", "plist": "CFBundleURLTypes"}
            for before, after in zip(sys.argv[1::2], sys.argv[2::2]):
                key = owned[before.rsplit(".", 1)[1]]
                old, new = (plistlib.load(open(p, "rb")) for p in (before, after))
                old.pop(key, None); new.pop(key, None)
                print("same" if old == new else f"differs: {before}")
            """
        var arguments: [String] = []
        for path in Self.appFiles where !path.hasSuffix(".xml") {
            arguments += [Self.before.appendingPathComponent(path).path, git.repository + "/examples/app/" + path]
        }
        let result = try python(script, arguments)
        #expect(result.stdout == String(repeating: "same\n", count: 4), "\(result)")
        // Manifests: the file without the lines from the begin marker to the end marker is the
        // file as it was without them (the production flavor had none).
        func outsideMarkers(_ text: String) -> String {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            if let begin = lines.firstIndex(where: { $0.contains("<!-- linkwright:begin") }),
                let end = lines.firstIndex(where: { $0.contains("<!-- linkwright:end") })
            {
                lines.removeSubrange(begin...end)
            }
            return lines.joined(separator: "\n")
        }
        for path in Self.appFiles where path.hasSuffix(".xml") {
            #expect(outsideMarkers(try appFile(path, in: git)) == outsideMarkers(try Self.beforeText(path)), "\(path)")
        }
    }

    /// Apple's `plutil -lint` accepts the written property lists and Python's XML parser the
    /// manifests (no aapt here).
    @Test(.enabled(if: InstalledTool.path("plutil") != nil, "plutil is not on PATH"))
    func theWrittenFilesAreWellFormed() throws {
        let git = try repository()
        #expect(try sync(in: git).status == 0)
        let plutil = try #require(InstalledTool.path("plutil"))
        for path in Self.appFiles where !path.hasSuffix(".xml") {
            let result = try runProcess(plutil, ["-lint", git.repository + "/examples/app/" + path])
            #expect(result.status == 0 && result.stdout.hasSuffix(": OK\n"), "\(path): \(result)")
        }
        let manifests = Self.appFiles.filter { $0.hasSuffix(".xml") }.map { git.repository + "/examples/app/" + $0 }
        let parsed = try python(
            "import sys, xml.dom.minidom\nfor p in sys.argv[1:]: print(xml.dom.minidom.parse(p).documentElement.tagName)",
            manifests)
        #expect(parsed.stdout == "manifest\nmanifest\n", "\(parsed)")
    }

    @Test func checkCatchesAHandEditAndWritesNothing() throws {
        let git = try repository()
        #expect(try sync(in: git).status == 0)
        try git.commit("synced")
        let entitlements = "examples/app/ios/Museo/Production.entitlements"
        let manifest = "examples/app/android/app/src/staging/AndroidManifest.xml"
        let edited = [
            entitlements: try appFile("ios/Museo/Production.entitlements", in: git).replacingOccurrences(
                of: "\t\t<string>applinks:*.museo.example</string>\n", with: ""),
            manifest: try appFile("android/app/src/staging/AndroidManifest.xml", in: git).replacingOccurrences(
                of: "android:host=\"staging.museo.example\"", with: "android:host=\"staging.museo.example.evil\""),
        ]
        try git.commit("hand edits", edited)
        let check = try sync(["--check"], in: git)
        #expect(check.status == 1, "\(check)")
        #expect(
            check.stdout.contains(
                "\(entitlements): differs (com.apple.developer.associated-domains of museo in production)\n  + <string>applinks:*.museo.example</string>\n"
            ), "\(check)")
        #expect(
            check.stdout.contains(
                "\(manifest): differs (intent filters of museo in staging)\n  - <data android:host=\"staging.museo.example.evil\" />\n  + <data android:host=\"staging.museo.example\" />\n"
            ), "\(check)")
        #expect(check.stdout.hasSuffix("2 of 6 app files out of step; run `linkwright sync` to update them\n"))
        for (path, text) in edited {
            #expect(try String(contentsOfFile: git.repository + "/" + path, encoding: .utf8) == text)
        }
        let json = try sync(["--check", "--format", "json"], in: git)
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(
            files.filter { $0["status"] as? String == "differs" }.compactMap { $0["path"] as? String } == [
                entitlements, manifest,
            ])
        let github = try sync(["--check", "--format", "github"], in: git)
        #expect(github.stdout.contains("::error file=\(entitlements),line=1"), "\(github)")
    }

    /// A monorepo: the configuration in links/, the app beside it, named with `..`; output names
    /// the files from where they open, without `..` pairs.
    @Test func aConfigurationInASubfolderReachesTheAppBesideIt() throws {
        let git = try GitFixture()
        var files: [String: String?] = [:]
        for (path, text) in try GitFixture.exampleFiles() {
            files["links/" + path] = text?.replacingOccurrences(of: ": examples/app/", with: ": ../examples/app/")
        }
        for path in Self.appFiles { files["examples/app/" + path] = try Self.beforeText(path) }
        try git.commit("a monorepo", files)
        let result = try sync(["--config", "links"], in: git)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("examples/app/ios/Museo/Production.entitlements: updated"), "\(result)")
        for path in Self.appFiles {
            #expect(
                try appFile(path, in: git)
                    == String(contentsOf: Self.golden.appendingPathComponent(path), encoding: .utf8))
        }
        try git.commit("synced")
        let inner = try runLinkwright(
            ["sync", "--check", "--format", "json"], in: URL(fileURLWithPath: git.repository + "/links/domains"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(inner.stdout.utf8)) as? [String: Any])
        let paths = try #require(object["files"] as? [[String: Any]]).compactMap { $0["path"] as? String }
        #expect(paths == Self.appFiles.map { "examples/app/" + $0 }, "\(inner)")
    }

    @Test func filtersTakeOneEnvironmentOrApp() throws {
        let git = try repository()
        let staging = try sync(["--env", "staging"], in: git)
        #expect(staging.status == 0 && staging.stdout.hasSuffix("3 updated, 0 unchanged\n"), "\(staging)")
        #expect(
            try appFile("ios/Museo/Production.entitlements", in: git)
                == Self.beforeText("ios/Museo/Production.entitlements"))
        let android = try sync(["--check", "--platform", "android"], in: git)
        #expect(
            android.status == 1
                && android.stdout.hasSuffix("1 of 2 app files out of step; run `linkwright sync` to update them\n"),
            "\(android)")
        let unknown = try sync(["--app", "museum"], in: git)
        #expect(unknown.status == 2 && unknown.stderr.hasPrefix("error: unknown app \"museum\""), "\(unknown)")
        let none = try sync(["--app", "emergencias"], in: git)
        #expect(none.status == 0 && none.stderr.contains("note: no app files are declared"), "\(none)")
    }

    @Test func aBinaryPropertyListIsRefusedAndNothingIsWritten() throws {
        let git = try repository()
        let path = git.repository + "/examples/app/ios/Museo/Production.entitlements"
        let converted = try python(
            "import plistlib, sys\nd = plistlib.load(open(sys.argv[1], 'rb'))\nplistlib.dump(d, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)",
            [path])
        #expect(converted.status == 0, "\(converted)")
        try git.commit("binary")
        let binary = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try sync(in: git)
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains(
                "examples/app/ios/Museo/Production.entitlements:1:1: error: is a binary property list; sync edits XML property lists only [APP_FILE_UNUSABLE]\n  hint: convert it once with `plutil -convert xml1 examples/app/ios/Museo/Production.entitlements`"
            ), "\(result)")
        #expect(result.stdout == "nothing written: 1 app file cannot be kept in step\n", "\(result)")
        let check = try sync(["--check"], in: git)
        #expect(check.status == 2 && check.stdout == "1 app file cannot be checked\n", "\(check)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == binary)
        for path in Self.appFiles where path != "ios/Museo/Production.entitlements" {
            #expect(try appFile(path, in: git) == Self.beforeText(path), "\(path) was written")
        }
    }

    /// A committed link, to a file or through a folder, is never followed, wherever it points.
    @Test(arguments: ["ios/Museo/Staging.entitlements", "ios"])
    func aLinkOutOfTheRepositoryIsRefused(_ linked: String) throws {
        let git = try repository()
        let outside = git.folder + "/outside"
        let inside = git.repository + "/examples/app/" + linked
        try FileManager.default.moveItem(atPath: inside, toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: inside, withDestinationPath: outside)
        try git.commit("a link")
        let kept = try Data(
            contentsOf: URL(fileURLWithPath: linked == "ios" ? outside + "/Museo/Staging.entitlements" : outside))
        let result = try sync(in: git)
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains(
                linked == "ios"
                    ? "is a symbolic link, not a folder (examples/app/ios)" : "is a symbolic link, not a regular file"),
            "\(result)")
        #expect(!result.stderr.contains(git.folder), "a machine path is printed: \(result)")
        #expect(result.stderr.contains("sync never follows links"), "\(result)")
        let after = try Data(
            contentsOf: URL(fileURLWithPath: linked == "ios" ? outside + "/Museo/Staging.entitlements" : outside))
        #expect(after == kept)
        for path in Self.appFiles where path.hasSuffix(".xml") {
            #expect(try appFile(path, in: git) == Self.beforeText(path), "\(path) was written")
        }
    }

    @Test func aPathOutOfTheRepositoryIsRefusedWhereItIsDeclared() throws {
        let git = try repository()
        let environment = try String(contentsOfFile: git.repository + "/environments/production.yaml", encoding: .utf8)
        try git.commit(
            "outside",
            [
                "environments/production.yaml": environment.replacingOccurrences(
                    of: "entitlements: examples/app/ios/Museo/Production.entitlements",
                    with: "entitlements: ../outside.entitlements")
            ])
        let result = try sync(in: git)
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains(
                "../outside.entitlements:1:1: error: leads outside the repository [APP_FILE_UNUSABLE]\n  hint: sync writes only files inside the repository; fix the path at environments/production.yaml:"
            ), "\(result)")
        try expectUntouched(git)
    }

    @Test func uncommittedChangesAreRefused() throws {
        let git = try repository()
        let plist = "ios/Museo/Info-Production.plist"
        let changed = try Self.beforeText(plist).replacingOccurrences(
            of: "Museo</string>", with: "Museo Nuevo</string>")
        try git.write(["examples/app/" + plist: changed])
        let result = try sync(in: git)
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains(
                "examples/app/\(plist):1:1: error: has uncommitted changes [APP_FILE_UNUSABLE]\n  hint: commit or stash them, then sync again; nothing was written"
            ), "\(result)")
        #expect(try appFile(plist, in: git) == changed)
        for path in Self.appFiles where path != plist {
            #expect(try appFile(path, in: git) == Self.beforeText(path), "\(path) was written")
        }
        // --check reads the working tree as it is: it writes nothing, so it mixes with nothing.
        #expect(try sync(["--check"], in: git).status == 1)
    }

    /// A folder nothing can be created in (immutable, which holds even for root) stops the write
    /// of the file in it after the others are staged: none of them is switched.
    @Test func oneFileThatCannotBeWrittenLeavesEveryFileAsItWas() throws {
        let git = try repository()
        let folder = git.repository + "/examples/app/android/app/src/staging"
        let locked = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["chattr", "+i", folder])
        defer { _ = try? runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["chattr", "-i", folder]) }
        guard locked.status == 0 else {
            // Without chattr (not root, or a file system without the flag) the case cannot be made.
            withKnownIssue("chattr +i is not available here: \(locked.stderr)") { Issue.record("not run") }
            return
        }
        let result = try sync(in: git)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("error: cannot write examples/app/android/app/src/staging"), "\(result)")
        #expect(result.stderr.contains("nothing was written"), "\(result)")
        try expectUntouched(git)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: git.repository + "/examples/app/ios/Museo").allSatisfy {
                !$0.hasSuffix(".linkwright-tmp")
            })
    }
}
