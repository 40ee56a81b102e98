import Foundation
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
        for id in ids.subtracting(notIDs).sorted() {
            #expect(documented.contains("`\(id)`"), "\(id) is not in docs/diagnostics.md")
        }
    }
}
