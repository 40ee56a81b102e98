import CYaml
import Foundation
import LinkwrightIO

/// The floors and the usual approach each measured figure is compared with.
public enum Baselines {
    /// Every event of every YAML file under `folder`, read with libyaml alone: the floor for
    /// reading a configuration. Returns the number of events.
    public static func parseYAML(in folder: URL) throws -> Int {
        var events = 0
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "yaml" else { continue }
            let bytes = Array(try Data(contentsOf: url))
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            defer { parser.deallocate() }
            yaml_parser_initialize(parser)
            defer { yaml_parser_delete(parser) }
            bytes.withUnsafeBufferPointer { buffer in
                yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
                var event = yaml_event_t()
                while yaml_parser_parse(parser, &event) == 1 {
                    events += 1
                    let done = event.type == YAML_STREAM_END_EVENT
                    yaml_event_delete(&event)
                    if done { break }
                }
            }
        }
        return events
    }

    /// What the regex baseline did: URLs decided (the one the deadline interrupted included, so
    /// the time per URL is a lower bound then), how many a non-exclude component matched first,
    /// and whether the deadline stopped it.
    public struct RegexOutcome: Equatable, Sendable {
        public var decided: Int
        public var matched: Int
        public var stopped: Bool

        /// `decided=N matched=N stopped=true|false`, as `baseline regex` prints it.
        public var line: String { "decided=\(decided) matched=\(matched) stopped=\(stopped)" }

        public init(decided: Int, matched: Int, stopped: Bool) {
            self.decided = decided
            self.matched = matched
            self.stopped = stopped
        }

        public init?(line: String) {
            var fields: [Substring: Substring] = [:]
            for field in line.split(whereSeparator: \.isWhitespace) {
                let parts = field.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            guard let decided = fields["decided"].flatMap({ Int($0) }),
                let matched = fields["matched"].flatMap({ Int($0) }), let stopped = fields["stopped"]
            else { return nil }
            self.init(decided: decided, matched: matched, stopped: stopped == "true")
        }
    }

    /// What most tools do: each component becomes one regular expression per part it names
    /// (`*` is `.*`, `?` is `.`), tried in order on each URL; the first component whose parts all
    /// match decides, and an `exclude` one keeps the URL out. It reads what the benchmark's files
    /// use: the path, the query as a string or item by item (an absent item reads as empty, and
    /// every occurrence must match), the fragment, `caseSensitive` and `percentEncoded`. It leaves
    /// out Apple's slash rules and `defaults`, and reads a substitution variable roughly: any of
    /// its values when the file defines it, else one path segment (`[^/]+`) for Apple's predefined
    /// lists. A backtracking regex can take hours on one long URL, so the run stops once
    /// `deadline` seconds have passed, in the middle of a match if need be.
    public static func regexMatch(aasa: URL, urls input: FileHandle, deadline: Double = .infinity) throws
        -> RegexOutcome
    {
        let start = DispatchTime.now().uptimeNanoseconds
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: aasa)) as? [String: Any]
        let applinks = object?["applinks"] as? [String: Any]
        let variables = applinks?["substitutionVariables"] as? [String: [String]] ?? [:]
        let details = (applinks?["details"] as? [[String: Any]])?.first
        let components = try (details?["components"] as? [[String: Any]] ?? []).map {
            try RegexComponent($0, variables: variables)
        }
        let readsDecoded = components.contains { $0.decoded }
        var outcome = RegexOutcome(decided: 0, matched: 0, stopped: false)
        let pastDeadline = { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 > deadline }
        let matches = { (regex: NSRegularExpression, text: String) -> Bool in
            var found = false
            regex.enumerateMatches(in: text, options: .reportProgress, range: NSRange(text.startIndex..., in: text)) {
                result, _, stop in
                if result != nil {
                    found = true
                    stop.pointee = true
                } else if pastDeadline() {
                    outcome.stopped = true
                    stop.pointee = true
                }
            }
            return found
        }
        try lines(input) { line in
            if !outcome.stopped && pastDeadline() { outcome.stopped = true }
            guard !outcome.stopped else { return }
            outcome.decided += 1
            guard let url = URLComponents(string: String(decoding: line, as: UTF8.self)) else { return }
            let encoded = RegexURLParts(url, decoded: false)
            let decoded = readsDecoded ? RegexURLParts(url, decoded: true) : encoded
            for component in components where !outcome.stopped {
                guard component.matches(component.decoded ? decoded : encoded, matches) else { continue }
                if !component.exclude { outcome.matched += 1 }
                break
            }
        }
        return outcome
    }

    /// Reads the input and counts its lines: the floor for anything that reads URLs one per line.
    public static func scan(_ input: FileHandle) throws -> Int {
        var count = 0
        try lines(input) { _ in count += 1 }
        return count
    }

    /// Calls `body` with each line of `input` as bytes, read in large blocks as `linkwright match`
    /// reads, and with its line limit.
    static func lines(_ input: FileHandle, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws {
        var longLine: Int?
        LineReader.forEach(in: input.fileDescriptor, body, tooLong: { longLine = longLine ?? $0 })
        if let longLine { throw BenchmarkError("input line \(longLine) is longer than any URL") }
    }
}

