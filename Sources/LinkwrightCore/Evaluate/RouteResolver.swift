import Foundation

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
