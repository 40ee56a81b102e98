import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// The published documentation stays true to the code.
@Suite struct DocumentationTests {
    /// Every diagnostic ID the sources can produce is documented in docs/diagnostics.md.
    @Test func everyDiagnosticIDIsDocumented() throws {
        let documented = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("docs/diagnostics.md"), encoding: .utf8)
        let notIDs: Set<String> = ["NO_COLOR"]
        var ids: Set<String> = []
        let sources = RepositoryPaths.root.appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for part in text.split(separator: "\"") where part.count > 3 {
                let isID =
                    part.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" } && part.contains("_")
                    && part.first!.isLetter
                if isID { ids.insert(String(part)) }
            }
        }
        #expect(ids.count > 40)
        let ruleIDs = Set(PolicyRules.all.map(\.info.id))
        for id in ids.subtracting(notIDs).subtracting(ruleIDs).sorted() {
            #expect(documented.contains("`\(id)`"), "\(id) is not in docs/diagnostics.md")
        }
    }

    /// docs/security.md and docs/diagnostics.md state the excerpt bound the code uses.
    @Test func theExcerptBoundIsDocumented() throws {
        for page in ["docs/security.md", "docs/diagnostics.md"] {
            let text = try String(contentsOf: RepositoryPaths.root.appendingPathComponent(page), encoding: .utf8)
            #expect(text.contains("\(PrintableText.excerptLimit) characters"), "\(page)")
        }
    }

    /// docs/rules.md is what `linkwright rules --format markdown` prints.
    @Test func theRuleReferenceIsCurrent() throws {
        let published = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        #expect(
            published == RuleCatalog.markdown(),
            "docs/rules.md is stale: run `linkwright rules --format markdown > docs/rules.md`")
    }
}
