/// A `<data>` path attribute (https://developer.android.com/guide/topics/manifest/data-element).
public enum PathScope: Hashable, Sendable {
    case path(String)
    case prefix(String)
    /// An Android `pathPattern` (`.` any character, `\\` escapes).
    case pattern(String)
}
