import Foundation
import LinkwrightTestSupport
import Testing

/// The folders of `Sources/LinkwrightCore` are layers, each using only the ones below it, so a
/// reader can understand a folder from it and what lies under it. One module cannot enforce
/// that, so this suite reads the sources: a folder depends on another when its code names a
/// type the other declares at the top level, or calls a top-level function it declares.
/// Comments and string literals (but not their interpolations) are left out, and a name the
/// folder declares itself, at any depth, is its own (`CompiledAASA.Rule` is not Config's
/// `Rule`). What no name spells cannot be seen: a value of another folder's type reached
/// through inference, or a member added to a standard type by an extension; the check may
/// miss an edge, but every edge it reports is one a reader follows.
@Suite struct FolderDependencyTests {
    /// The intended layers, the lowest first. A folder may use folders of lower layers only.
    static let layers: [[String]] = [
        ["Support", "Diagnostics"],
        ["Text"],
        ["YAML"],
        ["Vocabulary"],
        ["Matching"],
        ["Config"],
        ["Compile"],
        ["Emit"],
        ["Evaluate", "Foreign"],
        ["Analysis"],
        ["Proof"],
        ["Diff"],
        ["Cache"],
        ["Policy"],
        ["Promote", "Generate"],
        ["Report"],
        ["Verify", "Import"],
        ["AppBuild"],
        ["AppSync"],
    ]

    struct FolderEdge: Hashable, CustomStringConvertible {
        let from: String
        let to: String
        init(_ from: String, _ to: String) {
            self.from = from
            self.to = to
        }
        var description: String { "\(from) -> \(to)" }
    }

    static let folders = CoreFolder.readAll()

    @Test func theLayersNameEveryFolderOnce() {
        let layered = Self.layers.flatMap { $0 }
        #expect(layered.count == Set(layered).count, "a folder is in two layers")
        #expect(Set(layered) == Set(Self.folders.map(\.name)), "every folder of LinkwrightCore has one layer")
    }

    @Test func everyDependencyRunsDownward() {
        for (edge, names) in Self.dependencies().sorted(by: { $0.key.description < $1.key.description })
        where !Self.isDownward(edge) {
            Issue.record(
                """
                \(edge) runs against the layers (through \(names.sorted().joined(separator: ", "))): \
                move what \(edge.from)/ needs below it, or move the code that needs it up
                """)
        }
    }

    /// The folders form no cycle: the layers guarantee it, and this says so on its own terms,
    /// naming a cycle if the layers were ever edited into one.
    @Test func noFolderDependsOnItself() {
        let cycles = FolderGraph(edges: Array(Self.dependencies().keys)).cycles()
        #expect(cycles.isEmpty, "folders depending on each other: \(cycles)")
    }

    static func isDownward(_ edge: FolderEdge) -> Bool {
        guard let from = layers.firstIndex(where: { $0.contains(edge.from) }),
            let to = layers.firstIndex(where: { $0.contains(edge.to) })
        else { return false }
        return to < from
    }

    /// Every folder edge, with the names that make it.
    static func dependencies() -> [FolderEdge: Set<String>] {
        var owners: [String: String] = [:]
        var functions: Set<String> = []
        for folder in folders {
            for name in folder.topLevelTypes { owners[name] = folder.name }
            for name in folder.topLevelFunctions {
                owners[name] = folder.name
                functions.insert(name)
            }
        }
        var edges: [FolderEdge: Set<String>] = [:]
        for folder in folders {
            for name in folder.names where !folder.declared.contains(name) {
                guard let owner = owners[name], owner != folder.name else { continue }
                if functions.contains(name) && !folder.called.contains(name) { continue }
                edges[FolderEdge(folder.name, owner), default: []].insert(name)
            }
        }
        return edges
    }
}

/// One folder of `Sources/LinkwrightCore`: what it declares and which names its code uses.
struct CoreFolder {
    let name: String
    var topLevelTypes: Set<String> = []
    var topLevelFunctions: Set<String> = []
    /// Every type and function declared in the folder, at any depth.
    var declared: Set<String> = []
    var names: Set<String> = []
    /// Names written right before `(`, the only way a free function is used.
    var called: Set<String> = []

