import Foundation
import LinkwrightTestSupport
import Testing

/// Real APKs for the tests: scripts/test-builds/make-apk.py writes the binary manifest, Debian's
/// `zipalign` aligns and `apksigner` signs with keys `keytool` makes here (a Play-signing key
/// and an upload key), so the signatures are the platform tools' own. Made once per test run.
final class AndroidBuildFixture: Sendable {
    static let tools = ["aapt", "apksigner", "zipalign", "keytool", "jarsigner", "protoc", "python3"]
    static let missingTools = tools.filter { !onPath($0) }

    static func onPath(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }
    static let skipReason: Comment =
        "\(missingTools.joined(separator: ", ")) missing (scripts/install-deps.sh --with-builds installs them): the APK tests are skipped"
    static var available: Bool { missingTools.isEmpty }

    /// Made on first use; every suite shares it.
    static let shared = Result { try AndroidBuildFixture() }

    /// Where the keystores are.
    let folder: URL
    /// SHA-256 fingerprints, colon-separated uppercase, as keytool prints them.
    let playFingerprint: String
    let uploadFingerprint: String

    private init() throws {
        folder = try TemporaryFolder().url
        playFingerprint = try Self.makeKey("play", in: folder)
        uploadFingerprint = try Self.makeKey("upload", in: folder)
    }

    func keystore(_ name: String) -> String { folder.appendingPathComponent("\(name).p12").path }

    /// A key pair in `NAME.p12` (store and key password "linkwright", alias "key"); its certificate's SHA-256.
    private static func makeKey(_ name: String, in folder: URL) throws -> String {
        let store = folder.appendingPathComponent("\(name).p12").path
        try tool(
            "keytool", "-genkeypair", "-keystore", store, "-storetype", "PKCS12", "-storepass", "linkwright",
            "-keypass", "linkwright", "-alias", "key", "-keyalg", "RSA", "-keysize", "2048", "-validity", "10000",
            "-dname", "CN=\(name)")
        let listed = try tool("keytool", "-list", "-v", "-keystore", store, "-storepass", "linkwright")
        guard let line = listed.split(separator: "\n").first(where: { $0.contains("SHA256:") }) else {
            throw HarnessError("keytool -list printed no SHA256 line:\n\(listed)")
        }
        return String(line.split(separator: " ").last!)
    }

    /// Runs a tool on PATH; its standard output, or an error with everything it printed.
    @discardableResult
    static func tool(_ name: String, _ arguments: String...) throws -> String {
        try tool(name, arguments)
    }

    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, timeout: 300)
        guard result.status == 0 else { throw HarnessError("\(name) \(arguments.joined(separator: " ")): \(result)") }
        return result.stdout
    }

    /// An APK whose manifest `spec` describes (make-apk.py's JSON), signed with `key` ("play" or
    /// "upload"; nil: unsigned) under `schemes`, written into `folder` as `name`.
    static func apk(
        _ name: String, in folder: TemporaryFolder, spec: [String: Any], key: String? = "play",
        schemes: String = "v1,v2,v3", utf8: Bool = false, bundle: Bool = false
    ) throws -> URL {
        let fixture = try shared.get()
        let specFile = try folder.write(
            "\(name).json", String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self))
        let out = folder.url.appendingPathComponent(name)
        var arguments = [
            RepositoryPaths.root.appendingPathComponent("scripts/test-builds/make-apk.py").path, specFile.path,
            out.path,
        ]
        if let key {
            arguments += [fixture.keystore(key), "--schemes", schemes]
        } else {
            arguments.append("--unsigned")
        }
        if utf8 { arguments.append("--utf8") }
        if bundle { arguments.append("--bundle") }
        _ = try tool("python3", arguments)
        try FileManager.default.removeItem(at: specFile)
        return out
    }

    /// The manifest of the museo app: one verified filter for `hosts`, one for each custom scheme.
    static func museo(
        package: String = "com.example.museo", hosts: [String] = ["museo.example", "*.museo.example"],
        autoVerify: Bool = true, schemes: [String] = ["com.example.museo"]
    ) -> [String: Any] {
        let view = ["android.intent.action.VIEW"]
        let browsable = ["android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"]
        var filters: [[String: Any]] = [
            [
                "autoVerify": autoVerify, "actions": view, "categories": browsable,
                "data": [["scheme": "https"]] + hosts.map { ["host": $0] } + [["pathPrefix": "/tickets"]],
            ]
        ]
        for scheme in schemes {
            filters.append(["actions": view, "categories": browsable, "data": [["scheme": scheme]]])
        }
        return ["package": package, "activities": [["name": ".MainActivity", "filters": filters]]]
    }

    /// An environment whose app museo is the Android package and iOS bundle com.example.museo, its
    /// APK signed with `key`; `header` goes after the team, `apps` after museo.
    private static func environment(
        _ tier: String, header: String = "", key: String, apps: String, hosts: [String]
    ) -> String {
        """
        tier: \(tier)
        team_id: ABCDE12345
        \(header)apps:
          museo:
            android:
              package: com.example.museo
              fingerprints:
                \(key)
            ios:
              bundle_id: com.example.museo
        \(apps)hosts:
        \(hosts.map { "  \($0): museo\n" }.joined())
        """
    }

    /// The contract the test builds are checked against: production lists only the Play-signing
    /// key and an App Clip; staging, the same package and bundle, lists the upload key and signs
    /// its entitlements for developer mode.
    /// A temporary folder holding the contract, where the build tests run linkwright.
    static func contractFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try writeConfiguration(in: folder)
        return folder
    }

    /// Without keytool (the iOS tests alone), the keys are two fixed fingerprints.
    static func writeConfiguration(in folder: TemporaryFolder) throws {
        let fixture = try? shared.get()
        let play = fixture?.playFingerprint ?? ShopConfiguration.fingerprint
        let upload = fixture?.uploadFingerprint ?? String(ShopConfiguration.fingerprint.reversed())
        let production = """
                schemes:
                  com.example.museo:
                    purpose: deep-links
              museo-clip:
                ios:
                  bundle_id: com.example.museo.Clip
                  app_clip: true

            """
        try folder.write(
            "environments/production.yaml",
            environment(
                "production", key: "play-signing: \"\(play)\"", apps: production,
                hosts: ["museo.example", "\"*.museo.example\""]))
        try folder.write(
            "environments/staging.yaml",
            environment(
                "staging", header: "entitlements_mode: developer\n", key: "upload: \"\(upload)\"",
                apps: "", hosts: ["staging.museo.test"]))
        try folder.write(
            "domains/museo.yaml",
            """
            applinks:
              - apps: [museo]
                rules:
                  - path: /tickets/*
            appclips: [museo-clip]

            """)
    }
}

/// A suite that runs linkwright on test builds in a folder holding the contract.
protocol BuildCommandSuite {
    var folder: TemporaryFolder { get }
}

extension BuildCommandSuite {
    func linkwright(_ arguments: String...) throws -> ProcessResult {
        try runLinkwright(arguments, in: folder.url)
    }
}
