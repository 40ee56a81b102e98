import Foundation
import LinkwrightTestSupport
import Testing

/// `inspect` and `verify --app` on real APKs made by the platform's own tools
/// (`AndroidBuildFixture`), read back by `aapt` and `apksigner` as oracles.
@Suite(.enabled(if: AndroidBuildFixture.available, AndroidBuildFixture.skipReason))
struct AppBuildCommandTests: BuildCommandSuite {
    let folder: TemporaryFolder

    init() throws { folder = try AndroidBuildFixture.contractFolder() }

    // MARK: inspect against aapt and apksigner

    /// Signature scheme sets and string-pool encodings a build may come with.
    static let variants: [(schemes: String, utf8: Bool)] = [
        ("v1,v2,v3", false), ("v1", false), ("v2", true), ("v2,v3", false), ("v1,v2", true),
    ]

    @Test(arguments: variants.indices)
    func inspectAgreesWithAaptAndApksigner(_ variant: Int) throws {
        let (schemes, utf8) = Self.variants[variant]
        let spec = AndroidBuildFixture.museo(hosts: ["museo.example", "*.museo.example", "otro.example"])
        let apk = try AndroidBuildFixture.apk("app.apk", in: folder, spec: spec, schemes: schemes, utf8: utf8)
        let result = try linkwright("inspect", "--format", "json", "app.apk")
        #expect(result.status == 0, "\(result)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let build = (json["builds"] as! [[String: Any]])[0]
        let filters = build["intent_filters"] as! [[String: Any]]

        // aapt's reading of the same manifest.
        let tree = try AndroidBuildFixture.tool("aapt", "dump", "xmltree", apk.path, "AndroidManifest.xml")
        func values(_ attribute: String) -> [String] {
            tree.split(separator: "\n").compactMap { line in
                guard let range = line.range(of: "A: \(attribute)") else { return nil }
                let rest = line[range.upperBound...]
                guard let start = rest.firstIndex(of: "\"") else { return nil }
                return String(rest[rest.index(after: start)...].prefix { $0 != "\"" })
            }
        }
        #expect(values("package=") == [build["package"] as! String])
        func strings(_ key: String) -> [String] { filters.flatMap { filter -> [String] in filter[key] as! [String] } }
        #expect(values("android:host(") == strings("hosts"))
        #expect(values("android:scheme(") == strings("schemes"))
        let verifying = tree.split(separator: "\n").filter {
            $0.contains("android:autoVerify(") && $0.hasSuffix("0xffffffff")
        }
        #expect(verifying.count == filters.filter { $0["auto_verify"] as! Bool }.count)

        // apksigner's reading of the signatures.
        // The APKs declare minSdkVersion 21, which needs v1; without it, ask as for Android 7 (API 24) on.
        let printed = try AndroidBuildFixture.tool(
            "apksigner",
            ["verify", "--print-certs", "--verbose"] + (schemes.contains("v1") ? [] : ["--min-sdk-version", "24"])
                + [apk.path])
        let digests = printed.split(separator: "\n").filter { $0.contains("certificate SHA-256 digest: ") }
            .map { String($0.split(separator: " ").last!) }
        let certificates = build["certificates"] as! [[String: Any]]
        #expect(
            certificates.map { ($0["sha256"] as! String).replacingOccurrences(of: ":", with: "").lowercased() }
                == digests)
        let verified = ["v1", "v2", "v3"].filter { scheme in
            printed.split(separator: "\n").contains {
                $0.hasPrefix("Verified using \(scheme) scheme") && $0.hasSuffix("true")
            }
        }
        #expect(certificates.flatMap { certificate -> [String] in certificate["schemes"] as! [String] } == verified)
        #expect(verified.joined(separator: ",") == schemes)
        let fingerprint = try AndroidBuildFixture.shared.get().playFingerprint
        #expect(certificates.map { $0["sha256"] as! String } == [fingerprint])
    }

    @Test func inspectPrintsWhatTheBuildDeclares() throws {
        let spec = AndroidBuildFixture.museo(hosts: ["museo.example"])
        _ = try AndroidBuildFixture.apk("app.apk", in: folder, spec: spec, schemes: "v2")
        let result = try linkwright("inspect", "app.apk")
        let fingerprint = try AndroidBuildFixture.shared.get().playFingerprint
        #expect(
            result.stdout == """
                app.apk: Android app com.example.museo
                  signing certificates (SHA-256):
                    \(fingerprint) (v2)
                  verified web links (autoVerify):
                    museo.example -> .MainActivity (AndroidManifest.xml line 5)
                      pathPrefix /tickets
                  unverified web links:
                    none
                  custom schemes:
                    com.example.museo: -> .MainActivity (AndroidManifest.xml line 12)

                """, "\(result)")
        #expect(result.status == 0)
    }

    @Test func anAppBundleAgreesWithProtocAndKeytoolAndNamesItsUploadKey() throws {
        let bundle = try AndroidBuildFixture.apk(
            "upload.aab", in: folder, spec: AndroidBuildFixture.museo(autoVerify: true), key: "upload", bundle: true)
        let result = try linkwright("inspect", "--format", "json", "upload.aab")
        #expect(result.status == 0, "\(result)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let build = (json["builds"] as! [[String: Any]])[0]
        #expect(build["bundle"] as? Bool == true)
        let filters = build["intent_filters"] as! [[String: Any]]

        // protoc's raw reading of the manifest: the value after each `2: "host"` is a host.
        let raw = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "sh", "-c",
                "python3 -c \"import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("
                    + "'base/manifest/AndroidManifest.xml'))\" \"$1\" | protoc --decode_raw", "sh", bundle.path,
            ])
        let lines = raw.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let hosts = zip(lines, lines.dropFirst()).filter { $0.0 == "2: \"host\"" }.map {
            String($0.1.dropFirst("3: \"".count).dropLast())
        }
        #expect(hosts == filters.flatMap { filter -> [String] in filter["hosts"] as! [String] }, "\(raw)")

        // keytool's reading of the JAR signature.
        let printed = try AndroidBuildFixture.tool("keytool", "-printcert", "-jarfile", bundle.path)
        let sha256 = printed.split(separator: "\n").first { $0.contains("SHA256:") }.map {
            String($0.split(separator: " ").last!)
        }
        let certificates = build["certificates"] as! [[String: Any]]
        #expect(certificates.map { $0["sha256"] as! String } == [sha256])
        #expect(certificates.map { $0["schemes"] as! [String] } == [["v1"]])

        let verified = try linkwright("verify", "--app", "upload.aab", "--env", "production")
        #expect(verified.status == 1, "\(verified)")
        #expect(
            verified.stdout.contains(
                "upload.aab: the bundle is signed with the `upload` key of environment staging, SHA-256 \(sha256 ?? "?")"
            ),
            "\(verified)")
        let staging = try linkwright("verify", "--app", "upload.aab", "--env", "staging", "--format", "json")
        #expect(!staging.stdout.contains("APP_KEY_NOT_LISTED"), "\(staging)")
    }

    // MARK: verify --app: each failure, and the good build

    @Test func theGoodBuildPasses() throws {
        _ = try AndroidBuildFixture.apk("good.apk", in: folder, spec: AndroidBuildFixture.museo())
        let result = try linkwright("verify", "--app", "good.apk", "--env", "production")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("built apps: 0 blocking findings"), "\(result)")
    }

    @Test func anUploadKeyBuildAgainstAPlaySigningOnlyFileIsNamedAsSuch() throws {
        _ = try AndroidBuildFixture.apk("upload.apk", in: folder, spec: AndroidBuildFixture.museo(), key: "upload")
        let result = try linkwright("verify", "--app", "upload.apk", "--env", "production")
        #expect(result.status == 1, "\(result)")
        let upload = try AndroidBuildFixture.shared.get().uploadFingerprint
        #expect(
            result.stdout.contains(
                "environments/production.yaml:6:7: error: upload.apk: signed (v1, v2, v3) with the `upload` key of "
                    + "environment staging, SHA-256 \(upload), which the assetlinks.json built for museo.example does not list "
                    + "for com.example.museo; it lists play-signing"), "\(result)")
        #expect(result.stdout.contains("[APP_KEY_NOT_LISTED]"))
        // Checked against staging, whose file lists the upload key, the same build's key is fine.
        let staging = try linkwright("verify", "--app", "upload.apk", "--env", "staging", "--format", "json")
        #expect(!staging.stdout.contains("APP_KEY_NOT_LISTED"), "\(staging)")
    }

    @Test func servedHoldsTheBuildToWhatTheHostServes() throws {
        _ = try AndroidBuildFixture.apk("good.apk", in: folder, spec: AndroidBuildFixture.museo())
        let fixture = try AndroidBuildFixture.shared.get()
        let (aasa, built) = try builtAssociationFiles(in: folder, host: "museo.example")
        // An old deploy: the file lists the upload key where the build lists the Play-signing key.
        let served = Array(
            String(decoding: built, as: UTF8.self).replacingOccurrences(
                of: fixture.playFingerprint, with: fixture.uploadFingerprint
            ).utf8)
        let json = "application/json"
        let site = TestSite(
            ["museo.example"],
            routes: [
                .file("/.well-known/apple-app-site-association", aasa, contentType: json),
                .file("/.well-known/assetlinks.json", served, contentType: json),
            ])
        try withNginx(serving: [site], standardPort: true) { server in
            let result = try linkwright(
                "verify", "--app", "good.apk", "--env", "production", "--served", "--resolve",
                server.resolveOverrides[0].description, "--cacert",
                server.certificates.trustedAuthority.certificate.path)
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stdout.contains(
                    "good.apk: signed (v1, v2, v3) with the `play-signing` key, SHA-256 \(fixture.playFingerprint), "
                        + "which the assetlinks.json served for museo.example does not list"), "\(result)")
        }
        // What is built lists the key: without --served the same build passes.
        #expect(try linkwright("verify", "--app", "good.apk", "--env", "production").status == 0)
    }

    @Test func anIntentFilterThatLostAutoVerifyIsLocatedInTheBuildAndTheYAML() throws {
        let findings = try findingsOfBuild("merged.apk", AndroidBuildFixture.museo(autoVerify: false))
        #expect(findings.map(\.rule) == ["APP_DOMAIN_UNVERIFIED", "APP_DOMAIN_UNVERIFIED"])
        #expect(findings.map(\.place) == ["environments/production.yaml:19", "environments/production.yaml:20"])
        #expect(
            findings[0].message
                == "merged.apk: museo.example is only in an intent filter without android:autoVerify=\"true\" at "
                + "merged.apk!/AndroidManifest.xml line 5 "
                + "(manifest/application/activity[@name=.MainActivity]/intent-filter[1])")
    }

    @Test func aWildcardWithoutItsApexIsMissingTheApex() throws {
        let findings = try findingsOfBuild("wildcard.apk", AndroidBuildFixture.museo(hosts: ["*.museo.example"]))
        #expect(findings.map(\.rule) == ["APP_DOMAIN_MISSING"])
        #expect(findings.map(\.place) == ["environments/production.yaml:19"])
        #expect(
            findings[0].message
                == "wildcard.apk: no verified intent filter of com.example.museo names museo.example "
                + "(*.museo.example does not cover museo.example)")
    }

    @Test func diagnoseStopsAtTheBinaryBeforeAnyRequest() throws {
        _ = try AndroidBuildFixture.apk(
            "wildcard.apk", in: folder, spec: AndroidBuildFixture.museo(hosts: ["*.museo.example"]))
        // Nothing listens on port 1: a request would make the origin layer broken instead.
        let result = try linkwright(
            "diagnose", "https://museo.example/tickets/1", "--app", "wildcard.apk", "--env", "production",
            "--connect-to", "::127.0.0.1:1")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("  1. binary: broken — wildcard.apk: no verified intent filter"), "\(result)")
        #expect(result.stdout.contains("  2. origin: not reached — an earlier layer is broken\n"))
        #expect(result.stdout.contains("first broken layer: binary\n"))
        #expect(!result.stdout.contains("on ios"), "a build is diagnosed on its platform only")
    }

    @Test func aHostOutsideTheContractIsExtra() throws {
        let findings = try findingsOfBuild(
            "extra.apk", AndroidBuildFixture.museo(hosts: ["museo.example", "*.museo.example", "beta.museo.test"]))
        #expect(findings.map(\.rule) == ["APP_DOMAIN_EXTRA"])
        #expect(findings[0].message.contains("verifies beta.museo.test, which environment production does not serve"))
    }

    @Test func schemesAreComparedBothWays() throws {
        let findings = try findingsOfBuild("schemes.apk", AndroidBuildFixture.museo(schemes: ["museo-legacy"]))
        #expect(findings.map(\.rule).sorted() == ["APP_SCHEME_EXTRA", "APP_SCHEME_MISSING"])
        #expect(findings.first { $0.rule == "APP_SCHEME_MISSING" }?.place == "environments/production.yaml:12")
    }

    @Test func anotherPackageIsNotDeclared() throws {
        _ = try AndroidBuildFixture.apk(
            "other.apk", in: folder, spec: AndroidBuildFixture.museo(package: "com.example.other"))
        let result = try linkwright("verify", "--app", "other.apk", "--env", "production")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout.contains(
                "environments/production.yaml:1:1: error: other.apk: \"com.example.other\" is not an app of "
                    + "environment production on android (it declares com.example.museo) [APP_NOT_DECLARED]"),
            "\(result)")
    }

    @Test func anUnsignedBuildIsReported() throws {
        _ = try AndroidBuildFixture.apk("unsigned.apk", in: folder, spec: AndroidBuildFixture.museo(), key: nil)
        let inspected = try linkwright("inspect", "unsigned.apk")
        #expect(inspected.stdout.contains("    none: the build is not signed\n"), "\(inspected)")
        let result = try linkwright("verify", "--app", "unsigned.apk", "--env", "production")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("[APP_UNSIGNED]"), "\(result)")
    }

    @Test func verifyAppNeedsOneEnvironment() throws {
        let result = try linkwright("verify", "--app", "any.apk")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: verify --app needs exactly one --env"), "\(result)")
    }

    /// `--host` and `--shard` choose hosts to fetch; a build is held to every host of its
    /// environment, so they are refused rather than ignored.
    @Test(arguments: [["--host", "museo.example"], ["--shard", "1/2"]])
    func verifyAppRefusesHostSelection(_ selection: [String]) throws {
        let result = try linkwright("verify", "--app", "any.apk", "--env", "production", selection[0], selection[1])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("error: --host and --shard choose hosts to fetch"), "\(result)")
    }

    // MARK: hostile archives

    static let hostileKinds = [
        "bomb", "lying-size", "traversal", "absolute", "duplicate", "overlap", "huge-size", "truncated",
        "directory-outside", "signing-block",
    ]

    @Test(arguments: hostileKinds)
    func aHostileArchiveExits2WithNothingWritten(_ kind: String) throws {
        try AndroidBuildFixture.tool(
            "python3", RepositoryPaths.root.appendingPathComponent("scripts/test-builds/make-hostile-zip.py").path,
            kind, folder.url.appendingPathComponent("hostile.apk").path)
        let before = try Self.listing(folder.url)
        for arguments in [["inspect", "hostile.apk"], ["verify", "--app", "hostile.apk", "--env", "production"]] {
            let result = try runLinkwright(arguments, in: folder.url, timeout: 60)
            #expect(result.status == 2, "\(kind): \(result)")
            #expect(result.stderr.hasPrefix("error: hostile.apk: "), "\(kind): \(result)")
            #expect(result.stdout.isEmpty, "\(kind): \(result)")
        }
        #expect(try Self.listing(folder.url) == before)
    }

    // MARK: helpers

    /// The findings of `verify --app NAME --env production --format json` on a build of `spec`,
    /// which must exit 1.
    func findingsOfBuild(_ name: String, _ spec: [String: Any]) throws -> [ReportedFinding] {
        _ = try AndroidBuildFixture.apk(name, in: folder, spec: spec)
        let result = try linkwright("verify", "--app", name, "--env", "production", "--format", "json")
        #expect(result.status == 1, "\(result)")
        return try Self.findings(result)
    }

    /// Every path under `folder` with its size.
    static func listing(_ folder: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])!
        return try enumerator.map { item in
            let url = item as! URL
            return "\(url.path) \(try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? -1)"
        }.sorted()
    }

    struct ReportedFinding {
        var rule: String
        var message: String
        /// `file:line`
        var place: String
    }

    static func findings(_ result: ProcessResult) throws -> [ReportedFinding] {
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        return (json["findings"] as! [[String: Any]]).map { finding in
            ReportedFinding(
                rule: finding["rule"] as! String, message: finding["message"] as! String,
                place: "\(finding["file"] as? String ?? "?"):\(finding["line"] as? Int ?? 0)")
        }
    }
}
