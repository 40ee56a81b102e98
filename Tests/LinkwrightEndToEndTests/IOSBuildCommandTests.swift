import Foundation
import LinkwrightTestSupport
import Testing

/// `inspect` and `verify --app` on iOS builds made by `IOSBuildFixture`, the executables read
/// back by lief and the profiles by `openssl cms -verify`.
@Suite(.enabled(if: IOSBuildFixture.available, IOSBuildFixture.skipReason))
struct IOSBuildCommandTests: BuildCommandSuite {
    let folder: TemporaryFolder

    init() throws { folder = try AndroidBuildFixture.contractFolder() }

    // MARK: inspect against lief and openssl

    /// Forms, slices and Info.plist encodings a build may come in.
    static let variants: [(name: String, fat: Bool, binary: Bool)] = [
        ("Museo.ipa", false, false), ("Museo.app", true, true), ("Museo.xcarchive", true, false),
        ("Museo.ipa", true, true),
    ]

    @Test(arguments: variants.indices)
    func inspectAgreesWithLiefAndOpenSSL(_ variant: Int) throws {
        let (name, fat, binary) = Self.variants[variant]
        let spec = IOSBuildFixture.museo {
            $0["fat"] = fat
            $0["binary_plist"] = binary
            $0["der"] = fat
        }
        let build = try IOSBuildFixture.build(name, in: folder, spec: spec)
        let result = try linkwright("inspect", "--format", "json", name)
        #expect(result.status == 0, "\(result)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let bundles = (json["builds"] as! [[String: Any]])[0]["bundles"] as! [[String: Any]]
        #expect(bundles.map { $0["bundle_id"] as! String } == ["com.example.museo", "com.example.museo.Clip"])
        let main = bundles[0]
        #expect(main["team_id"] as? String == "ABCDE12345")
        #expect(main["url_schemes"] as? [String] == ["com.example.museo"])
        #expect(main["associated_domains"] as? [String] == ["applinks:museo.example", "applinks:*.museo.example"])
        #expect(main["der_entitlements"] as? Bool == fat)

        // The executable as lief reads it: its slices, and the entitlements inside its code signature.
        let folderOfApp: URL =
            switch name {
            case "Museo.app": build
            case "Museo.xcarchive": build.appendingPathComponent("Products/Applications/Museo.app")
            default: try unzip(build)
            }
        let lief = try AndroidBuildFixture.tool(
            "python3", "-c",
            """
            import lief, plistlib, sys
            fat = lief.MachO.parse(sys.argv[1])
            for binary in fat:
                content = bytes(binary.code_signature.content)
                start = content.index(b"<?xml")
                end = content.index(b"</plist>") + len(b"</plist>")
                print(str(binary.header.cpu_type).split(".")[-1].lower(), sorted(plistlib.loads(content[start:end])))
            """, folderOfApp.appendingPathComponent("Museo").path)
        let expectedKeys = "['application-identifier', 'com.apple.developer.associated-domains']"
        let architectures = main["architectures"] as! [String]
        #expect(lief == architectures.map { "\($0) \(expectedKeys)\n" }.joined(), "lief read:\n\(lief)")
        let entitlements = main["entitlements"] as! [String: Any]
        #expect(entitlements.keys.sorted() == ["application-identifier", "com.apple.developer.associated-domains"])

        // The profile's content as openssl reads it out of the CMS envelope.
        let profilePlist = try AndroidBuildFixture.tool(
            "openssl", "cms", "-verify", "-noverify", "-inform", "DER", "-in",
            folderOfApp.appendingPathComponent("embedded.mobileprovision").path)
        let profile = main["profile"] as! [String: Any]
        #expect(profilePlist.contains("<string>\(profile["name"] as! String)</string>"))
        #expect(profilePlist.contains("<string>\(profile["application_identifier"] as! String)</string>"))
        #expect(profilePlist.contains("<date>\(profile["expiration"] as! String)</date>"))
    }

    /// An .ipa's Payload, unpacked by Python's zipfile for the oracles.
    func unzip(_ ipa: URL) throws -> URL {
        let out = folder.url.appendingPathComponent("unzipped")
        try AndroidBuildFixture.tool(
            "python3", "-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])", ipa.path,
            out.path)
        return out.appendingPathComponent("Payload/Museo.app")
    }

    // MARK: verify --app

    func findings(_ name: String, _ spec: [String: Any]) throws -> [AppBuildCommandTests.ReportedFinding] {
        try IOSBuildFixture.build(name, in: folder, spec: spec)
        let result = try linkwright("verify", "--app", name, "--env", "production", "--format", "json")
        #expect(result.status == 1, "\(result)")
        return try AppBuildCommandTests.findings(result)
    }

    @Test func theGoodBuildPasses() throws {
        try IOSBuildFixture.build("Museo.ipa", in: folder, spec: IOSBuildFixture.museo())
        let result = try linkwright("verify", "--app", "Museo.ipa", "--env", "production")
        #expect(result.status == 0, "\(result)")
    }

