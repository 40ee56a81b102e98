import Foundation
import LinkwrightTestSupport
import Testing

@testable import LinkwrightCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `sync`'s edits of the app's own files, byte by byte: the contract's part replaced, every
/// other byte kept, a second pass changing nothing.
@Suite struct AppFileSyncTests {
    static let environment = """
        tier: production
        team_id: QRSTU67890
        apps:
          tienda:
            ios:
              bundle_id: com.example.tienda
              entitlements: App/Tienda.entitlements
              info_plist: App/Info.plist
            android:
              package: com.example.tienda
              fingerprints:
                play-signing: "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
              manifest: android/src/production/AndroidManifest.xml
              activity: .MainActivity
            schemes:
              com.example.tienda:
                purpose: deep-links
          quiet:
            ios:
              bundle_id: com.example.quiet
              entitlements: Quiet/Quiet.entitlements
              info_plist: Quiet/Info.plist
        hosts:
          tienda.example: tienda

        """

    static let domain = "applinks:\n  - apps: [tienda]\n    rules:\n      - path: /products/*\n"

    static func load(_ environment: String = environment) -> (Configuration?, [Diagnostic]) {
        let files = ["environments/production.yaml": environment, "domains/tienda.yaml": domain]
        return ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
    }

    func compiled() throws -> (Configuration, CompiledEnvironment) {
        let (configuration, diagnostics) = Self.load()
        let loaded = try #require(configuration, "\(diagnostics)")
        let environment = try #require(Compiler().compile(loaded).compiled.environments.first)
        return (loaded, environment)
    }

    func file(_ app: String, _ kind: AppFileKind) throws -> DeclaredAppFile {
        let (configuration, _) = try compiled()
        return try #require(configuration.environments[0].appFiles.first { $0.app == app && $0.kind == kind })
    }

    func sync(_ app: String, _ kind: AppFileKind, _ text: String) throws -> Result<AppFileOutcome, AppFileProblem> {
        let (_, environment) = try compiled()
        return AppFileSync.outcome(try file(app, kind), current: Array(text.utf8), compiled: environment)
    }

    func synced(_ app: String, _ kind: AppFileKind, _ text: String) throws -> (text: String, outcome: AppFileOutcome) {
        let outcome = try sync(app, kind, text).get()
        return (String(decoding: outcome.bytes, as: UTF8.self), outcome)
    }

    static let plistHead = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    static let entitlements =
        plistHead + """
            <dict>
            \t<key>aps-environment</key>
            \t<string>production</string>
            \t<key>com.apple.developer.associated-domains</key>
            \t<array>
            \t\t<string>applinks:old.example</string>
            \t</array>
            \t<!-- kept: a comment, and a group with &amp; in it -->
            \t<key>keychain-access-groups</key>
            \t<array>
            \t\t<string>$(AppIdentifierPrefix)com.example.a&amp;b</string>
            \t</array>
            </dict>
            </plist>

            """

