import Foundation
import LinkwrightTestSupport
import Testing

@testable import LinkwrightCore

/// `ServingCheck` on answers made here, without a server: hosting rules first (unreachable,
/// redirect, status, Content-Type, size, JSON), then meaning, for the origin and for Apple's CDN.
/// The end-to-end tests run the same checks against a real nginx (`VerifyCommandTests`); these
/// pin each finding's ID, severity and witnesses one answer at a time.
@Suite struct ServingCheckTests {
    /// `example.com` with an iOS and an Android app (`BehaviourProofTests`'s configuration).
    private static let files: [String: String] = [
        "environments/production.yaml": BehaviourProofTests.environment(android: true),
        "domains/example.yaml": BehaviourProofTests.domain(
            "      - path: /products/private/*\n        exclude: true\n      - path: /products/*\n", android: true),
    ]

    private static func site() throws -> CompiledSite {
        let (configuration, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let compiled = Compiler().compile(try #require(configuration, "\(diagnostics)")).compiled
        return try #require(compiled.environments.first?.sites.first)
    }

    private static let scope = ServingCheck.Scope(environment: "production", host: "example.com", location: nil)

    private static func answer(
        _ body: String, status: Int = 200, mediaType: String? = "application/json", truncated: Bool = false,
        redirect: String? = nil, headers: [(name: String, value: String)] = []
    ) -> ServedFile {
        ServedFile(
            url: "https://example.com/.well-known/file",
            outcome: .response(
                .init(
                    status: status, mediaType: mediaType, contentType: mediaType, headers: headers,
                    body: Array(body.utf8), isTruncated: truncated, redirectLocation: redirect)))
    }

    private static func built(_ file: AssociationFile, _ site: CompiledSite) throws -> String {
        try #require(file == .aasa ? site.aasa?.json.rendered() : site.assetLinks?.json.rendered())
    }

    private func origin(_ file: AssociationFile, _ served: ServedFile) throws -> [Finding] {
        ServingCheck.origin(file, served, expected: try Self.site(), scope: Self.scope)
    }

    @Test(arguments: [AssociationFile.aasa, .assetLinks])
    func theBuildsOwnBytesPass(_ file: AssociationFile) throws {
        #expect(try origin(file, Self.answer(try Self.built(file, try Self.site()))).isEmpty)
    }

    /// Each hosting failure stops the check with its own finding.
    @Test func hostingFailuresAreFoundBeforeMeaning() throws {
        let site = try Self.site()
        let body = try Self.built(.aasa, site)
        let unreachable = ServedFile(
            url: "https://example.com/x", outcome: .failure(kind: "dns", message: "no such host"))
        let cases: [(ServedFile, DiagnosticID)] = [
            (unreachable, .originUnreachable),
            (Self.answer("", status: 301, redirect: "https://www.example.com/x"), .originRedirect),
            (Self.answer("", status: 404), .originStatus),
            (Self.answer(body, truncated: true), .originTooLarge),
            (Self.answer("{\"applinks\": "), .originInvalid),
        ]
        for (served, id) in cases {
            let findings = try origin(.aasa, served)
            #expect(findings.map(\.rule) == [id.rawValue], "\(id)")
        }
    }

    /// Android requires application/json; for Apple it is a recommendation, so a warning.
    @Test func contentTypeIsRequiredOnAndroidAndRecommendedOnIOS() throws {
        let site = try Self.site()
        let aasa = try origin(.aasa, Self.answer(try Self.built(.aasa, site), mediaType: "text/plain"))
        let assetLinks = try origin(.assetLinks, Self.answer(try Self.built(.assetLinks, site), mediaType: nil))
        #expect(aasa.map(\.rule) == [DiagnosticID.originContentType.rawValue])
        #expect(aasa.first?.severity == .warning)
        #expect(assetLinks.map(\.rule) == [DiagnosticID.originContentType.rawValue])
        #expect(assetLinks.first?.severity == DiagnosticID.originContentType.severity)
    }

    /// Whitespace and key order change no decision; a file deciding otherwise names a URL.
    @Test func meaningIsComparedNotBytes() throws {
        let site = try Self.site()
        let built = try Self.built(.aasa, site)
        let reformatted = String(
            data: try JSONSerialization.data(
                withJSONObject: try JSONSerialization.jsonObject(with: Data(built.utf8)), options: [.prettyPrinted]),
            encoding: .utf8)!
        #expect(reformatted != built)
        #expect(try origin(.aasa, Self.answer(reformatted)).isEmpty)
        let stale = built.replacingOccurrences(of: "private", with: "secret")
        let findings = try origin(.aasa, Self.answer(stale))
        #expect(findings.map(\.rule) == [DiagnosticID.originDiffers.rawValue])
        // URLs the build keeps on the web and the served file opens, and the other way round.
        #expect(
            findings.first?.witnesses.sorted() == [
                "https://example.com/products/private", "https://example.com/products/secret",
            ], "\(findings)")
    }

    /// The CDN: its status with Apple's failure headers, and an older copy told from a wrong origin.
    @Test func theCDNTellsAStaleCopyFromAWrongOrigin() throws {
        let site = try Self.site()
        let built = try Self.built(.aasa, site)
        #expect(ServingCheck.cdn(Self.answer(built), expected: site, originAgrees: true, scope: Self.scope).isEmpty)
        let failed = ServingCheck.cdn(
            Self.answer("", status: 404, headers: [("Apple-Failure-Reason", "SWCERR00301 Timeout")]), expected: site,
            originAgrees: true, scope: Self.scope)
        #expect(failed.map(\.rule) == [DiagnosticID.cdnStatus.rawValue])
        #expect(failed.first?.message.contains("Apple-Failure-Reason: SWCERR00301 Timeout") == true)
        let stale = built.replacingOccurrences(of: "private", with: "secret")
        let older = ServingCheck.cdn(Self.answer(stale), expected: site, originAgrees: true, scope: Self.scope)
        let wrong = ServingCheck.cdn(Self.answer(stale), expected: site, originAgrees: false, scope: Self.scope)
        #expect(older.first?.message.contains("still serves an older copy") == true, "\(older)")
        #expect(wrong.first?.message.contains("as the origin does") == true, "\(wrong)")
    }
}
