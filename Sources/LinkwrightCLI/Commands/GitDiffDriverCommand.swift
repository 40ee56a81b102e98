import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright git-diff-driver`: a git external diff driver, so `git diff` and `git log -p` show
/// what a change does to links instead of JSON or YAML noise.
struct GitDiffDriverCommand: Command {
    static let host = Option<String>(
        name: "host", valueName: "HOST", default: "example.com", help: "Host for witness URLs of association files")
    /// What git passes for every changed file.
    static let change = [
        ArgumentSpec(name: "PATH", help: "The file's path in the repository"),
        ArgumentSpec(name: "OLD-FILE", help: "A file holding the old version"),
        ArgumentSpec(name: "OLD-HEX", help: "Its blob ID"), ArgumentSpec(name: "OLD-MODE", help: "Its mode"),
        ArgumentSpec(name: "NEW-FILE", help: "A file holding the new version"),
        ArgumentSpec(name: "NEW-HEX", help: "Its blob ID"), ArgumentSpec(name: "NEW-MODE", help: "Its mode"),
    ]
    /// What git adds for a rename.
    static let rename = [
        ArgumentSpec(name: "NEW-PATH", help: "With a rename: the new path", occurrence: .optional),
        ArgumentSpec(name: "INFO", help: "With a rename: git's similarity information", occurrence: .optional),
    ]

    static let spec = CommandSpec(
        name: "git-diff-driver",
        abstract: "Show behaviour changes in git diff and git log -p (an external diff driver)",
        discussion: """
            Git calls it with these arguments once it is enabled (see docs/git-diff-driver.md):
              .gitattributes:   apple-app-site-association diff=linkwright
                                assetlinks.json diff=linkwright
                                domains/*.yaml diff=linkwright
                                environments/*.yaml diff=linkwright
              git config diff.linkwright.command "linkwright git-diff-driver"
            For an association file both versions are compared as files served on one host. For a
            configuration file, the configuration of the working tree is compiled twice, once with
            each version of that file, so the change is shown in the context of today's other
            files. It always exits 0, as git requires; what cannot be read is said so.
            """,
        options: [host], arguments: change + rename, groups: [.optional(.all(rename.map(Syntax.argument)))])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        guard [Self.change.count, Self.change.count + Self.rename.count].contains(arguments.positionals.count) else {
            throw UsageError(message: "git passes 7 or 9 arguments; got \(arguments.positionals.count)")
        }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let arguments = self.arguments.positionals
        let path = arguments.count == 9 ? arguments[7] : arguments[0]
        terminal.out("linkwright: \(PrintableText.escaped(path))")
        let configuration = path.hasSuffix(".yaml") || path.hasSuffix(".yml")
        let changes: [LinkChange]
        do {
            let kind: InputFileKind = configuration ? .configurationFile : .associationFile
            let old = try Self.side(arguments[1], kind, terminal)
            let new = try Self.side(arguments[4], kind, terminal)
            changes =
                try configuration
                ? configurationChanges(path: path, old: old, new: new, terminal: terminal)
                : artifactChanges(path: path, old: old, new: new)
        } catch let problem as DriverProblem {
            terminal.out("  \(PrintableText.escaped(problem.message))")
            return .success
        }
        if changes.isEmpty { terminal.out("  no change in which URLs open which app") }
        for change in changes {
            terminal.out("  " + PrintableText.escaped(change.summary))
            for witness in change.witnesses.prefix(3) { terminal.out("    e.g. \(PrintableText.escaped(witness))") }
        }
        return .success
    }

    struct DriverProblem: Error {
        var message: String
    }

    /// One version of the file: git names `/dev/null` for the side where it does not exist.
    private static func side(_ file: String, _ kind: InputFileKind, _ terminal: Terminal) throws -> [UInt8] {
        guard file != "/dev/null" else { return [] }
        do {
            return try terminal.readInput(file, kind)
        } catch let problem as UnusableInput {
            throw DriverProblem(message: problem.message + (problem.hint.map { " (\($0))" } ?? ""))
        }
    }

    private func artifactChanges(path: String, old: [UInt8], new: [UInt8]) throws -> [LinkChange] {
        let hostName = self.arguments[Self.host]
        guard case .success(let host) = LinkwrightCore.Host.parse(hostName) else {
            throw DriverProblem(message: "--host \(hostName) is not a host")
        }
        func snapshot(_ bytes: [UInt8], _ side: String) throws -> CachedRevision? {
            guard !bytes.isEmpty else { return nil }
            switch RevisionReader.artifactContent([(path, bytes)], host: host) {
            case .snapshot(let snapshot, _): return snapshot
            case .absent: return nil
            case .unusable(let why, _): throw DriverProblem(message: "the \(side) version cannot be compared: \(why)")
            }
        }
        let base = try snapshot(old, "old")
        guard let head = try snapshot(new, "new") else { throw DriverProblem(message: "the file was deleted") }
        return StructuralDiff.changes(base: base, head: head) + BehaviourDiff.changes(base: base, head: head)
    }

    /// The working tree's configuration compiled with each version of the one file.
    private func configurationChanges(path: String, old: [UInt8], new: [UInt8], terminal: Terminal) throws
        -> [LinkChange]
    {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2, ["environments", "domains", "policies"].contains(parts[parts.count - 2]) else {
            throw DriverProblem(message: "not a file of environments/, domains/ or policies/")
        }
        let root = parts.dropLast(2).joined(separator: "/")
        let relative = parts.suffix(2).joined(separator: "/")
        let files: [SourceFile]
        do {
            files = try DiskSourceTree(root: terminal.url(root.isEmpty ? "." : root)).configurationFiles()
        } catch {
            throw DriverProblem(message: "cannot read the configuration around it: \(error)")
        }
        // Each version in a cache of its own: the two differ in one file, which may respell a
        // rule in another Unicode normalization (see `RevisionReader.revisionCache`).
        func snapshot(_ bytes: [UInt8], _ side: String) throws -> CachedRevision? {
            var version = files.filter { $0.path != relative }
            if !bytes.isEmpty { version.append(SourceFile(path: relative, bytes: bytes)) }
            let (snapshot, diagnostics) = RevisionCache().make(version.sorted { $0.path < $1.path })
            guard let snapshot else {
                let first = diagnostics.first { $0.severity == .error }
                throw DriverProblem(
                    message: "the \(side) version does not compile with today's other files"
                        + (first.map { ": \($0.location.map { "\($0) " } ?? "")\($0.message) [\($0.id)]" } ?? ""))
            }
            return snapshot
        }
        let base = try snapshot(old, "old")
        let head = try snapshot(new, "new")
        guard let head else { return [] }
        return StructuralDiff.changes(base: base, head: head) + BehaviourDiff.changes(base: base, head: head)
    }
}
