import LinkwrightCore
import LinkwrightIO

/// Two sides to compare: a base revision read through libgit2 and a head that is the working
/// tree (uncommitted changes included), the index (what is staged) or another revision.
struct Comparison {
    /// Where the head is read from.
    enum Head {
        case workingTree
        case index
        case revision(String)
    }

    /// Revisions of the reader's cache.
    var base: CachedRevision?
    var head: CachedRevision
    var baseRevision: CheckReport.Revision?
    var headRevision: CheckReport.Revision
    var notes: [String] = []

    /// Loads both sides. `base == nil` compares with nothing (rules about the head alone).
    /// With `mergeBase` the base is where the head (HEAD for the working tree and the index)
    /// forked from `base`, as a pull request's diff shows it. A base that is a branch without
    /// commits (HEAD before the first commit) is an adoption: everything is new.
    static func load(
        reader: RevisionReader, base: String?, head: Head, mergeBase: Bool, printer: DiagnosticPrinter,
        format: OutputFormat, title: String
    ) throws -> Comparison {
        var headCommit: GitCommit?
        let headContent: RevisionContent
        let headRevision: CheckReport.Revision
        switch head {
        case .revision(let head):
            let commit = try reader.resolve(head)
            headCommit = commit
            headContent = try reader.content(at: commit)
            headRevision = CheckReport.Revision(name: head, commit: commit.id)
        case .index:
            headContent = try reader.index()
            headRevision = CheckReport.Revision(name: "the index", commit: nil)
        case .workingTree:
            headContent = try reader.workingTree()
            headRevision = CheckReport.Revision(name: "working tree", commit: nil)
        }
        let headSnapshot: CachedRevision
        var notes: [String] = []
        switch headContent {
        case .snapshot(let snapshot, let headNotes):
            headSnapshot = snapshot
            notes += headNotes
        case .absent(let what):
            throw UnusableInput(
                message: "\(what) in \(headRevision.name)", hint: "check --config or --artifact, and the revision")
        case .unusable(let why, let diagnostics):
            try printer.printUnusable(diagnostics, as: format, title: title, subject: headRevision.name)
            throw UnusableInput(message: "\(why) in \(headRevision.name)", hint: nil)
        }
        var comparison = Comparison(
            base: nil, head: headSnapshot, baseRevision: nil, headRevision: headRevision, notes: notes)
        guard let base else { return comparison }
        guard var commit = try reader.resolveUnlessUnborn(base) else {
            comparison.baseRevision = CheckReport.Revision(name: base, commit: nil)
            comparison.notes.append("\(base) has no commit yet: everything is new")
            return comparison
        }
        var mergeBaseWith: String?
        if mergeBase {
            if let current = try headCommit ?? reader.resolveUnlessUnborn("HEAD") {
                commit = try reader.mergeBase(current, commit)
                mergeBaseWith = headRevision.commit == nil ? "HEAD" : headRevision.name
            } else {
                comparison.notes.append("HEAD has no commit yet: compared with \(base) itself, not a merge-base")
            }
        }
        let revision = CheckReport.Revision(name: base, commit: commit.id, mergeBaseWith: mergeBaseWith)
        comparison.baseRevision = revision
        switch try reader.content(at: commit) {
        case .snapshot(let snapshot, let baseNotes):
            comparison.base = snapshot
            comparison.notes += baseNotes
        case .absent(let what):
            comparison.notes.append("\(what) at \(revision.label): everything is new")
        case .unusable(let why, _):
            comparison.notes.append(
                "\(why) at \(revision.label): the head is checked on its own, with nothing to compare against")
        }
        return comparison
    }
}
