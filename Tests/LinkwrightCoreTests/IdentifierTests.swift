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

    @Test func lengthsAreCheckedBeforeEncoding() {
        // 60,000 distinct characters: the encoder's quadratic loop took 44 s on this label; the
        // length bound refuses it before encoding, and the message quotes only its start.
        let hostile = String(String.UnicodeScalarView((0..<60_000).map { Unicode.Scalar(0x4E00 + $0 % 20_000)! }))
        let problem = problem(hostile + ".example")
        #expect(problem?.message.contains("is longer than 63 characters in its xn-- form") == true)
        #expect((problem?.message.count ?? .max) < 200)
        #expect(self.problem(String(repeating: "a", count: 64) + ".example")?.message.contains("63") == true)
        #expect(parsed(String(repeating: "a", count: 63) + ".example") != nil)
        // 59 non-ASCII characters need at least 4 + 59 = 63; 60 cannot fit.
        #expect(self.problem(String(repeating: "é", count: 60) + ".example")?.message.contains("63") == true)
        #expect(
            self.problem(String(repeating: "a.", count: 50_000) + "example")?.message
                == "host is longer than 253 characters")
    }

    @Test func acceptsValidALabelsAndTheirUnicodeForms() {
        // RFC 3492 §7.1 samples (B), (D) lowercased, (E) and (G).
        for (unicode, ascii) in [
            ("他们为什么不说中文", "xn--ihqwcrb4cv8a8dqg056pqjye"),
            ("pročprostěnemluvíčesky", "xn--proprostnemluvesky-uyb24dma41a"),
            ("למההםפשוטלאמדבריםעברית", "xn--4dbcagdahymbxekheh6e0a7fei0b"),
            ("なぜみんな日本語を話してくれないのか", "xn--n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"),
        ] {
            #expect(parsed(unicode + ".example") == ascii + ".example")
            #expect(parsed(ascii + ".example") == ascii + ".example")
        }
        // RFC 5892 A.3: the Catalan middle dot between two l's; A.2: a joiner after a virama.
        #expect(parsed("col·legi.example") == "xn--collegi-xma.example")
        #expect(parsed("\u{915}\u{94D}\u{200D}.example") != nil)
    }

    @Test(arguments: [
        ("xn--abc.example", "is not a valid internationalised label: it decodes to"),
        ("xn--cafe-yvc.example", "is not the standard encoding of"),
        ("xn--ab_c.example", "has characters a host cannot have"),
        ("xn--99999999999999999999.example", "is not Punycode"),
    ])
    func refusesInvalidALabels(_ text: String, _ reason: String) {
        let problem = problem(text)
        #expect(problem?.id == .invalidHost)
        #expect(problem?.message.contains(reason) == true, "\(problem?.message ?? "accepted")")
    }

    @Test(arguments: [
        "\u{202E}", "\u{202A}", "\u{200F}", "\u{2066}", "\u{061C}", "\u{200B}", "\u{00AD}", "\u{FEFF}", "\u{FE0F}",
        "\u{200D}", "\u{2060}",
    ])
    func refusesInvisibleAndBidiCharacters(_ scalar: String) {
        let problem = problem("mu\(scalar)seo.example")
        #expect(problem?.id == .invalidHost)
        #expect(problem?.hint.contains("does not show") == true, "\(problem?.message ?? "accepted")")
        // Quoted escaped, so the message itself is not reordered or hidden.
        #expect(problem?.message.contains(scalar) == false)
    }

    @Test(arguments: ["\u{3002}", "\u{FF0E}", "\u{FF61}"])
    func refusesDotsOtherThanFullStop(_ dot: String) {
        let problem = problem("entradas\(dot)museo.example")
        #expect(problem?.message.contains("separates labels with U+") == true)
        #expect(problem?.hint == "write the dot as \".\": \"entradas.museo.example\"")
    }

    @Test(arguments: [
        ("☃.example", "U+2603 SNOWMAN"), ("\u{FF41}b.example", "U+FF41 FULLWIDTH LATIN SMALL LETTER A"),
        ("-ü.example", "starts or ends with a hyphen"), ("\u{301}a.example", "starts with the combining mark"),
        ("ab--é.example", "third and fourth places"), ("l·.example", "not between two l's"),
        ("\u{0378}é.example", "does not assign"), ("\u{661}\u{6F1}.example", "mixes Arabic-Indic"),
    ])
    func refusesWhatIDNA2008Disallows(_ text: String, _ reason: String) {
        #expect(problem(text)?.message.contains(reason) == true, "\(problem(text)?.message ?? "accepted")")
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

    @Test func teamIDsInLowercaseAreNormalisedOnlyByASCIILetters() {
        #expect(Identifiers.normalisedTeamID("a1b2c3d4e5") == "A1B2C3D4E5")
        #expect(Identifiers.normalisedTeamID("A1B2C3D4E5") == "A1B2C3D4E5")
        #expect(Identifiers.normalisedTeamID("a1b2c3d4e") == nil)
        // "ß" upper-cases to "SS", which would make nine characters a team ID.
        #expect(Identifiers.normalisedTeamID("\u{DF}BCDE1234") == nil)
        #expect(Identifiers.teamIDProblem("a1b2c3d4e5")?.hint == "team IDs are uppercase: \"A1B2C3D4E5\"")
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
