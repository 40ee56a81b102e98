import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// The published documentation stays true to the code.
@Suite struct DocumentationTests {
    /// docs/diagnostics.md documents every `DiagnosticID` once, in the ID's section, with the
    /// severity and summary the catalog declares, and documents nothing else.
    @Test func theDiagnosticReferenceMatchesTheCatalog() throws {
        let text = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("docs/diagnostics.md"), encoding: .utf8)
        let rows = DocumentedDiagnostic.rows(of: text)
        var documented: [String: DocumentedDiagnostic] = [:]
        for row in rows {
            #expect(documented.updateValue(row, forKey: row.id) == nil, "\(row.id) is documented twice")
            #expect(DiagnosticID(rawValue: row.id) != nil, "\(row.id) is documented but no DiagnosticID declares it")
        }
        #expect(Set(rows.map(\.anchor)) == Set(DiagnosticSection.allCases.map(\.rawValue)))
        for id in DiagnosticID.allCases {
            let expected = DocumentedDiagnostic(
                anchor: id.section.rawValue, id: id.rawValue, severity: id.severity.rawValue, summary: id.summary)
            #expect(
                documented[id.rawValue] == expected,
                "docs/diagnostics.md#\(expected.anchor) should have the row: \(expected.row)")
        }
    }

    /// Diagnostic IDs and platform names are written once, in `DiagnosticID` and `Platform`;
    /// everywhere else names them by case.
    @Test func theVocabularyIsNotSpelledOutInTheSources() throws {
        let sources = RepositoryPaths.root.appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        let names = DiagnosticID.allCases.map(\.rawValue) + Platform.allCases.map(\.rawValue)
        let quoted = Set(names.map { "\"\($0)\"" })
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift"), !path.hasSuffix("/DiagnosticID.swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for literal in quoted where text.contains(literal) {
                // A policy rule may share its name with the diagnostic it is built on; `RuleID`
                // declares it.
                let ruleID = RuleID.allCases.contains { "\"\($0.rawValue)\"" == literal }
                guard !(path.hasSuffix("/RuleID.swift") && ruleID) else { continue }
                Issue.record("\(path) spells out \(literal); name the DiagnosticID or Platform case")
            }
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

/// A row of a table in docs/diagnostics.md and the section it is in.
private struct DocumentedDiagnostic: Equatable {
    /// The GitHub anchor of the section's heading.
    var anchor: String
    var id: String
    var severity: String
    var summary: String

    var row: String { "| `\(id)` | \(severity) | \(summary) |" }

    /// Every `| `ID` | severity | summary |` row, under the `## ` heading above it.
    static func rows(of markdown: String) -> [DocumentedDiagnostic] {
        var anchor = ""
        var rows: [DocumentedDiagnostic] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                anchor = githubAnchor(line.dropFirst(3))
                continue
            }
            guard line.hasPrefix("| `"), line.hasSuffix(" |") else { continue }
            let cells = line.dropFirst(2).dropLast(2).split(separator: " | ", maxSplits: 2)
            guard cells.count == 3 else { continue }
            rows.append(
                DocumentedDiagnostic(
                    anchor: anchor, id: String(cells[0].dropFirst().dropLast()), severity: String(cells[1]),
                    summary: String(cells[2])))
        }
        return rows
    }

    /// How GitHub turns a heading into an anchor: lowercase, punctuation dropped, spaces to hyphens.
    static func githubAnchor(_ heading: Substring) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                let kept = character.isLetter || character.isNumber || character == "-" || character == "_"
                return kept ? character : nil
            })
    }
}
