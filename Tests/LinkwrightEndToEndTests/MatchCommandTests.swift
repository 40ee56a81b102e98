import Foundation
import LinkwrightTestSupport
import Testing

/// `linkwright match`, `explain` and `test`, run as users run them.
@Suite struct MatchCommandTests {
    let aasa = "dist/production/museo.example/.well-known/apple-app-site-association"
    let assetLinks = "dist/production/museo.example/.well-known/assetlinks.json"

    private func linkwright(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
        try runLinkwright(arguments, in: RepositoryPaths.root, input: input.map { Data($0.utf8) })
    }

    @Test func decidesURLsGivenAsArgumentsForEveryAppInTheFile() throws {
        let result = try linkwright([
            "match", "--aasa", aasa, "--host", "museo.example", "/admin/login", "/tickets/x?source=mail",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                no_match\tA1B2C3D4E5.com.example.museo.Clip\t/admin/login
                exclude\tA1B2C3D4E5.com.example.museo\t/admin/login\tdetails[1] rule 0
                no_match\tA1B2C3D4E5.com.example.museo.Clip\t/tickets/x?source=mail
                match\tA1B2C3D4E5.com.example.museo\t/tickets/x?source=mail\tdetails[1] rule 2

                """)
    }

    /// Two apps' rules spell `/café` in NFC and in NFD. Each matches the URL of its own bytes
    /// only, in whichever order the file lists them (a compiled pattern shared by texts Swift
    /// holds equal would answer for both).
    @Test func patternsSpeltInOtherNormalizationsMatchTheirOwnURLsOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (composed, decomposed) = ("/caf\u{E9}", "/cafe\u{301}")
        let entry = { (app: String, path: String) in
            "{\"appIDs\": [\"ABCDE12345.com.example.\(app)\"], \"components\": [{\"/\": \"\(path)\"}]}"
        }
        let input = "https://x.example\(composed)\nhttps://x.example\(decomposed)\n"
        var answers: [[String]] = []
        for entries in [
            [entry("nfc", composed), entry("nfd", decomposed)], [entry("nfd", decomposed), entry("nfc", composed)],
        ] {
            let file = try folder.write(
                "aasa.json", "{\"applinks\": {\"details\": [\(entries.joined(separator: ", "))]}}")
            let result = try linkwright(["match", "--aasa", file.path, "--host", "x.example"], input: input)
            #expect(result.status == 0, "\(result)")
            answers.append(
                result.stdout.split(separator: "\n").map { line in
                    line.split(separator: "\t").prefix(3).joined(separator: " ")
                }.sorted())
        }
        let expected = [
            "match ABCDE12345.com.example.nfc https://x.example\(composed)",
            "match ABCDE12345.com.example.nfd https://x.example\(decomposed)",
            "no_match ABCDE12345.com.example.nfc https://x.example\(decomposed)",
            "no_match ABCDE12345.com.example.nfd https://x.example\(composed)",
        ]
        for answer in answers {
            #expect(answer.map { Array($0.unicodeScalars) } == expected.sorted().map { Array($0.unicodeScalars) })
        }
    }

    @Test func streamsJSONLinesFromStandardInputAndSurvivesABadLine() throws {
        let input = "https://museo.example/es/coleccion/goya\n\nnot a url\nhttps://museo.example/clip/x#a\n"
        let result = try linkwright(
            ["match", "--aasa", aasa, "--app", "A1B2C3D4E5.com.example.museo", "--format", "json"], input: input)
        #expect(result.status == 2)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"url":"https://museo.example/es/coleccion/goya","app":"A1B2C3D4E5.com.example.museo","decision":"match","detail":1,"component":3}"#,
                #"{"url":"not a url","error":"not a URL or path"}"#,
                #"{"url":"https://museo.example/clip/x#a","app":"A1B2C3D4E5.com.example.museo","decision":"no_match","detail":null,"component":null}"#,
            ])
    }

    /// JSON lines are written byte by byte on the hot path: each must still be valid JSON that
    /// gives back the URL as given (quotes, backslashes, non-ASCII), buffered or not.
    @Test func jsonLinesEscapeWhatTheURLHolds() throws {
        let urls = [#"https://Museo.Example/a"b\c"#, "https://museo.example/café?q=日本#ü", "/tickets/x?source=mail"]
        let arguments = ["match", "--aasa", aasa, "--app", "A1B2C3D4E5.com.example.museo", "--format", "json"]
        for result in [
            try linkwright(arguments + urls), try linkwright(arguments, input: urls.joined(separator: "\n") + "\n"),
        ] {
            #expect(result.status == 0, "\(result)")
            let objects = try result.stdout.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(objects.compactMap { $0["url"] as? String } == urls)
            #expect(objects.compactMap { $0["decision"] as? String } == ["no_match", "no_match", "match"])
        }
    }

    /// Output is buffered for throughput, but flushed whenever the input has no complete line
    /// waiting: a program that writes one URL and waits gets its answer before it sends more.
    @Test func answersEachLineBeforeTheNextArrives() throws {
        let process = Process()
        process.executableURL = RepositoryPaths.products.appendingPathComponent("linkwright")
        process.arguments = ["match", "--aasa", aasa, "--app", "A1B2C3D4E5.com.example.museo"]
        process.currentDirectoryURL = RepositoryPaths.root
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let answered = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var firstAnswer = Data()
        DispatchQueue.global().async {
            while !firstAnswer.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                firstAnswer += chunk
            }
            answered.signal()
        }
        input.fileHandleForWriting.write(Data("https://museo.example/admin/x\n".utf8))
        // The pipe stays open: without the flush, this would wait for end of input.
        let waited = answered.wait(timeout: .now() + 20)
        #expect(waited == .success, "no answer while standard input stayed open")
        #expect(String(decoding: firstAnswer, as: UTF8.self).hasPrefix("exclude\tA1B2C3D4E5.com.example.museo\t"))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func aURLOnAnotherHostThanTheFilesIsRefused() throws {
        let result = try linkwright(["match", "--aasa", aasa, "--host", "museo.example", "https://other.example/x"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "error: https://other.example/x: is on other.example, but the file is served by museo.example\n")
    }

    @Test func evaluatesAndroidDynamicRules() throws {
        let result = try linkwright(
            ["match", "--assetlinks", assetLinks, "--package", "com.example.museo", "/admin", "/exhibitions", "/shop"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                exclude\tcom.example.museo\t/admin\tstatements[0] rule 0
                match\tcom.example.museo\t/exhibitions\tstatements[0] rule 2
                no_match\tcom.example.museo\t/shop

                """)
    }

    /// The example's `/$(lang)/$(collection)/*` is emitted as `/?*/coleccion/*`: Android 15's
    /// first dynamic-rule parser reads `?*` before more text greedily and never matches it.
    @Test func decidesAsTheNamedAndroidRelease() throws {
        let arguments = ["match", "--assetlinks", assetLinks, "--package", "com.example.museo"]
        let urls = ["/es/coleccion/goya", "/exhibitions"]
        let latest = try linkwright(arguments + urls)
        #expect(latest.status == 0, "\(latest)")
        #expect(try linkwright(arguments + ["--android-release", "latest"] + urls).stdout == latest.stdout)
        #expect(latest.stdout.hasPrefix("match\tcom.example.museo\t/es/coleccion/goya\tstatements[0] rule "))
        let initial = try linkwright(arguments + ["--android-release", "15-initial"] + urls)
        #expect(initial.status == 0, "\(initial)")
        #expect(
            initial.stdout == """
                no_match\tcom.example.museo\t/es/coleccion/goya
                match\tcom.example.museo\t/exhibitions\tstatements[0] rule 2

                """)
        let unknown = try linkwright(arguments + ["--android-release", "14", "/x"])
        #expect(unknown.status == 2 && unknown.stdout.isEmpty)
        #expect(unknown.stderr.hasPrefix("error: --android-release must be one of 15-initial, latest, not \"14\"\n"))
    }

