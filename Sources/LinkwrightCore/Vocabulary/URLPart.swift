/// A part of a URL that a rule's pattern applies to, declared once: the engine's traces, the
/// analyses, a rule's label (`RuleLabel`) and the keys of a component (`ComponentKey`) name parts
/// through it.
public enum URLPart: Hashable, Sendable, CustomStringConvertible {
    case path
    /// The whole query, without `?`.
    case query
    /// The value of the named query item.
    case queryItem(String)
    case fragment

    /// The parts without an item's name, for iterating over every kind of part.
    public enum Key: CaseIterable, Sendable {
        case path, query, queryItem, fragment
    }

    public var key: Key {
        switch self {
        case .path: .path
        case .query: .query
        case .queryItem: .queryItem
        case .fragment: .fragment
        }
    }

    /// The key the part has in a component and writes in front of its pattern in a rule's label:
    /// `/`, `?`, `?name` or `#`.
    public var description: String {
        switch self {
        case .path: "/"
        case .query: "?"
        case .queryItem(let name): "?\(name)"
        case .fragment: "#"
        }
    }
}

extension URLPart.Key {
    /// What messages call the part: `path`, `query`, `query item`, `fragment`.
    public var name: String {
        switch self {
        case .path: "path"
        case .query: "query"
        case .queryItem: "query item"
        case .fragment: "fragment"
        }
    }
}