    @Test func aProfileWithoutAssociatedDomainsIsNamed() throws {
        let found = try findings(
            "Museo.ipa",
            IOSBuildFixture.museo { $0["profile"] = ["name": "Museo Release", "entitlements": [String: Any]()] })
        #expect(found.map(\.rule) == ["APP_PROFILE_DISALLOWS"])
        #expect(found.map(\.place) == ["environments/production.yaml:10"])
        #expect(
            found[0].message
                == "Museo.ipa: Museo.ipa!/Payload/Museo.app/embedded.mobileprovision (\"Museo Release\") does not allow "
                + "Associated Domains, which the app is signed with: iOS refuses the entitlement")
    }

    @Test func aStagingEntitlementsFileInTheAppStoreBuildIsNamed() throws {
        let found = try findings(
            "Museo.ipa",
            IOSBuildFixture.museo {
                $0["entitlements"] = [
                    "com.apple.developer.associated-domains": [
                        "applinks:museo.example?mode=developer", "applinks:*.museo.example?mode=developer",
                    ]
                ]
            })
        #expect(found.map(\.rule) == ["APP_DOMAIN_MODE", "APP_DOMAIN_MODE"])
        #expect(
            found[0].message.hasPrefix(
                "Museo.ipa: Museo.ipa!/Payload/Museo.app/Museo entitlements (com.apple.developer.associated-domains) "
                    + "claim applinks:museo.example?mode=developer, which the production environment production"))
    }

    @Test func aWildcardWithoutItsApexIsMissingTheApex() throws {
        let found = try findings(
            "Museo.app",
            IOSBuildFixture.museo {
                $0["entitlements"] = ["com.apple.developer.associated-domains": ["applinks:*.museo.example"]]
            })
        #expect(found.map(\.rule) == ["APP_DOMAIN_MISSING"])
        #expect(found.map(\.place) == ["environments/production.yaml:19"])
        #expect(
            found[0].message.hasSuffix("lack applinks:museo.example (*.museo.example does not cover museo.example)"))
    }

    @Test func anotherTeamsBuildIsNotServed() throws {
        let found = try findings("Museo.xcarchive", IOSBuildFixture.museo { $0["team"] = "ZZZZZ99999" })
        #expect(found.map(\.rule).contains("APP_ID_NOT_SERVED"), "\(found.map(\.rule))")
        let served = found.first { $0.rule == "APP_ID_NOT_SERVED" }!
        #expect(served.place == "environments/production.yaml:2")
        #expect(
            served.message
                == "Museo.xcarchive: the build is signed as ZZZZZ99999.com.example.museo, which the "
                + "apple-app-site-association built for museo.example does not name (the contract's app ID is "
                + "ABCDE12345.com.example.museo)")
    }

    @Test func extraDomainsAndSchemesAndAnUnsignedClip() throws {
        let found = try findings(
            "Museo.ipa",
            IOSBuildFixture.museo {
                $0["entitlements"] = [
                    "com.apple.developer.associated-domains": [
                        "applinks:museo.example", "applinks:*.museo.example", "applinks:old.museo.test",
                    ]
                ]
                $0["url_schemes"] = ["museo-legacy"]
                var clip = ($0["clips"] as! [[String: Any]])[0]
                clip["signed"] = false
                $0["clips"] = [clip]
            })
        #expect(
            found.map(\.rule).sorted() == [
                "APP_DOMAIN_EXTRA", "APP_SCHEME_EXTRA", "APP_SCHEME_MISSING", "APP_UNSIGNED",
            ])
    }

    // MARK: hostile executables

    @Test(arguments: ["truncated load commands", "fat header pointing outside"])
    func aHostileExecutableExits2WithNothingWritten(_ kind: String) throws {
        let app = try IOSBuildFixture.build(
            "Museo.app", in: folder, spec: IOSBuildFixture.museo { $0["fat"] = kind.hasPrefix("fat") })
        let executable = app.appendingPathComponent("Museo")
        var bytes = Array(try Data(contentsOf: executable))
        if kind.hasPrefix("fat") {
            bytes.replaceSubrange(16..<20, with: [0x7F, 0xFF, 0xFF, 0x00])  // the first slice's offset
        } else {
            bytes = Array(bytes.prefix(40))  // the header promises more load commands than remain
        }
        try Data(bytes).write(to: executable)
        let before = try AppBuildCommandTests.listing(folder.url)
        for arguments in [["inspect", "Museo.app"], ["verify", "--app", "Museo.app", "--env", "production"]] {
            let result = try runLinkwright(arguments, in: folder.url, timeout: 60)
            #expect(result.status == 2, "\(kind): \(result)")
            #expect(result.stderr.hasPrefix("error: Museo.app: Museo.app/Museo: "), "\(kind): \(result)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try AppBuildCommandTests.listing(folder.url) == before)
    }
}
