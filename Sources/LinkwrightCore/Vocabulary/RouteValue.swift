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
}
