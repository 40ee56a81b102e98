import Foundation

/// A router destination with its arguments, as the generated router returns it and as
/// expectations write it: `exhibition(slug: monet)`, `ticket(id: nil, source: mail)`, `none`.
public struct RouteValue: Sendable, Equatable, CustomStringConvertible {
    /// `nil` for `route: none`.
    public var destination: String?
    /// Argument values by parameter name, in declaration order; `nil` for an absent optional one.
    public var arguments: [Argument]

    public struct Argument: Sendable, Equatable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    public init(destination: String?, arguments: [Argument]) {
        self.destination = destination
        self.arguments = arguments
    }

    public var description: String {
        guard let destination else { return "none" }
        guard !arguments.isEmpty else { return destination }
        return destination + "(" + arguments.map { "\($0.name): \($0.value ?? "nil")" }.joined(separator: ", ") + ")"
    }

    /// Whether `expected`, as an expectation writes it, describes this value: the same
    /// destination and the same arguments, where an argument the expectation leaves out must be
    /// absent.
    public func satisfies(_ expected: RouteValue) -> Bool {
        guard destination == expected.destination else { return false }
        let written = Dictionary(
            expected.arguments.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard Set(written.keys).isSubset(of: arguments.map(\.name)) else { return false }
        return arguments.allSatisfy { (written[$0.name] ?? nil) == $0.value }
    }

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

/// Reads a route's parameters from a URL the rule opened, as the generated routers do: path
/// segments are the non-empty pieces between slashes (Apple ignores leading, trailing and
/// doubled slashes, see `PatternOptions.appleSlashRules`), values are percent-decoded, and a
/// query parameter is the first item of its name.
public enum RouteResolver {
    /// The value, or why the router would return no destination for a URL the rule opens.
    public static func resolve(_ route: Route, url: LinkURL) -> Result<RouteValue, RouteProblem> {
        guard let destination = route.destination else { return .success(RouteValue(destination: nil, arguments: [])) }
        // Split on bytes, as the routers split the percent-encoded URL a device hands them: a
        // `/`, `&` or `=` followed by a combining mark is one Character, but still the separator.
        func pieces(_ text: String, at separator: UInt8, keepingEmpty: Bool = false, maxSplits: Int = .max) -> [String]
        {
            text.utf8.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: !keepingEmpty)
                .map { String(Substring($0)) }
        }
        let segments = pieces(url.path, at: UInt8(ascii: "/"))
        let items = pieces(url.query ?? "", at: UInt8(ascii: "&")).map { item in
            let pair = pieces(item, at: UInt8(ascii: "="), keepingEmpty: true, maxSplits: 1)
            return (name: decoded(pair[0]), value: pair.count > 1 ? decoded(pair[1]) : "")
        }
        var arguments: [RouteValue.Argument] = []
        for parameter in route.parameters {
            var value: String?
            switch parameter.source {
            case .pathSegment(let position):
                value = position <= segments.count ? decoded(segments[position - 1]) : nil
            case .queryItem(let name):
                value = items.first { ExactText.equal($0.name, name) }?.value
            }
            if value?.isEmpty == true { value = nil }
            if let text = value, parameter.type == .int, Int(text) == nil {
                return .failure(
                    RouteProblem(message: "\(parameter.name.value) reads \(PrintableText.quoted(text)), not an int"))
            }
            if value == nil && !parameter.isOptional {
                return .failure(
                    RouteProblem(message: "the required \(parameter.name.value) (\(parameter.source)) is absent"))
            }
            arguments.append(RouteValue.Argument(name: parameter.name.value, value: value))
        }
        return .success(RouteValue(destination: destination, arguments: arguments))
    }

    /// As matching decodes for `percentEncoded: false` (`PercentDecoding`): a malformed escape
    /// stays as written and bytes that are not UTF-8 read as U+FFFD, so one bad escape does not
    /// leave the rest of the value encoded. The generated routers decode the same way.
    private static func decoded(_ text: String) -> String { PercentDecoding.decode(text) }
}

/// Why a router has no destination for a URL.
public struct RouteProblem: Error, Sendable, Equatable {
    public var message: String

    public init(message: String) { self.message = message }
}

extension Configuration {
    /// Every rule's route, by the rule's location: what decisions name.
    public var routesByRule: [SourceLocation: Route] {
        domains.reduce(into: [:]) { routes, domain in routes.merge(domain.routesByRule) { first, _ in first } }
    }
}
