/// Typed access to a `JSONNode` tree that reports every value of the wrong type and every key
/// nobody reads, located where it was written. Shared by the AASA and assetlinks readers.
struct JSONFieldReader {
    var diagnostics = DiagnosticBag()

    /// The members of `node` if it is an object; reports it otherwise.
    mutating func object(_ node: JSONNode, _ what: String) -> [JSONMember]? {
        if case .object(let members) = node.value { return members }
        wrongType(node, expected: "an object", what: what)
        return nil
    }

    mutating func array(_ node: JSONNode, _ what: String) -> [JSONNode]? {
        if case .array(let items) = node.value { return items }
        wrongType(node, expected: "an array", what: what)
        return nil
    }

    mutating func string(_ node: JSONNode, _ what: String, severity: Severity = .error) -> String? {
        if case .string(let text) = node.value { return text }
        wrongType(node, expected: "a string", what: what, severity: severity)
        return nil
    }

    mutating func bool(_ node: JSONNode, _ what: String) -> Bool? {
        if case .bool(let flag) = node.value { return flag }
        wrongType(node, expected: "true or false", what: what)
        return nil
    }

    /// An array of strings; elements of another type are reported and left out.
    mutating func strings(_ node: JSONNode, _ what: String) -> [String]? {
        array(node, what).map { items in items.compactMap { string($0, "an element of \(what)") } }
    }

    mutating func wrongType(_ node: JSONNode, expected: String, what: String, severity: Severity = .error) {
        diagnostics.add(
            Diagnostic(
                .wrongType, severity,
                "\(what) must be \(expected), found \(node.kindDescription)",
                at: node.location, hint: "write \(what) as \(expected)"))
    }

    /// Reports members whose key is not in `known` (the platform ignores them), suggesting the
    /// known key when only the letter case differs.
    mutating func unknownKeys<Key: RawRepresentable<String>>(
        _ members: [JSONMember], known: [Key], in what: String, note: String
    ) {
        let known = known.map(\.rawValue)
        for member in members where !known.contains(member.key) {
            let nearMiss = known.first { $0.lowercased() == member.key.lowercased() }
            diagnostics.report(
                .unknownKey, as: .warning,
                "unknown key \(PrintableText.quoted(member.key)) in \(what); \(note)",
                at: member.keyLocation,
                hint: nearMiss.map { "keys are case-sensitive: write \(PrintableText.quoted($0))" }
                    ?? "remove it, or fix its spelling")
        }
    }
}

extension Array where Element == JSONMember {
    /// The member named `key`, one of the keys declared for the file (`AASAKey`, `ComponentKey`,
    /// `AssetLinksKey`).
    subscript<Key: RawRepresentable<String>>(key: Key) -> JSONMember? { first { $0.key == key.rawValue } }
}