/// The parts of a URL the regex baseline compares, written as the URL has them or decoded.
private struct RegexURLParts {
    var path: String
    /// Empty when the URL has none, as Apple reads it.
    var query: String
    var items: [(name: String, value: String)]
    /// Empty when the URL has none, as Apple reads it.
    var fragment: String

    init(_ url: URLComponents, decoded: Bool) {
        path = decoded ? url.path : url.percentEncodedPath
        query = (decoded ? url.query : url.percentEncodedQuery) ?? ""
        items = ((decoded ? url.queryItems : url.percentEncodedQueryItems) ?? []).map { ($0.name, $0.value ?? "") }
        fragment = (decoded ? url.fragment : url.percentEncodedFragment) ?? ""
    }
}

/// One component as the regex baseline reads it.
private struct RegexComponent {
    enum Query {
        /// No `"?"`: every query matches.
        case any
        case whole(NSRegularExpression)
        case items([(name: String, pattern: NSRegularExpression)])
    }

    var path: NSRegularExpression?
    var query: Query
    var fragment: NSRegularExpression?
    var exclude: Bool
    /// `percentEncoded: false`: parts are compared decoded.
    var decoded: Bool

    init(_ component: [String: Any], variables: [String: [String]]) throws {
        let options: NSRegularExpression.Options =
            component["caseSensitive"] as? Bool == false ? [.caseInsensitive] : []
        func regex(_ key: String) throws -> NSRegularExpression? {
            guard let pattern = component[key] as? String else { return nil }
            return try NSRegularExpression(
                pattern: "^" + Self.translated(pattern, variables: variables) + "$", options: options)
        }
        path = try regex("/")
        fragment = try regex("#")
        if let items = component["?"] as? [String: String] {
            query = .items(
                try items.map { name, pattern in
                    (
                        name,
                        try NSRegularExpression(
                            pattern: "^" + Self.translated(pattern, variables: variables) + "$", options: options)
                    )
                })
        } else {
            query = try regex("?").map(Query.whole) ?? .any
        }
        exclude = component["exclude"] as? Bool ?? false
        decoded = component["percentEncoded"] as? Bool == false
    }

    func matches(_ url: RegexURLParts, _ matches: (NSRegularExpression, String) -> Bool) -> Bool {
        if let path, !matches(path, url.path) { return false }
        switch query {
        case .any: break
        case .whole(let pattern): if !matches(pattern, url.query) { return false }
        case .items(let items):
            for (name, pattern) in items {
                let values = url.items.filter { $0.name == name }.map(\.value)
                for value in values.isEmpty ? [""] : values where !matches(pattern, value) { return false }
            }
        }
        if let fragment, !matches(fragment, url.fragment) { return false }
        return true
    }

    /// `pattern` as a regular expression: `*` is `.*`, `?` is `.`, `$(name)` any of the values
    /// `variables` gives it or else `[^/]+` (variable values, where `variables` is nil, have no
    /// variables), the rest literal.
    static func translated(_ pattern: String, variables: [String: [String]]?) -> String {
        var regex = ""
        var rest = Substring(pattern)
        while let character = rest.first {
            if let variables, rest.hasPrefix("$("), let close = rest.firstIndex(of: ")") {
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                regex +=
                    variables[name].map {
                        "(?:" + $0.map { translated($0, variables: nil) }.joined(separator: "|") + ")"
                    }
                    ?? "[^/]+"
                rest = rest[rest.index(after: close)...]
                continue
            }
            switch character {
            case "*": regex += ".*"
            case "?": regex += "."
            default: regex += NSRegularExpression.escapedPattern(for: String(character))
            }
            rest = rest.dropFirst()
        }
        return regex
    }
}
