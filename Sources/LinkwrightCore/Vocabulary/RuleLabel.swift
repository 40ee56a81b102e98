/// A rule as its parts are written: `/path ?query #fragment (exclude) (departure)`. Messages,
/// structural-diff signatures and findings' identities name rules with it, and approval
/// fingerprints hash those identities, so its text never changes for a rule that did not.
///
/// Callers differ in only what they hand it: the path of a rule without one (`*`, `/*`), whether
/// query items are written sorted by name (a rule's identity: Apple compares items by name, so
/// their order is no change) or as the file lists them (text shown to a person beside the file),
/// and what follows the parts in parentheses.
public struct RuleLabel: Sendable {
    public enum Query: Sendable {
        /// A pattern for the whole query.
        case whole(String)
        /// `name=pattern` items, joined with `&`.
        case items([AASAQueryItem])
    }

    public var path: String
    public var query: Query?
    public var fragment: String?
    /// Written after the parts, each in parentheses: `exclude`, then the flags that depart from
    /// the defaults.
    public var notes: [String]

    public init(path: String, query: Query? = nil, fragment: String? = nil, notes: [String] = []) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.notes = notes
    }

    /// Items sorted by name: how a rule's identity writes them.
    public static func sortedItems(_ items: [AASAQueryItem]) -> Query {
        .items(items.sorted { $0.name < $1.name })
    }

    /// The parts separated by a space, then the notes. `separator: ""` writes the parts as one
    /// URL-like text (`/users/*/callback?next=*#top`), for expectations.
    public func text(separator: String = " ") -> String {
        // Appended to one string: most rules have a path alone, which is then the text, and an
        // array of parts joined cost more than the rest of a structural diff's signature.
        var text = path
        switch query {
        case .whole(let pattern): text += separator + URLPart.query.description + pattern
        case .items(let items):
            text += separator + URLPart.query.description
            for (position, item) in items.enumerated() {
                if position > 0 { text += "&" }
                text += item.name + "=" + item.pattern
            }
        case nil: break
        }
        if let fragment { text += separator + URLPart.fragment.description + fragment }
        for note in notes { text += " (" + note + ")" }
        return text
    }
}

extension AASAQuery {
    /// The query as a rule's label writes it; nothing for a dictionary Apple ignores.
    public func label(sortingItems: Bool) -> RuleLabel.Query? {
        switch self {
        case .whole(let pattern): .whole(pattern)
        case .items(let items): sortingItems ? RuleLabel.sortedItems(items) : .items(items)
        case .ignoredDictionary: nil
        }
    }
}
