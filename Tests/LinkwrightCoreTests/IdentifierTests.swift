import LinkwrightCore
import LinkwrightTestSupport
import Testing

@Suite struct HostTests {
    private func parsed(_ text: String) -> String? {
        if case .success(let host) = Host.parse(text) { return host.name }
        return nil
    }

    private func problem(_ text: String) -> IdentifierProblem? {
        if case .failure(let problem) = Host.parse(text) { return problem }
        return nil
    }

    @Test func acceptsLowercaseFullyQualifiedNames() {
        #expect(parsed("museo.example") == "museo.example")
        #expect(parsed("entradas.museo.example") == "entradas.museo.example")
        #expect(parsed("*.museo.example") == "*.museo.example")
        #expect(parsed("xn--caf-dma.example") == "xn--caf-dma.example")
    }

    @Test func convertsInternationalisedNamesToPunycode() {
        // RFC 3492 sample strings and well-known IDNs.
        #expect(parsed("café.example") == "xn--caf-dma.example")
        #expect(parsed("münchen.example") == "xn--mnchen-3ya.example")
        #expect(parsed("例え.テスト") == "xn--r8jz45g.xn--zckzah")
        // NFD input is composed first, as IDNA does.
        #expect(parsed("cafe\u{301}.example") == "xn--caf-dma.example")
    }

    @Test func theWildcardHostReadsItsRootsFiles() throws {
        let host = try Host.parse("*.museo.example").get()
        #expect(host.isWildcard)
        #expect(host.fileHost.name == "museo.example")
    }

    @Test(arguments: [
        ("https://museo.example", "INVALID_HOST"), ("museo.example/path", "INVALID_HOST"),
        ("museo.example:8443", "HOST_WITH_PORT"), ("Museo.Example", "INVALID_HOST"), ("museo.example.", "INVALID_HOST"),
        ("museo..example", "INVALID_HOST"), ("*.*.example", "INVALID_HOST"), ("a.*.example", "INVALID_HOST"),
        ("..", "INVALID_HOST"), ("../../etc/passwd", "INVALID_HOST"), ("museo\u{0}.example", "INVALID_HOST"),
        ("localhost", "INVALID_HOST"), ("127.0.0.1", "INVALID_HOST"), ("-museo.example", "INVALID_HOST"),
        ("museo_x.example", "INVALID_HOST"), ("", "INVALID_HOST"), ("mu seo.example", "INVALID_HOST"),
    ])
    func refuses(_ text: String, _ id: String) {
        #expect(problem(text)?.id.rawValue == id, "\(text)")
    }

    @Test func hintsGiveTheFixedSpelling() {
        #expect(problem("https://museo.example/x")?.hint == "write \"museo.example\"")
        #expect(problem("Museo.Example")?.hint == "write \"museo.example\"")
    }

    @Test func noAcceptedHostCanLeaveTheOutputFolder() {
        // A host becomes a folder name: every accepted host is labels of [a-z0-9-] joined by dots.
        let alphabet = Array("ab.-*/\\:é0")
        var generator = SplitMix64(seed: 2026)
        for _ in 0..<20_000 {
            let text = String(
                (0..<Int.random(in: 1...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            guard let name = parsed(text) else { continue }
            let labels = name.split(separator: ".", omittingEmptySubsequences: false)
            #expect(!labels.contains("") && !labels.contains(".."), "\(text) -> \(name)")
            #expect(!name.contains("/") && !name.contains("\\"), "\(text) -> \(name)")
        }
    }
}

@Suite struct FingerprintTests {
    let canonical = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    @Test func normalisesAcceptedSpellings() throws {
        #expect(try Fingerprint.parse(canonical).get().value == canonical)
        #expect(try Fingerprint.parse(canonical.lowercased()).get().value == canonical)
        #expect(try Fingerprint.parse(canonical.replacingOccurrences(":", "")).get().value == canonical)
    }

    @Test func refusesWhatGooglesCompatibilityTestsRefuse() {
        // comptest2311 ("B A D"), 2313 (not hex), 2314 (31 bytes).
        for text in [
            "B A D", "ZZ:" + canonical.dropFirst(3), String(canonical.dropLast(3)), "14:6DE9" + canonical.dropFirst(5),
        ] {
            #expect(throws: IdentifierProblem.self, "\(text)") { try Fingerprint.parse(text).get() }
        }
    }

    @Test func aSHA1FingerprintGetsItsOwnHint() {
        guard
            case .failure(let problem) = Fingerprint.parse(
                "DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09")
        else {
            Issue.record("accepted a SHA-1 fingerprint")
            return
        }
        #expect(problem.hint.contains("SHA-1"))
    }
}

@Suite struct IdentifierRuleTests {
    @Test func teamIDs() {
        #expect(Identifiers.teamIDProblem("ABCDE12345") == nil)
        #expect(Identifiers.teamIDProblem("abcde12345")?.hint.contains("ABCDE12345") == true)
        #expect(Identifiers.teamIDProblem("ABCDE1234") != nil)
    }

    @Test func bundleIDs() {
        #expect(Identifiers.bundleIDProblem("com.example.museo-app") == nil)
        #expect(Identifiers.bundleIDProblem("museo") != nil)
        #expect(Identifiers.bundleIDProblem("com.example_museo.app") != nil)
        #expect(Identifiers.bundleIDProblem("$(PRODUCT_BUNDLE_IDENTIFIER)")?.message.contains("placeholder") == true)
    }

    @Test func androidPackagesFollowJavaRules() {
        #expect(Identifiers.packageNameProblem("com.example.museo_app") == nil)
        #expect(Identifiers.packageNameProblem("museo") != nil)
        #expect(Identifiers.packageNameProblem("com.example.1museo") != nil)
        #expect(Identifiers.packageNameProblem("com.example.museo-app") != nil)
        #expect(Identifiers.packageNameProblem("com..museo") != nil)
    }

    @Test func namesCannotSpellAPath() {
        for name in ["production", "museo-clip", "a_b", "x1"] {
            #expect(Identifiers.nameProblem(name, what: "app") == nil)
        }
        for name in ["", "..", "a/b", "Prod", "-x", "a.b", "a\u{0}"] {
            #expect(Identifiers.nameProblem(name, what: "app") != nil, "\(name)")
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
