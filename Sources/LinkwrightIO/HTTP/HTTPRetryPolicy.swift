import Foundation

/// When a server that answers "too many requests" (429) or "unavailable" (503) is asked again.
///
/// Both statuses may carry `Retry-After` (RFC 9110 §10.2.3; RFC 6585 §4 for 429), as a number of
/// seconds or as an HTTP-date. The wait it asks for is honoured when it is at most
/// `longestWait`; a server asking for longer is not asked again and its answer is reported as it
/// is, so that one host cannot stall a whole round. Without the header the waits double from
/// `firstBackoff`. The retry count is bounded, so a host that keeps refusing ends with its last answer.
public struct HTTPRetryPolicy: Sendable, Equatable {
    /// How many times one URL is asked again at most; 0 turns retrying off.
    public var maximumRetries: Int
    /// The wait before the first retry when the server names none; each further retry doubles it.
    public var firstBackoff: Duration
    /// The longest wait honoured before one retry.
    public var longestWait: Duration

    /// The statuses that are asked again: the server says the request may succeed later.
    public static let retriedStatuses: Set<Int> = [429, 503]

    public init(maximumRetries: Int = 3, firstBackoff: Duration = .seconds(1), longestWait: Duration = .seconds(30)) {
        self.maximumRetries = maximumRetries
        self.firstBackoff = firstBackoff
        self.longestWait = longestWait
    }

    /// How long to wait before asking again after `response`, which answered try number
    /// `retriesSoFar + 1`; nil when the answer stands.
    public func wait(after response: HTTPResponse, retriesSoFar: Int, now: Date) -> Duration? {
        guard Self.retriedStatuses.contains(response.status), retriesSoFar < maximumRetries else { return nil }
        if let header = response.headers["Retry-After"], let asked = Self.retryAfter(header, now: now) {
            return asked <= longestWait ? asked : nil
        }
        return min(longestWait, firstBackoff * (1 << min(retriesSoFar, 20)))
    }

    /// A `Retry-After` value as a wait from `now`: delay-seconds, or an HTTP-date in any of the three
    /// forms RFC 9110 §5.6.7 has recipients accept (IMF-fixdate, RFC 850, asctime). A date in the
    /// past is no wait. Nil when the value is neither, so the caller falls back to its own backoff.
    public static func retryAfter(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingHTTPWhitespace()
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            // More digits than an Int holds is still "a very long time".
            return .seconds(Int(text) ?? Int.max)
        }
        // asctime pads one-digit days with a space ("Nov  6"): one space between fields is read.
        let fields = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            if let date = httpDateFormatter(format).date(from: fields) {
                let seconds = date.timeIntervalSince(now)
                return seconds > 0 ? .milliseconds(Int((seconds * 1000).rounded(.up))) : .zero
            }
        }
        return nil
    }

    /// HTTP dates are in English and in GMT whatever the machine's locale and zone.
    private static func httpDateFormatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
