import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// Each file in Fixtures/diagnostics is one configuration (several files separated by
/// `=== path` lines, optionally on top of `base`) and the exact diagnostics it must produce:
/// `expect: file:line:column severity ID`.
struct DiagnosticFixture: CustomTestStringConvertible {
    static let folder = RepositoryPaths.root.appendingPathComponent("Tests/LinkwrightCoreTests/Fixtures/diagnostics")

    let name: String
    let files: [String: String]
    let expected: [String]

    var testDescription: String { name }

    static var all: [DiagnosticFixture] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".txt") }.sorted().map { load(String($0.dropLast(4))) }
    }

    static func load(_ name: String) -> DiagnosticFixture {
        let text = String(
            decoding: FileManager.default.contents(atPath: folder.appendingPathComponent(name + ".txt").path)!,
            as: UTF8.self)
        var files: [String: String] = [:]
        var expected: [String] = []
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("=== ") {
                current = String(line.dropFirst(4))
                files[current!] = ""
            } else if let path = current {
                files[path]! += line + "\n"
            } else if line == "base" {
                files.merge(load("base").files) { mine, _ in mine }
            } else if line.hasPrefix("expect: "), line != "expect: nothing" {
                expected.append(String(line.dropFirst(8)))
            }
        }
        return DiagnosticFixture(name: name, files: files, expected: expected.sorted())
    }

    /// Loads, compiles and analyses the configuration, as `linkwright lint` does.
    func run() -> [Diagnostic] {
        let sources = files.keys.sorted().map {
            SourceFile(path: $0, bytes: Array(files[$0]!.trimmingTrailingNewlines.utf8) + [10])
        }
        let (configuration, loadDiagnostics) = ConfigLoader().load(sources)
        guard let configuration else { return loadDiagnostics }
        let (compiled, compileDiagnostics) = Compiler().compile(configuration)
        let analysis =
            ConfigurationRuleAnalysis().diagnostics(in: compiled)
            + RouteOverlapAnalysis().diagnostics(configuration, compiled)
        return (loadDiagnostics + compileDiagnostics + analysis).sorted()
    }

    static func summary(_ diagnostic: Diagnostic) -> String {
        let place = diagnostic.location.map { "\($0.file):\($0.line):\($0.column)" } ?? "-"
        return "\(place) \(diagnostic.severity.rawValue) \(diagnostic.id)"
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

@Suite struct DiagnosticFixtureTests {
    @Test(arguments: DiagnosticFixture.all)
    func producesExactlyTheExpectedDiagnostics(_ fixture: DiagnosticFixture) {
        let diagnostics = fixture.run()
        let actual = Array(Set(diagnostics.map(DiagnosticFixture.summary))).sorted()
        #expect(
            actual == fixture.expected,
            "\(diagnostics.map { "\($0.location.map(String.init(describing:)) ?? "-"): \($0.message)" })")
        for diagnostic in diagnostics {
            #expect(diagnostic.hint?.isEmpty == false, "no fix hint for \(diagnostic.id): \(diagnostic.message)")
        }
    }

    @Test func everyFixtureHasExpectations() {
        #expect(DiagnosticFixture.all.count > 30)
        for fixture in DiagnosticFixture.all where fixture.name != "base" {
            #expect(!fixture.expected.isEmpty, "\(fixture.name) expects nothing")
        }
    }
}
