import Foundation
import LinkwrightCore
import LinkwrightIO

/// Two compiled configurations to compare: a base revision read through libgit2 and a head that
/// is either the working tree (uncommitted changes included) or another revision.
struct Comparison {
    var base: PolicySnapshot?
    var head: PolicySnapshot
    var baseRevision: CheckReport.Revision?
    var headRevision: CheckReport.Revision
    var notes: [String] = []

    /// Loads both sides. `base == nil` compares with nothing (rules about the head alone).
    /// With `mergeBase` the base is where the head (HEAD for the working tree) forked from
    /// `base`, as a pull request's diff shows it.
    static func load(
        workspace: Workspace, base: String?, head: String?, mergeBase: Bool, terminal: Terminal
    ) throws -> Comparison {
        var openedRepository: GitRepository?
        func openRepository() throws -> GitRepository {
            if let openedRepository { return openedRepository }
            let opened = try gitAction { try GitRepository(configurationFolder: workspace.root.path) }
            openedRepository = opened
            return opened
        }
        let headSide: (files: [SourceFile], revision: CheckReport.Revision)
        var headCommit: GitCommit?
        if let head {
            let repository = try openRepository()
            let commit = try gitAction { try repository.resolve(head) }
            headCommit = commit
            let tree = try gitAction { try GitTreeSource(repository: repository, commit: commit) }
            guard tree.exists else {
                throw UnusableInput(
                    message: "there is no configuration folder \(workspace.configPath) at \(head)",
                    hint: "check --config, or compare revisions that have the configuration")
            }
            headSide = (try read(tree, at: head), CheckReport.Revision(name: head, commit: commit.id))
        } else {
            headSide = (
                try read(DiskSourceTree(root: workspace.root), at: "the working tree"),
                .init(name: "working tree", commit: nil)
            )
        }
        let (headSnapshot, headDiagnostics) = PolicySnapshot.make(headSide.files)
        guard let headSnapshot else {
            workspace.printer.printText(headDiagnostics)
            throw Halt(status: .unusable)
        }
        var comparison = Comparison(base: nil, head: headSnapshot, baseRevision: nil, headRevision: headSide.revision)
        guard let base else { return comparison }
        let repository = try openRepository()
        var commit = try gitAction { try repository.resolve(base) }
        var mergeBaseWith: String?
        if mergeBase {
            let current = try headCommit ?? gitAction { try repository.resolve("HEAD") }
            commit = try gitAction { try repository.mergeBase(current, commit) }
            mergeBaseWith = head ?? "HEAD"
        }
        comparison.baseRevision = CheckReport.Revision(name: base, commit: commit.id, mergeBaseWith: mergeBaseWith)
        let tree = try gitAction { try GitTreeSource(repository: repository, commit: commit) }
        let baseFiles = tree.exists ? try read(tree, at: base) : []
        guard !baseFiles.isEmpty else {
            comparison.notes.append(
                "the configuration does not exist at \(comparison.baseRevision!.label): everything is new")
            return comparison
        }
        let (baseSnapshot, baseDiagnostics) = PolicySnapshot.make(baseFiles)
        if let baseSnapshot {
            comparison.base = baseSnapshot
        } else {
            let errors = baseDiagnostics.filter { $0.severity == .error }.count
            comparison.notes.append(
                "the configuration at \(comparison.baseRevision!.label) does not compile (\(errors) error\(errors == 1 ? "" : "s")): "
                    + "the head is checked on its own, with nothing to compare against")
        }
        return comparison
    }

    private static func read(_ tree: some SourceTree, at place: String) throws -> [SourceFile] {
        do {
            return try tree.configurationFiles()
        } catch {
            throw UnusableInput(message: "cannot read the configuration at \(place): \(error)", hint: nil)
        }
    }

    /// Runs a git operation, turning its errors into the message, hint and command to run.
    static func gitAction<T>(_ action: () throws -> T) throws -> T {
        do {
            return try action()
        } catch let error as GitError {
            let hint = [error.hint, error.command.map { "run: \($0)" }].compactMap { $0 }.joined(separator: "; ")
            throw UnusableInput(message: error.message, hint: hint.isEmpty ? nil : hint)
        }
    }
}