    /// Lines are read as bytes: whitespace around a URL (CRLF files, tabs, a no-break space) is
    /// trimmed as before, and ill-formed UTF-8 still gives valid JSON with the bytes repaired.
    @Test func standardInputLinesAreTrimmedAndRepaired() throws {
        var input = Data("  /tickets/x?source=mail\r\n\t/admin/x \n\u{A0}/exhibitions/a\n".utf8)
        input += Data([0x2F, 0x61, 0xFF, 0x0A])
        let result = try runLinkwright(
            ["match", "--aasa", aasa, "--app", "A1B2C3D4E5.com.example.museo", "--format", "json"],
            in: RepositoryPaths.root, input: input)
        #expect(result.status == 0, "\(result)")
        let objects = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(
            objects.compactMap { $0["url"] as? String }
                == ["/tickets/x?source=mail", "/admin/x", "/exhibitions/a", "/a\u{FFFD}"])
        #expect(objects.compactMap { $0["decision"] as? String } == ["match", "exclude", "match", "no_match"])
    }

    /// Indexes are written digit by digit: zero, one digit and several must all come out right.
    @Test func jsonLinesNameMultiDigitRulePositions() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let components = (0...120).map { #"{"/": "/p\#($0)"}"# }.joined(separator: ", ")
        let file = try folder.write(
            "aasa.json", #"{"applinks": {"details": [{"appIDs": ["T.app"], "components": [\#(components)]}]}}"#)
        let result = try runLinkwright(
            ["match", "--aasa", file.path, "--format", "json", "/p0", "/p7", "/p10", "/p99", "/p120", "/q"])
        #expect(result.status == 0, "\(result)")
        let positions = try result.stdout.split(separator: "\n").map {
            let object = try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            return object["component"] as? Int
        }
        #expect(positions == [0, 7, 10, 99, 120, nil])
    }

    @Test func anInvalidFileIsALocatedInputError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("aasa.json", "{\"applinks\": {\"details\": [}\n")
        let result = try runLinkwright(["match", "--aasa", file.path, "/x"])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "\(file.path):1:27: error: unexpected `}` where a value was expected [INVALID_JSON]"), "\(result)")
        #expect(result.stderr.contains("[INVALID_JSON]"))
        #expect(result.stdout.isEmpty)
    }

    @Test func needsExactlyOneFile() throws {
        #expect(
            try linkwright(["match", "/x"]).stderr.hasPrefix(
                "error: name a file: --aasa FILE or --assetlinks FILE --package NAME"))
        #expect(
            try linkwright(["match", "--assetlinks", assetLinks, "/x"]).stderr.hasPrefix(
                "error: --assetlinks needs --package NAME"))
    }

    /// Every real-world file in the shared corpus goes through `match` without a crash: valid
    /// files decide, invalid ones give located errors and exit 2.
    @Test(
        .enabled(if: RepositoryPaths.sharedCorpus != nil, Comment(rawValue: RepositoryPaths.sharedCorpusMissing)))
    func everyCorpusFileGoesThroughMatch() throws {
        let corpus = try #require(RepositoryPaths.sharedCorpus)
        var decided = 0
        var rejected = 0
        for (folder, option) in [("aasa", "--aasa"), ("assetlinks", "--assetlinks")] {
            let directory = corpus.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                let path = directory.appendingPathComponent(name).path
                var arguments = ["match", option, path, "--host", "example.com", "/", "/a/b?c=d#e", "/%E2%82%AC"]
                if option == "--assetlinks" { arguments += ["--package", "com.example.app"] }
                let result = try runLinkwright(arguments)
                #expect(result.status == 0 || result.status == 2, "\(name): \(result)")
                #expect(!result.stderr.contains("Fatal error"), "\(name) crashed")
                if result.status == 0 {
                    decided += 1
                } else {
                    rejected += 1
                    #expect(
                        result.stderr.contains(path + ":"), "\(name): the error names no location\n\(result.stderr)")
                }
            }
        }
        print("corpus through match: \(decided) decided, \(rejected) rejected with located errors")
        #expect(decided > 90)
    }
}

