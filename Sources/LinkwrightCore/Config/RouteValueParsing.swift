import Foundation

/// How configuration writes a route value (expectations' `route:`): destination and parameter
/// names are identifiers as the configuration spells them.
extension RouteValue {
    /// Parses `name`, `name(a: x, b: nil)` or `none`. Values cannot hold `,` or `)`.
    public static func parse(_ text: String) -> RouteValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "none" { return RouteValue(destination: nil, arguments: []) }
        guard let open = trimmed.firstIndex(of: "(") else {
            return ConfigDecoder.isIdentifier(trimmed) ? RouteValue(destination: trimmed, arguments: []) : nil
        }
        let name = String(trimmed[..<open])
        guard trimmed.hasSuffix(")"), ConfigDecoder.isIdentifier(name) else { return nil }
        let inside = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        var arguments: [Argument] = []
        for part in inside.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, ConfigDecoder.isIdentifier(pair[0]), !pair[1].isEmpty,
                !arguments.contains(where: { $0.name == pair[0] })
            else { return nil }
            arguments.append(Argument(name: pair[0], value: pair[1] == "nil" ? nil : pair[1]))
        }
        return RouteValue(destination: name, arguments: arguments)
    }
}
