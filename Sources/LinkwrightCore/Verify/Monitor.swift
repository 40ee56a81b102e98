import Foundation

/// What `monitor` remembers between rounds: since when each host's CDN copy has differed from
/// the build. Apple's CDN refreshes within about a day and cannot be invalidated (TN3155), so a
/// difference blocks only once it has lasted longer than a grace period.
public struct MonitorState: Sendable, Equatable {
    /// By `environment/host`.
    public var cdnDiffersSince: [String: Date]
    public var lastRound: Date?

    public init(cdnDiffersSince: [String: Date] = [:], lastRound: Date? = nil) {
        self.cdnDiffersSince = cdnDiffersSince
        self.lastRound = lastRound
    }

    public var json: JSON {
        .object([
            ("version", .int(1)),
            ("last_round", lastRound.map { .string(Timestamp.format($0)) } ?? .null),
            (
                "cdn_differs_since",
                .object(
                    cdnDiffersSince.sorted { $0.key < $1.key }.map { ($0.key, .string(Timestamp.format($0.value))) })
            ),
        ])
    }

    /// Reads a state file; a located diagnostic when it is not one.
    public static func read(_ bytes: [UInt8], file: String) -> Result<MonitorState, Diagnostic> {
        let (root, diagnostics) = JSONParser().parse(bytes, file: file)
        guard let root else {
            return .failure(
                diagnostics.first { $0.severity == .error }
                    ?? Diagnostic(.invalidState, "not JSON", at: .file(file)))
        }
        func invalid(_ node: JSONNode, _ what: String) -> Result<MonitorState, Diagnostic> {
            .failure(
                Diagnostic(
                    .invalidState, "\(what) in the monitor state file", at: node.location,
                    hint: "delete the file to start over; monitor writes it"))
        }
        guard case .object(let members) = root.value else { return invalid(root, "expected an object") }
        var state = MonitorState()
        for member in members {
            switch (member.key, member.value.value) {
            case ("version", _): continue
            case ("last_round", .null): continue
            case ("last_round", .string(let text)):
                guard let date = Timestamp.parse(text) else { return invalid(member.value, "a bad timestamp") }
                state.lastRound = date
            case ("cdn_differs_since", .object(let hosts)):
                for host in hosts {
                    guard case .string(let text) = host.value.value, let date = Timestamp.parse(text) else {
                        return invalid(host.value, "a bad timestamp")
                    }
                    state.cdnDiffersSince[host.key] = date
                }
            default: return invalid(member.value, "unexpected \(PrintableText.quoted(member.key))")
            }
        }
        return .success(state)
    }
}

/// Applies the grace period to a round's findings and remembers what it saw.
public enum Monitor {
    /// A CDN copy that differs from the build for less than `grace` is a note ("still serving the
    /// previous version for 3h12m"); past it, an error. Origin findings keep their severity.
    public static func apply(_ findings: [Finding], state: MonitorState, now: Date, grace: TimeInterval)
        -> (findings: [Finding], state: MonitorState)
    {
        var next = MonitorState(lastRound: now)
        let adjusted = findings.map { finding -> Finding in
            guard finding.rule == DiagnosticID.cdnDiffers.rawValue, let environment = finding.environment,
                let host = finding.host
            else {
                return finding
            }
            let key = "\(environment)/\(host)"
            let since = state.cdnDiffersSince[key] ?? now
            next.cdnDiffersSince[key] = since
            let lasted = now.timeIntervalSince(since)
            var copy = finding
            if lasted < grace {
                copy.severity = .note
                copy.message +=
                    " — CDN still serving the previous version for \(describe(lasted)) (blocks after \(describe(grace)))"
            } else {
                copy.message += " — for \(describe(lasted)), longer than the grace period of \(describe(grace))"
            }
            return copy
        }
        return (adjusted, next)
    }

    /// `24h`, `15m`, `90s`, `2d`, `1h30m` in seconds; `nil` for anything else.
    public static func duration(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var total: TimeInterval = 0
        var digits = ""
        for character in text {
            if character.isNumber {
                digits.append(character)
            } else if let unit = units[character], let value = Double(digits) {
                total += value * unit
                digits = ""
            } else {
                return nil
            }
        }
        return digits.isEmpty && total > 0 ? total : nil
    }

    /// `3h12m`, `45s`, `2d3h`.
    public static func describe(_ interval: TimeInterval) -> String {
        var seconds = Int(max(0, interval))
        let days = seconds / 86400
        seconds %= 86400
        let hours = seconds / 3600
        seconds %= 3600
        let minutes = seconds / 60
        seconds %= 60
        let parts = [(days, "d"), (hours, "h"), (minutes, "m")].filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }
        return parts.isEmpty ? "\(seconds)s" : parts.joined()
    }
}

/// RFC 3339 timestamps in UTC, second precision.
public enum Timestamp {
    public static func format(_ date: Date) -> String {
        var seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let time = seconds % 86400
        seconds /= 86400
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
        let z = seconds + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time % 3600 / 60)):\(two(time % 60))Z"
    }

    public static func parse(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).map { Int($0) }
        guard text.hasSuffix("Z"), parts.count == 6, parts.allSatisfy({ $0 != nil }) else { return nil }
        let (year, month, day) = (parts[0]!, parts[1]!, parts[2]!)
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        // Days from a civil date (inverse of the above).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86400 + parts[3]! * 3600 + parts[4]! * 60 + parts[5]!
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
