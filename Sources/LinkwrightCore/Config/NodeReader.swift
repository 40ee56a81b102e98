/// Typed reading of YAML nodes against the schema, collecting diagnostics instead of stopping at
/// the first problem. Every accessor returns `nil` after reporting why the value is unusable.
struct NodeReader {
    var diagnostics = DiagnosticBag()

    /// The known keys of a mapping, after reporting unknown keys (with a suggestion) and
    /// missing required keys.
    mutating func mapping(_ node: YAMLNode, _ object: SchemaObject) -> Mapping? {
        guard case .mapping(let pairs) = node.content else {
            wrongType(node, expected: "a mapping (\(object.noun))")
            return nil
        }
        // A list, not a dictionary: a mapping holds a few keys, and a configuration of 100,000
        // expectations reads 100,000 mappings.
        var known: [YAMLPair] = []
        known.reserveCapacity(pairs.count)
        var unknown: [YAMLPair] = []
        for pair in pairs {
            if object.field(pair.key.value) != nil { known.append(pair) } else { unknown.append(pair) }
        }
        func isKnown(_ name: String) -> Bool { known.contains { $0.key.value == name } }
        for pair in unknown {
            let names = object.fields.map(\.name)
            let suggestion = Spelling.closest(to: pair.key.value, among: names)
            let hint =
                suggestion.map { "did you mean \"\($0)\"?" }
                ?? "known keys of \(object.noun): \(names.joined(separator: ", "))"
            diagnostics.report(
                .unknownKey, "unknown key \(PrintableText.quoted(pair.key.value)) in \(object.noun)",
                at: pair.key.location, hint: hint)
            // A misspelt key that is otherwise absent is read as the key meant: the typo is the one
            // error, not a missing key and every reference that then fails.
            if let suggestion, !isKnown(suggestion) {
                known.append(YAMLPair(key: Located(suggestion, at: pair.key.location), value: pair.value))
            }
        }
        for field in object.fields where field.required && !isKnown(field.name) {
            diagnostics.report(
                .missingKey, "\(object.noun) needs the key \"\(field.name)\"", at: node.location,
                hint: "add \"\(field.name)\": \(field.description)")
        }
        return Mapping(node: node, pairs: known)
    }

    /// The mapping at the top of a file. A file that is anything else is no configuration file
    /// at all, perhaps a stray copy of something private, so the message does not quote it.
    mutating func document(_ root: YAMLNode, _ object: SchemaObject) -> Mapping? {
        guard case .mapping = root.content else {
            wrongType(root, expected: "a mapping (\(object.noun))", found: root.kindDescription(showingValue: false))
            return nil
        }
        return mapping(root, object)
    }

    /// A mapping with user-chosen keys, in file order.
    mutating func entries(_ node: YAMLNode, of noun: String) -> YAMLMapping? {
        guard case .mapping(let pairs) = node.content else {
            wrongType(node, expected: "a mapping of \(noun)")
            return nil
        }
        return pairs
    }

    mutating func list(_ node: YAMLNode, of noun: String) -> YAMLSequence? {
        guard case .sequence(let items) = node.content else {
            wrongType(node, expected: "a list of \(noun)")
            return nil
        }
        return items
    }

    /// A string. Plain scalars that YAML 1.2 reads as numbers, booleans or null are refused, as
    /// yaml-language-server does with our schema: quoting them says what is meant.
    mutating func string(_ node: YAMLNode, _ what: String) -> Located<String>? {
        guard case .scalar(let scalar) = node.content else {
            wrongType(node, expected: "a string (\(what))")
            return nil
        }
        switch scalar.resolved {
        case .string:
            return Located(scalar.text, at: node.location)
        case .null:
            diagnostics.report(
                .missingValue, "\(what) is empty", at: node.location, hint: "write a value, or remove the key")
        case .bool, .integer, .float:
            diagnostics.report(
                .wrongType, "expected a string (\(what)), found \(node.kindDescription)", at: node.location,
                hint: "quote it: \(PrintableText.quoted(scalar.text))")
        }
        return nil
    }

    mutating func strings(_ node: YAMLNode, _ what: String) -> [Located<String>]? {
        guard let items = list(node, of: what) else { return nil }
        return items.compactMap { string($0, what) }
    }

    /// A boolean, `true` or `false`. YAML 1.1 spellings (`yes`, `no`, `on`, `off`, `y`, `n`)
    /// get their own message: other tools read them as booleans, YAML 1.2 and we do not.
    mutating func bool(_ node: YAMLNode, _ what: String) -> Located<Bool>? {
        if case .scalar(let scalar) = node.content {
            if case .bool(let value) = scalar.resolved { return Located(value, at: node.location) }
            let yaml11 = ["yes", "no", "on", "off", "y", "n"]
            if scalar.style == .plain, yaml11.contains(scalar.text.lowercased()) {
                let meaning = ["yes", "on", "y"].contains(scalar.text.lowercased())
                diagnostics.report(
                    .yaml11Boolean,
                    "\"\(scalar.text)\" is not a boolean in YAML 1.2 (\(what) needs true or false)",
                    at: node.location, hint: "write \(meaning) (YAML 1.1 tools read \"\(scalar.text)\" as \(meaning))")
                return nil
            }
        }
        wrongType(node, expected: "true or false (\(what))")
        return nil
    }

    mutating func integer(_ node: YAMLNode, _ what: String, minimum: Int) -> Located<Int>? {
        guard case .scalar(let scalar) = node.content, case .integer(let value) = scalar.resolved else {
            wrongType(node, expected: "a whole number (\(what))")
            return nil
        }
        guard value >= minimum else {
            diagnostics.report(
                .valueOutOfRange, "\(what) must be at least \(minimum), found \(value)", at: node.location,
                hint: "use a number of \(minimum) or more")
            return nil
        }
        return Located(value, at: node.location)
    }

    /// One of a fixed set of words.
    mutating func choice<T: RawRepresentable>(_ node: YAMLNode, _ what: String, _: T.Type) -> Located<T>?
    where T.RawValue == String, T: CaseIterable {
        guard let text = string(node, what) else { return nil }
        if let value = T(rawValue: text.value) { return Located(value, at: text.location) }
        let choices = T.allCases.map(\.rawValue)
        let hint =
            Spelling.closest(to: text.value, among: choices).map { "did you mean \"\($0)\"?" }
            ?? "use one of: \(choices.joined(separator: ", "))"
        diagnostics.report(
            .invalidValue, "\(PrintableText.quoted(text.value)) is not a valid \(what)", at: text.location, hint: hint
        )
        return nil
    }

    mutating func wrongType(_ node: YAMLNode, expected: String, found: String? = nil) {
        diagnostics.report(
            .wrongType, "expected \(expected), found \(found ?? node.kindDescription)", at: node.location,
            hint: "see `linkwright schema` for the expected shape")
    }

    /// The known keys of one mapping.
    struct Mapping {
        let node: YAMLNode
        /// In file order, each under the name it is read as (a misspelt key under the key meant).
        let pairs: [YAMLPair]

        /// The last pair of `key`, as YAML's last duplicate wins.
        private func pair(_ key: String) -> YAMLPair? { pairs.last { $0.key.value == key } }

        subscript(key: String) -> YAMLNode? { pair(key)?.value }

        func keyLocation(_ key: String) -> SourceLocation { pair(key)?.key.location ?? node.location }
    }
}
