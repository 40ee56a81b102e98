import CGit2
import Foundation

/// A commit as the tool shows it: enough to name it in output and to ask the repository about it.
public struct GitCommit: Sendable, Hashable {
    /// The full 40-character hexadecimal object ID.
    public let id: String
    /// The shortest unambiguous abbreviation of `id` (at least `core.abbrev`, 7 by default).
    public let shortID: String
    /// The first line of the message.
    public let summary: String
    public let authorTime: Date

    /// Reads a `git_commit*`.
    init(_ commit: OpaquePointer) throws {
        id = git_commit_id(commit).pointee.hex
        var abbreviation = git_buf()
        defer { git_buf_dispose(&abbreviation) }
        try LibGit2.check(git_object_short_id(&abbreviation, commit), "abbreviating \(id)")
        shortID = abbreviation.ptr.map { String(cString: $0) } ?? id
        // NULL only when libgit2 cannot allocate the summary.
        summary = git_commit_summary(commit).map { String(cString: $0) } ?? ""
        authorTime = Date(timeIntervalSince1970: TimeInterval(git_commit_author(commit).pointee.when.time))
    }
}
