import Foundation

/// A tag and the commit it marks, for changelogs that order releases.
public struct GitTag: Sendable, Hashable {
    /// The name without `refs/tags/`.
    public let name: String
    /// The commit the tag points at, through any annotated tag objects.
    public let commit: GitCommit
    /// Whether this is an annotated tag (a tag object with a tagger and message) rather than a bare name.
    public let isAnnotated: Bool
    /// When the tag was made: the tagger's time for an annotated tag, otherwise the commit's
    /// committer time (the order `git tag --sort=creatordate` uses).
    public let time: Date
}
