import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// The real-world files of `../shared/corpus` (see SOURCES.md there), found next to the
/// repository. A fresh clone without them shows these tests as skipped.
enum Corpus {
    static let root = RepositoryPaths.sharedCorpusFolder

    /// Every regular file below `folder`, sorted by path.
    static func files(in folder: String) -> [URL] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    static func bytes(_ relativePath: String) throws -> [UInt8] { try bytes(root.appendingPathComponent(relativePath)) }
}

@Suite(
    "Real-world corpus",
    .enabled(if: RepositoryPaths.sharedCorpus != nil, Comment(rawValue: RepositoryPaths.sharedCorpusMissing)))
struct CorpusTests {
    static let probePaths = ["/", "/buy/42", "/help/website/faq?articleNumber=4815", "/a/b?x=1#frag", "/caf%C3%A9"]

    @Test func everyFileReadsAndEvaluatesWithoutCrashing() throws {
        var read = 0
        var rejected: [String: Int] = [:]
        var evaluated = 0
        var findings = 0
        let files = Corpus.files(in: "aasa") + Corpus.files(in: "assetlinks") + Corpus.files(in: "history")
        #expect(files.count >= 200)
        for file in files {
            let bytes = try Corpus.bytes(file)
            let isAssetLinks = file.lastPathComponent.contains("assetlinks.json")
            let diagnostics: [Diagnostic]
            if isAssetLinks {
                let result = AssetLinksReader().read(bytes, file: file.lastPathComponent)
                diagnostics = result.diagnostics
                if let document = result.document {
                    let compiled = CompiledAssetLinks(document)
                    for package in compiled.packages {
                        for path in Self.probePaths {
                            _ = compiled.decision(for: LinkURL(path)!, package: package, tracing: true)
                            evaluated += 1
                        }
                    }
                }
            } else {
                let result = AASAReader().read(bytes, file: file.lastPathComponent)
                diagnostics = result.diagnostics
                if let document = result.document {
                    findings += RuleAnalysis(comparesAndroidSemantics: true).findings(in: document).count
                    let compiled = CompiledAASA(document)
                    for appID in compiled.appIDs {
                        for path in Self.probePaths {
                            _ = compiled.decision(for: LinkURL(path)!, appID: appID, tracing: true)
                            evaluated += 1
                        }
                    }
                }
            }
            read += 1
            if let error = diagnostics.first(where: { $0.severity == .error }) {
                rejected[error.id.rawValue, default: 0] += 1
                #expect(error.location != nil, "\(file.lastPathComponent): \(error.message)")
            }
        }
        let reasons = rejected.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print(
            "corpus: read \(read) files, \(rejected.values.reduce(0, +)) rejected with errors (\(reasons)), "
                + "\(evaluated) evaluations, \(findings) rule findings")
    }

    // SOURCES.md: invalid JSON (trailing comma, missing comma, `//` comments) and an empty file.
    @Test(arguments: [
        ("history/5calls__5calls/5calls__5calls__static_.well-known_apple-app-site-association@4baeb659", false),
        ("history/paulgmiller__careme/paulgmiller__careme__internal_static_assetlinks.json@ead2b3fd", true),
        ("aasa/5eeman__rapidsnark-instant-app__apple-app-site-association", false),
        (
            "history/artsy__artsy-eigen-web-association/"
                + "artsy__artsy-eigen-web-association__apple-app-site-association@107051e8",
            false
        ),
    ])
    func invalidJSONIsLocated(path: String, isAssetLinks: Bool) throws {
        let bytes = try Corpus.bytes(path)
        let diagnostics =
            isAssetLinks
            ? AssetLinksReader().read(bytes, file: path).diagnostics : AASAReader().read(bytes, file: path).diagnostics
        #expect(diagnostics.map(\.id) == [.invalidJSON])
        #expect((diagnostics.first?.location?.line ?? 0) >= 1)
    }

    @Test func signedArtsyFileIsRead() throws {
        let result = AASAReader().read(
            try Corpus.bytes("aasa/artsy__artsy-eigen-web-association__apple-app-site-association"), file: "artsy")
        #expect(result.wasSigned)
        #expect(result.diagnostics.map(\.id).contains(.signedAASA))
        #expect(result.document?.serviceApps[.activitycontinuation]?.count == 3)
        #expect(result.document?.applinks?.details.isEmpty == false)
    }

    // SOURCES.md: element-call's first `?` rule used "*", which also matches URLs without the
    // item, so the exclude caught every URL; fixed to "?*" in ad462f3d.
    @Test func elementCallStarExcludedEverything() throws {
        let buggy =
            "history/element-hq__element-call/element-hq__element-call__public_apple-app-site-association@399ec9fa"
        let result = AASAReader().read(try Corpus.bytes(buggy), file: buggy)
        #expect(result.diagnostics.map(\.id).contains(.queryStarMatchesAbsent))
        let compiled = CompiledAASA(try #require(result.document))
        let app = try #require(compiled.appIDs.first)
        #expect(compiled.decision(for: LinkURL("https://call.element.io/room")!, appID: app).outcome == .exclude)
        let fixed = AASAReader().read(
            try Corpus.bytes("aasa/element-hq__element-call__public_.well-known_apple-app-site-association"),
            file: "fixed")
        let fixedCompiled = CompiledAASA(try #require(fixed.document))
        #expect(fixedCompiled.decision(for: LinkURL("https://call.element.io/room")!, appID: app).outcome == .match)
    }

    // SOURCES.md: "ORDER BUG: '/skins/install' + ?url='*' precedes the no-query exclude".
    @Test func provenanceDeadExcludeIsFound() throws {
        let path = "aasa/Provenance-Emu__provenance-emu.github.io__static_.well-known_apple-app-site-association"
        let document = try #require(AASAReader().read(try Corpus.bytes(path), file: path).document)
        let dead = RuleAnalysis().findings(in: document).filter { $0.id == .unreachableRule }
        #expect(dead.map(\.ruleIndex) == [3])
        #expect(dead.first?.origin?.line == 24)
    }

    @Test(arguments: [
        ("aasa/JobCore__website__.well-known_apple-app-site-association.json", "INVALID_APP_ID", false),
        ("aasa/Adophlidu__firefly.social__public_.well-known_apple-app-site-association", "APP_ID_AND_APP_IDS", false),
        (
            "aasa/OpenManifest__openmanifest-web-staging__.well-known_apple-app-site-association.json",
            "MIXED_LEGACY_MODERN", false
        ),
        ("assetlinks/2keyapp__2keyapp.github.io__.well-known_assetlinks.json", "INVALID_FINGERPRINT", true),
        ("assetlinks/coopcycle__coopcycle-website__static_.well-known_assetlinks.json", "PUBLIC_DEBUG_KEY", true),
        ("assetlinks/0x01-a2a__pilot__.well-known_assetlinks.json", "INVALID_PACKAGE_NAME", true),
    ])
    func knownProblemsAreReported(path: String, id: String, isAssetLinks: Bool) throws {
        let bytes = try Corpus.bytes(path)
        let diagnostics =
            isAssetLinks
            ? AssetLinksReader().read(bytes, file: path).diagnostics : AASAReader().read(bytes, file: path).diagnostics
        #expect(diagnostics.contains { $0.id.rawValue == id && $0.location != nil })
    }
}
