/// How much a diagnostic matters. `error` makes the input unusable (exit 2 for configuration,
/// exit 1 for findings that block); `warning` is printed and does not change the exit code.
public enum Severity: String, Sendable, Comparable, CaseIterable, Codable {
    case note
    case warning
    case error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A problem found in the input, as a value: the core never prints. Printers in the CLI turn
/// these into text, JSON, GitHub annotations, SARIF or JUnit.
public struct Diagnostic: Hashable, Sendable, Comparable {
    public var id: DiagnosticID
    public var severity: Severity
    public var message: String
    /// Where the problem is. `nil` only for problems that concern no file (e.g. an empty folder).
    public var location: SourceLocation?
    /// One line telling the user how to fix it.
    public var hint: String?

    /// A diagnostic at the severity its ID declares.
    public init(_ id: DiagnosticID, _ message: String, at location: SourceLocation?, hint: String? = nil) {
        self.init(id, id.severity, message, at: location, hint: hint)
    }

    /// A diagnostic at another severity than its ID declares: the foreign-file readers are as
    /// lenient as the platforms, and some findings weigh more in one file than in another.
    public init(
        _ id: DiagnosticID,
        _ severity: Severity,
        _ message: String,
        at location: SourceLocation?,
        hint: String? = nil
    ) {
        self.id = id
        self.severity = severity
        self.message = message
        self.location = location
        self.hint = hint
    }

    /// Order for printing: by file, line, column, then ID and message, so output is stable.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        let l = lhs.location ?? SourceLocation(file: "", line: 0, column: 0)
        let r = rhs.location ?? SourceLocation(file: "", line: 0, column: 0)
        if l != r { return l < r }
        if lhs.id != rhs.id { return lhs.id < rhs.id }
        return lhs.message < rhs.message
    }
}

/// Collects diagnostics while a stage runs.
public struct DiagnosticBag: Sendable {
    public private(set) var items: [Diagnostic] = []

    public init() {}

    public mutating func add(_ diagnostic: Diagnostic) { items.append(diagnostic) }

    public mutating func add(contentsOf other: [Diagnostic]) { items.append(contentsOf: other) }

    /// Reports `id` at the severity it declares.
    public mutating func report(
        _ id: DiagnosticID, _ message: String, at location: SourceLocation?, hint: String? = nil
    ) {
        add(Diagnostic(id, message, at: location, hint: hint))
    }

    /// Reports `id` at another severity than it declares (see `Diagnostic.init(_:_:_:at:hint:)`).
    public mutating func report(
        _ id: DiagnosticID, as severity: Severity, _ message: String, at location: SourceLocation?,
        hint: String? = nil
    ) {
        add(Diagnostic(id, severity, message, at: location, hint: hint))
    }

    public var hasErrors: Bool { items.contains { $0.severity == .error } }

    /// Deduplicated and sorted, ready to print.
    public var sorted: [Diagnostic] { Array(Set(items)).sorted() }
}

/// A single diagnostic can be thrown or carried by `Result` where one problem ends the work.
extension Diagnostic: Error {}
