/// Which side of a comparison a location points into: deletions point into the base. Findings,
/// link changes and behaviour changes all carry it.
public enum RevisionSide: String, Sendable {
    case head
    case base
}
