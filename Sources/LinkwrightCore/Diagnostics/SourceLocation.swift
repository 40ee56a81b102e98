/// A place in a configuration file: the path relative to the configuration root, and a
/// 1-based line and column (columns count Unicode scalars, as libyaml does).
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The start of a file, for problems that concern a file as a whole.
    public static func file(_ path: String) -> SourceLocation {
        SourceLocation(file: path, line: 1, column: 1)
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// A value read from a configuration file, with where it was written.
public struct Located<Value> {
    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    public func map<T>(_ transform: (Value) throws -> T) rethrows -> Located<T> {
        Located<T>(try transform(value), at: location)
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
extension Located: Sendable where Value: Sendable {}
