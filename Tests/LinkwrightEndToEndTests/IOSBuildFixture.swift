import Foundation
import LinkwrightTestSupport
import Testing

/// iOS builds for the tests, made by scripts/test-builds/make-ios-build.py: Mach-O executables
/// with a code-signature SuperBlob written from Apple's published layout, Info.plist by Python's
/// plistlib, provisioning profiles signed by `openssl cms -sign`. `lief` (PyPI) reads the
/// executables back as the independent oracle.
enum IOSBuildFixture {
    static let liefMissing: Bool = {
        let result = try? runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import lief"])
        return result?.status != 0
    }()
    static let opensslMissing = !AndroidBuildFixture.onPath("openssl") || !AndroidBuildFixture.onPath("python3")
    static var available: Bool { !liefMissing && !opensslMissing }
    static let skipReason: Comment =
        "python3 with lief and openssl make and read the iOS test builds (scripts/install-deps.sh --with-builds): skipped"

    /// The museo app as the production contract wants it, with its App Clip; `change` adjusts it.
    static func museo(_ change: (inout [String: Any]) -> Void = { _ in }) -> [String: Any] {
        var clip: [String: Any] = [
            "name": "Clip", "bundle_id": "com.example.museo.Clip", "team": "ABCDE12345",
            "entitlements": ["com.apple.developer.associated-domains": ["appclips:museo.example"]],
        ]
        clip["profile"] = ["name": "Clip", "entitlements": ["com.apple.developer.associated-domains": "*"]]
        var spec: [String: Any] = [
            "name": "Museo", "bundle_id": "com.example.museo", "team": "ABCDE12345",
            "entitlements": [
                "application-identifier": "ABCDE12345.com.example.museo",
                "com.apple.developer.associated-domains": ["applinks:museo.example", "applinks:*.museo.example"],
            ],
            "url_schemes": ["com.example.museo"],
            "profile": ["name": "Museo App Store", "entitlements": ["com.apple.developer.associated-domains": "*"]],
            "clips": [clip],
        ]
        change(&spec)
        return spec
    }

    /// The build `spec` describes, written into `folder` as `name` (.app, .ipa or .xcarchive).
    @discardableResult
    static func build(_ name: String, in folder: TemporaryFolder, spec: [String: Any]) throws -> URL {
        let specFile = try folder.write(
            "\(name).json", String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self))
        defer { try? FileManager.default.removeItem(at: specFile) }
        let out = folder.url.appendingPathComponent(name)
        try AndroidBuildFixture.tool(
            "python3", RepositoryPaths.root.appendingPathComponent("scripts/test-builds/make-ios-build.py").path,
            specFile.path, out.path)
        return out
    }
}