    static func readAll() -> [CoreFolder] {
        let core = RepositoryPaths.root.appendingPathComponent("Sources/LinkwrightCore")
        let manager = FileManager.default
        let entries = (try? manager.contentsOfDirectory(atPath: core.path)) ?? []
        return entries.sorted().compactMap { entry -> CoreFolder? in
            var isFolder: ObjCBool = false
            let url = core.appendingPathComponent(entry)
            guard manager.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
            var folder = CoreFolder(name: entry)
            let files = manager.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") {
                guard let text = try? String(contentsOf: url.appendingPathComponent(file), encoding: .utf8) else {
                    continue
                }
                folder.read(SwiftCode.withoutCommentsAndLiterals(text))
            }
            return folder
        }
    }

    private static let declaration = try! NSRegularExpression(
        pattern: #"""
            ^([ \t]*)(?:(?:@\w+(?:\([^)\n]*\))?|public|package|internal|private|fileprivate|final|indirect|nonisolated|open|static|override|mutating|convenience)\s+)*(struct|enum|class|protocol|typealias|actor|func)\s+([A-Za-z_]\w*)
            """#,
        options: [.anchorsMatchLines])

    private mutating func read(_ code: String) {
        let text = code as NSString
        for match in Self.declaration.matches(in: code, range: NSRange(location: 0, length: text.length)) {
            let name = text.substring(with: match.range(at: 3))
            declared.insert(name)
            guard match.range(at: 1).length == 0 else { continue }
            if text.substring(with: match.range(at: 2)) == "func" {
                topLevelFunctions.insert(name)
            } else {
                topLevelTypes.insert(name)
            }
        }
        var word = ""
        for character in code.unicodeScalars {
            if character == "_" || CharacterSet.alphanumerics.contains(character) {
                word.unicodeScalars.append(character)
                continue
            }
            if !word.isEmpty, word.first?.isNumber == false {
                names.insert(word)
                if character == "(" { called.insert(word) }
            }
            word = ""
        }
        if !word.isEmpty { names.insert(word) }
    }
}

/// Swift source with comments and string literals blanked, interpolations kept as code.
enum SwiftCode {
    static func withoutCommentsAndLiterals(_ source: String) -> String {
        let scalars = Array(source.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        // Open interpolations: for each, the parentheses still open inside it, and the string
        // it returns to (its closing delimiter and the number of `#`s).
        var interpolations: [(depth: Int, multiline: Bool, hashes: Int)] = []

        func starts(with text: String, at position: Int) -> Bool {
            var position = position
            for scalar in text.unicodeScalars {
                guard position < scalars.count, scalars[position] == scalar else { return false }
                position += 1
            }
            return true
        }

        /// Skips a string literal's text from `index` up to and past its closing delimiter, or
        /// into an interpolation (returning true).
        func skipString(multiline: Bool, hashes: Int) -> Bool {
            let closing = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            while index < scalars.count {
                if starts(with: escape, at: index) {
                    index += escape.unicodeScalars.count
                    if index < scalars.count, scalars[index] == "(" {
                        index += 1
                        output.append(" ")
                        interpolations.append((0, multiline, hashes))
                        return true
                    }
                    index += 1
                } else if starts(with: closing, at: index) {
                    index += closing.unicodeScalars.count
                    return false
                } else {
                    if scalars[index] == "\n" { output.append("\n") }
                    index += 1
                }
            }
            return false
        }

        while index < scalars.count {
            let scalar = scalars[index]
            if starts(with: "//", at: index) {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else if starts(with: "/*", at: index) {
                var depth = 0
                repeat {
                    if starts(with: "/*", at: index) {
                        depth += 1
                        index += 2
                    } else if starts(with: "*/", at: index) {
                        depth -= 1
                        index += 2
                    } else {
                        if scalars[index] == "\n" { output.append("\n") }
                        index += 1
                    }
                } while depth > 0 && index < scalars.count
            } else if scalar == "#" || scalar == "\"" {
                var hashes = 0
                while index + hashes < scalars.count, scalars[index + hashes] == "#" { hashes += 1 }
                let quote = index + hashes
                guard quote < scalars.count, scalars[quote] == "\"" else {
                    output.append(scalar)
                    index += 1
                    continue
                }
                let multiline = starts(with: "\"\"\"", at: quote)
                index = quote + (multiline ? 3 : 1)
                output.append(" ")
                _ = skipString(multiline: multiline, hashes: hashes)
            } else if !interpolations.isEmpty && (scalar == "(" || scalar == ")") {
                index += 1
                if scalar == "(" {
                    interpolations[interpolations.count - 1].depth += 1
                    output.append(scalar)
                } else if interpolations[interpolations.count - 1].depth > 0 {
                    interpolations[interpolations.count - 1].depth -= 1
                    output.append(scalar)
                } else {
                    let string = interpolations.removeLast()
                    output.append(" ")
                    _ = skipString(multiline: string.multiline, hashes: string.hashes)
                }
            } else {
                output.append(scalar)
                index += 1
            }
        }
        return String(output)
    }
}

/// A directed graph of folders, for naming its cycles.
struct FolderGraph {
    var next: [String: Set<String>] = [:]

    init(edges: some Sequence<FolderDependencyTests.FolderEdge>) {
        for edge in edges { next[edge.from, default: []].insert(edge.to) }
    }

    /// The strongly connected components of more than one folder (Tarjan's algorithm), each
    /// sorted, in order of their first folder.
    func cycles() -> [[String]] {
        var index: [String: Int] = [:]
        var lowest: [String: Int] = [:]
        var stack: [String] = []
        var onStack: Set<String> = []
        var components: [[String]] = []

        func visit(_ folder: String) {
            index[folder] = index.count
            lowest[folder] = index[folder]
            stack.append(folder)
            onStack.insert(folder)
            for other in (next[folder] ?? []).sorted() {
                if index[other] == nil {
                    visit(other)
                    lowest[folder] = min(lowest[folder]!, lowest[other]!)
                } else if onStack.contains(other) {
                    lowest[folder] = min(lowest[folder]!, index[other]!)
                }
            }
            guard lowest[folder] == index[folder] else { return }
            var component: [String] = []
            while let top = stack.popLast() {
                onStack.remove(top)
                component.append(top)
                if top == folder { break }
            }
            if component.count > 1 { components.append(component.sorted()) }
        }

        for folder in next.keys.sorted() where index[folder] == nil { visit(folder) }
        return components.sorted { $0[0] < $1[0] }
    }
}