    @Test func theAssociatedDomainsValueIsReplacedAndEveryOtherByteKept() throws {
        let (text, outcome) = try synced("tienda", .entitlements, Self.entitlements)
        #expect(outcome.changes)
        let expected = Self.entitlements.replacingOccurrences(
            of: "\t\t<string>applinks:old.example</string>\n",
            with: "\t\t<string>applinks:tienda.example</string>\n")
        #expect(text == expected)
        #expect(
            outcome.differences == [
                "- <string>applinks:old.example</string>", "+ <string>applinks:tienda.example</string>",
            ])
        let again = try synced("tienda", .entitlements, text)
        #expect(!again.outcome.changes && again.text == text)
    }

    @Test func anAbsentKeyIsAddedBeforeTheDictionaryEndsInTheFilesIndentation() throws {
        let spaced =
            Self.plistHead + "<dict>\n  <key>aps-environment</key>\n  <string>development</string>\n</dict>\n</plist>\n"
        let (text, _) = try synced("tienda", .entitlements, spaced)
        #expect(
            text
                == Self.plistHead + "<dict>\n  <key>aps-environment</key>\n  <string>development</string>\n"
                + "  <key>com.apple.developer.associated-domains</key>\n  <array>\n    <string>applinks:tienda.example</string>\n  </array>\n"
                + "</dict>\n</plist>\n")
    }

    @Test func anEmptyDictionaryAsXcodeWritesItIsOpened() throws {
        let (text, _) = try synced("tienda", .entitlements, Self.plistHead + "<dict/>\n</plist>\n")
        #expect(
            text
                == Self.plistHead
                + "<dict>\n\t<key>com.apple.developer.associated-domains</key>\n\t<array>\n\t\t<string>applinks:tienda.example</string>\n\t</array>\n</dict>\n</plist>\n"
        )
    }

    @Test func theKeyIsRemovedWhenTheAppHasNoHost() throws {
        let (text, outcome) = try synced("quiet", .entitlements, Self.entitlements)
        #expect(outcome.changes)
        #expect(
            text
                == Self.entitlements.replacingOccurrences(
                    of:
                        "\t<key>com.apple.developer.associated-domains</key>\n\t<array>\n\t\t<string>applinks:old.example</string>\n\t</array>\n",
                    with: ""))
        #expect(try !synced("quiet", .entitlements, text).outcome.changes)
    }

    @Test func aValueEqualInAnotherLayoutIsLeftAsWritten() throws {
        let compact =
            Self.plistHead
            + "<dict><key>com.apple.developer.associated-domains</key><array><string>applinks:tienda.example</string></array></dict></plist>"
        let (text, outcome) = try synced("tienda", .entitlements, compact)
        #expect(!outcome.changes && text == compact)
    }

    @Test func aBinaryPropertyListIsRefusedWithTheCommandThatConvertsIt() throws {
        let result = try sync("tienda", .entitlements, "bplist00\u{D1}\u{01}\u{02}")
        let problem = try #require(result.failure, "refused")
        #expect(problem.message == "is a binary property list; sync edits XML property lists only")
        #expect(problem.hint.contains("plutil -convert xml1 App/Tienda.entitlements"))
    }

    @Test func aKeyWrittenTwiceIsRefusedWhereTheSecondIs() throws {
        let twice = Self.entitlements.replacingOccurrences(
            of: "\t<key>keychain-access-groups</key>", with: "\t<key>com.apple.developer.associated-domains</key>")
        let problem = try #require(try sync("tienda", .entitlements, twice).failure, "refused")
        #expect(problem.message == "holds the key com.apple.developer.associated-domains twice")
        #expect(problem.line == 12 && problem.column == 2)
    }

    @Test func theURLTypesAreTheBuildsAndOtherKeysStay() throws {
        let info =
            Self.plistHead + "<dict>\n\t<key>CFBundleDisplayName</key>\n\t<string>Tienda</string>\n</dict>\n</plist>\n"
        let (text, _) = try synced("tienda", .infoPlist, info)
        let parsed = try PropertyList.parse(Array(text.utf8))
        #expect(parsed["CFBundleDisplayName"] == .string("Tienda"))
        let types = try #require(parsed["CFBundleURLTypes"]?.array)
        #expect(types.map { $0["CFBundleURLSchemes"]?.strings } == [["com.example.tienda"]])
        #expect(types.map { $0["CFBundleTypeRole"] } == [.string("Viewer")])
        // The quiet app declares no scheme: its hand-written URL types go.
        let (quiet, _) = try synced("quiet", .infoPlist, text)
        #expect(quiet == info)
    }

    /// Values are escaped as build escapes them: what validation lets through cannot hold `<` or
    /// `&`, so the renderer is fed them directly.
    @Test func hostileValuesAreEscaped() throws {
        let app = CompiledIOSApp(
            name: "x", appID: "A.x", isAppClip: false, associatedDomains: ["applinks:a&b<c>\"d"],
            urlSchemes: [CompiledScheme(name: "s&<>", purpose: .deepLinks)])
        let domains = ArtifactRenderer.associatedDomainsValue(app, indent: "\t", unit: "\t")
        #expect(domains.contains("<string>applinks:a&amp;b&lt;c&gt;&quot;d</string>"))
        #expect(try PropertyList.parse(Array("<plist>\(domains)</plist>".utf8)).strings == ["applinks:a&b<c>\"d"])
        let types = ArtifactRenderer.urlTypesValue(app, indent: "\t", unit: "\t")
        let parsed = try PropertyList.parse(Array("<plist>\(types)</plist>".utf8))
        #expect(parsed.array?.first?["CFBundleURLSchemes"]?.strings == ["s&<>"])
    }

    static let manifest = """
        <?xml version="1.0" encoding="utf-8"?>
        <manifest xmlns:android="http://schemas.android.com/apk/res/android">
          <application>
            <!-- a comment with <activity android:name=".MainActivity"> in it -->
            <activity android:name=".Other" />
            <activity android:name=".MainActivity" android:label="a &gt; b">
              <intent-filter>
                <action android:name="android.intent.action.MAIN" />
              </intent-filter>
            </activity>
          </application>
        </manifest>

        """

    @Test func markersAreInsertedIntoTheNamedActivityAndTheRestKept() throws {
        let (text, outcome) = try synced("tienda", .manifest, Self.manifest)
        let anchor = "<activity android:name=\".MainActivity\" android:label=\"a &gt; b\">"
        let parts = Self.manifest.components(separatedBy: anchor)
        #expect(
            text.hasPrefix(parts[0] + anchor + "\n      <!-- linkwright:begin intent filters of tienda in production"))
        #expect(text.hasSuffix("      <!-- linkwright:end -->\n" + parts[1].dropFirst()))
        #expect(text.contains("\n      <intent-filter android:autoVerify=\"true\">\n        <action"))
        #expect(text.contains("        <data android:host=\"tienda.example\" />\n"))
        #expect(text.contains("        <data android:scheme=\"com.example.tienda\" />\n"))
        #expect(outcome.note?.hasPrefix("inserted the markers") == true)
        let again = try synced("tienda", .manifest, text)
        #expect(!again.outcome.changes && again.text == text)
        #expect(try XMLDocument(data: Data(text.utf8)).rootElement()?.name == "manifest")
        // A hand edit between the markers is drift, put right on the next pass.
        let edited = text.replacingOccurrences(
            of: "android:host=\"tienda.example\"", with: "android:host=\"evil.example\"")
        let repaired = try synced("tienda", .manifest, edited)
        #expect(
            repaired.outcome.differences == [
                "- <data android:host=\"evil.example\" />", "+ <data android:host=\"tienda.example\" />",
            ])
        #expect(repaired.text == text)
    }

    @Test func aSelfClosingActivityIsOpenedToHoldTheFilters() throws {
        let manifest = Self.manifest.replacingOccurrences(
            of: "<activity android:name=\".Other\" />", with: "<activity android:name=\".Other\"/>")
        let declared = Self.environment.replacingOccurrences(of: "activity: .MainActivity", with: "activity: .Other")
        let (configuration, _) = Self.load(declared)
        let loaded = try #require(configuration)
        let environment = try #require(Compiler().compile(loaded).compiled.environments.first)
        let file = try #require(loaded.environments[0].appFiles.first { $0.kind == .manifest })
        let outcome = try AppFileSync.outcome(file, current: Array(manifest.utf8), compiled: environment).get()
        let text = String(decoding: outcome.bytes, as: UTF8.self)
        #expect(text.contains("    <activity android:name=\".Other\">\n      <!-- linkwright:begin"))
        #expect(
            text.contains(
                "      <!-- linkwright:end -->\n    </activity>\n    <activity android:name=\".MainActivity\""))
        #expect(try XMLDocument(data: Data(text.utf8)).rootElement() != nil)
    }

    @Test func aMissingActivityNamesTheOnesThere() throws {
        let manifest = Self.manifest.replacingOccurrences(
            of: "\".MainActivity\" android:label", with: "\".Main\" android:label")
        let problem = try #require(try sync("tienda", .manifest, manifest).failure, "refused")
        #expect(problem.message == "has no <activity android:name=\".MainActivity\">")
        #expect(problem.hint.contains("activities there: .Other, .Main"))
    }

    @Test func strayMarkersAreRefusedWhereTheyAre() throws {
        let stray = Self.manifest.replacingOccurrences(
            of: "    <activity android:name=\".Other\" />",
            with: "    <!-- linkwright:end -->\n    <activity android:name=\".Other\" />")
        let problem = try #require(try sync("tienda", .manifest, stray).failure, "refused")
        #expect(problem.line == 5 && problem.column == 5)
        #expect(problem.message.hasPrefix("has linkwright markers that are not one"))
    }

    /// The filters are written with `android:` attributes, which mean nothing under another prefix.
    @Test func aManifestBindingTheNamespaceToAnotherPrefixIsRefused() throws {
        let other = Self.manifest.replacingOccurrences(of: "xmlns:android=", with: "xmlns:a=")
        let problem = try #require(try sync("tienda", .manifest, other).failure)
        #expect(problem.message == "does not bind the Android namespace to the prefix android")
        #expect(problem.line == 2 && problem.column == 1)
    }

    @Test func aManifestThatIsNotWellFormedIsRefusedWhereItBreaks() throws {
        let broken = Self.manifest.replacingOccurrences(of: "    </activity>\n", with: "")
        let problem = try #require(try sync("tienda", .manifest, broken).failure, "refused")
        #expect(problem.message == "is not well-formed XML: </application> does not close <activity>")
        #expect(problem.line == 10)
    }

    @Test func namesInTheMarkerCommentCannotEndIt() throws {
        let renamed = Self.environment.replacingOccurrences(of: "  tienda:\n", with: "  tienda--x:\n")
            .replacingOccurrences(of: "apps: [tienda]", with: "apps: [tienda--x]")
        let files = [
            "environments/production.yaml": renamed,
            "domains/tienda.yaml": Self.domain.replacingOccurrences(of: "[tienda]", with: "[tienda--x]"),
        ]
        let (configuration, diagnostics) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration, "\(diagnostics)")
        let environment = try #require(Compiler().compile(loaded).compiled.environments.first)
        let file = try #require(loaded.environments[0].appFiles.first { $0.kind == .manifest })
        let text = String(
            decoding: try AppFileSync.outcome(file, current: Array(Self.manifest.utf8), compiled: environment).get()
                .bytes,
            as: UTF8.self)
        #expect(text.contains("intent filters of tienda- -x in production"))
        #expect(try XMLDocument(data: Data(text.utf8)).rootElement() != nil)
    }
}