@Suite struct ExplainAndTestCommandTests {
    private func linkwright(_ arguments: [String]) throws -> ProcessResult {
        try runLinkwright(arguments, in: RepositoryPaths.root)
    }

    @Test func explainsLayerByLayer() throws {
        let result = try linkwright([
            "explain", "https://museo.example/admin/login", "--env", "production", "--platform", "ios", "--trace",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains("production (production): museo.example serves domain museo (domains/museo.yaml)\n"))
        #expect(
            result.stdout.contains(
                "  ios museo (A1B2C3D4E5.com.example.museo)\n    claim: applinks:museo.example (exact)\n"))
        #expect(result.stdout.contains("    file: https://museo.example/.well-known/apple-app-site-association\n"))
        #expect(
            result.stdout.contains(
                "    exclude: stays on the web: an exclusion matched, decided by domains/museo.yaml:16:9\n"))
        #expect(result.stdout.contains("    ✓ details[1].components[0] (exclude)  domains/museo.yaml:16:9\n"))
        #expect(
            result.stdout.contains(
                "  ios emergencias (Q7R8S9T0U1.es.emergencias.app)\n    claim: no applinks entry covers the host\n"))
        #expect(!result.stdout.contains("android"))
    }

    @Test func explainsAWildcardSubdomainThroughTheRootsFile() throws {
        let result = try linkwright([
            "explain", "https://tienda.museo.example/exhibitions/x", "--env", "production", "--trace",
        ])
        #expect(result.stdout.contains("*.museo.example serves domain museo"))
        #expect(
            result.stdout.contains(
                "claim: applinks:*.museo.example (wildcard)\n    file: https://museo.example/.well-known/apple-app-site-association"
            ))
        #expect(result.stdout.contains("claim: intent filter host *.museo.example (wildcard)"))
    }

    @Test func explainsAForeignFile() throws {
        let result = try linkwright([
            "explain", "--aasa", "dist/production/museo.example/.well-known/apple-app-site-association",
            "--app", "A1B2C3D4E5.com.example.museo", "/tickets/annual", "--trace",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("no_match: stays on the web: no rule matched\n"))
        #expect(result.stdout.contains("failed ?source  \"?*\" vs \"\""), "\(result.stdout)")
    }

    /// Without --trace: the verdict, the deciding rule, the rule that nearly matched, and the
    /// trailing slash iOS adds where it decides.
    @Test func explainsForPeopleByDefault() throws {
        let missing = try linkwright([
            "explain", "https://museo.example/tickets/annual", "--env", "production", "--platform", "ios",
        ])
        #expect(missing.status == 0, "\(missing)")
        #expect(
            missing.stdout.contains(
                "  ios museo (A1B2C3D4E5.com.example.museo): stays on the web: no rule matched\n"
                    + "    nearly: domains/museo.yaml:23:9 \"/tickets/*\" ?source \"?*\", but ?source \"?*\" does not match \"\"\n"
            ), "\(missing.stdout)")
        #expect(!missing.stdout.contains("✗"))
        let parent = try linkwright([
            "explain", "https://museo.example/exhibitions", "--env", "production", "--platform", "ios",
        ])
        #expect(
            parent.stdout.contains(
                "  ios museo (A1B2C3D4E5.com.example.museo): opens the app\n"
                    + "    decided by domains/museo.yaml:19:9 \"/exhibitions/*\"\n"
                    + "    path compared as \"/exhibitions/\": iOS compares paths with a trailing slash"),
            "\(parent.stdout)")
    }

    @Test func explainNeedsAFullURLAgainstTheConfiguration() throws {
        let result = try linkwright(["explain", "/admin"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: \"/admin\" is not a full URL"))
    }

    @Test func theExampleExpectationsAllPass() throws {
        let result = try linkwright(["test"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasSuffix("checks passed in 3 environments\n"))
    }

    /// No expectation is not "everything passed": `test` says there was nothing to check.
    @Test func noExpectationsIsSaid() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("environments/production.yaml", ShopConfiguration.production)
        let domain = ShopConfiguration.domain
        let expectations = try #require(domain.range(of: "expectations:"))
        try folder.write("domains/shop.yaml", String(domain[..<expectations.lowerBound]))
        let result = try runLinkwright(["test"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("no expectations to check: add `expectations:`"), "\(result)")
    }

    @Test func aFailingExpectationPointsAtItsRuleAndExits1() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        try folder.write(
            "domains/emergencias.yaml",
            try folder.read("domains/emergencias.yaml").replacingOccurrences(
                of: "      - path: /reset-password\n        query:\n          token: \"?*\"\n",
                with: "      - path: /reset-password*\n"
            ).replacingOccurrences(of: "          token: query token\n", with: "          token?: query token\n"))
        let result = try runLinkwright(["test", "--env", "production"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "domains/emergencias.yaml:37:5: error: https://app.emergencias.example/reset-password on ios in production: "
                    + "expected web, got emergencias (decided by domains/emergencias.yaml:9:9) [EXPECTATION_FAILED]\n"),
            "\(result)")
        #expect(result.stdout.hasSuffix("2 of 87 checks failed\n"))
        let junit = try runLinkwright(["test", "--env", "production", "--format", "junit"], in: folder.url)
        #expect(junit.status == 1)
        let json = try runLinkwright(["test", "--env", "production", "--format", "json"], in: folder.url)
        #expect(json.status == 1)
        // JSON follows its documented schema and accounts for every check; JUnit has one case per
        // expectation and platform, a failed one listing the hosts it failed on.
        let script = """
            import json, sys, jsonschema, xml.etree.ElementTree as ET
            report = json.loads(sys.argv[2])
            jsonschema.validate(report, json.load(open(sys.argv[1])))
            outcomes = [o for e in report["expectations"] for o in e["outcomes"]]
            assert sum(o["checks"] for o in outcomes) == report["checks"] == 87, report["checks"]
            assert sum(o["checks"] for o in outcomes if not o["passed"]) == report["failed"] == 2
            assert all(o["checks"] == len(o["hosts"]) for o in outcomes)
            suites = ET.fromstring(sys.argv[3])
            cases = suites.findall("./testsuite/testcase")
            assert int(suites.get("tests")) == len(cases) == len(report["expectations"])
            failed = [c.find("failure") for c in cases if c.find("failure") is not None]
            assert int(suites.get("failures")) == len(failed) == 2
            # Each case names the file and line of its expectation, which CI viewers link to.
            assert all(c.get("file", "").endswith(".yaml") and int(c.get("line")) > 0 for c in cases), \
                [(c.get("file"), c.get("line")) for c in cases]
            assert any(c.get("file") == "domains/emergencias.yaml" and c.get("line") == "37" for c in cases)
            assert all("production app.emergencias.example https://app.emergencias.example/reset-password" in f.text
                       for f in failed), [f.text for f in failed]
            print("ok")
            """
        let checked = try python(
            script,
            [
                RepositoryPaths.root.appendingPathComponent("docs/schema/test-report.schema.json").path, json.stdout,
                junit.stdout,
            ])
        #expect(checked.stdout == "ok\n", "\(checked)")
    }
}