extension Result {
    /// The error, when the result is one.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// The keys that declare app files, checked where they are written.
@Suite struct AppFileDeclarationTests {
    func diagnostics(_ replacing: String, with replacement: String) -> [String] {
        let environment = AppFileSyncTests.environment.replacingOccurrences(of: replacing, with: replacement)
        #expect(environment != AppFileSyncTests.environment)
        return AppFileSyncTests.load(environment).1.filter { $0.severity == .error }.map {
            "\($0.location.map(\.description) ?? ""): \($0.message) [\($0.id.rawValue)]"
        }
    }

    @Test func theExampleDeclaresFilesWithoutError() {
        let (configuration, diagnostics) = AppFileSyncTests.load()
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty)
        #expect(
            configuration?.environments[0].appFiles.map { "\($0.app) \($0.kind.rawValue) \($0.path.value)" } == [
                "tienda entitlements App/Tienda.entitlements", "tienda info_plist App/Info.plist",
                "tienda manifest android/src/production/AndroidManifest.xml",
                "quiet entitlements Quiet/Quiet.entitlements",
                "quiet info_plist Quiet/Info.plist",
            ])
    }

    @Test(arguments: [
        ("/abs/Tienda.entitlements", "is absolute"), ("App//Tienda.entitlements", "has an empty or . component"),
        ("App/./Tienda.entitlements", "has an empty or . component"),
        ("App\\\\Tienda.entitlements", "holds a backslash or a NUL"),
        ("App/..", "names a folder, not a file"),
    ])
    func aPathThatIsNotPlainIsRefusedWhereItIsWritten(_ path: String, _ problem: String) {
        #expect(
            diagnostics("entitlements: App/Tienda.entitlements", with: "entitlements: \"\(path)\"") == [
                "environments/production.yaml:7:21: entitlements file \(PrintableText.quoted(path.replacingOccurrences(of: "\\\\", with: "\\"))) \(problem) [INVALID_VALUE]"
            ])
    }

    @Test func aPathLeadingOutOfTheConfigurationFolderIsAccepted() {
        #expect(
            diagnostics("entitlements: App/Tienda.entitlements", with: "entitlements: ../ios/Tienda.entitlements")
                .isEmpty)
    }

    @Test func aManifestNeedsItsActivityAndTheOtherWayRound() {
        #expect(
            diagnostics("      activity: .MainActivity\n", with: "") == [
                "environments/production.yaml:13:7: manifest needs activity [MISSING_KEY]"
            ])
        #expect(
            diagnostics("      manifest: android/src/production/AndroidManifest.xml\n", with: "") == [
                "environments/production.yaml:13:7: activity needs manifest [MISSING_KEY]"
            ])
    }

    @Test func anActivityIsAClassName() {
        #expect(
            diagnostics("activity: .MainActivity", with: "activity: \"Main Activity\"") == [
                "environments/production.yaml:14:17: \"Main Activity\" is not an activity name [INVALID_VALUE]"
            ])
    }

    @Test func pathsAreResolvedLexically() {
        #expect(AppFilePath.normalised("../ios/A.entitlements", under: "links") == "ios/A.entitlements")
        #expect(AppFilePath.normalised("../../A.entitlements", under: "links") == nil)
        #expect(AppFilePath.joined("links/", "../ios/A.entitlements") == "ios/A.entitlements")
        #expect(AppFilePath.joined("../", "../ios/A.entitlements") == "../../ios/A.entitlements")
        #expect(AppFilePath.joined("", "App/A.entitlements") == "App/A.entitlements")
    }

    @Test func oneFileDeclaredTwiceIsRefused() {
        #expect(
            diagnostics("entitlements: Quiet/Quiet.entitlements", with: "entitlements: App/../App/Tienda.entitlements")
                == [
                    "environments/production.yaml:21:21: \"App/../App/Tienda.entitlements\" is already declared at environments/production.yaml:7 [CONFLICTING_KEYS]"
                ])
    }
}
