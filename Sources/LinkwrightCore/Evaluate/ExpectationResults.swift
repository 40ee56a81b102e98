/// What `ExpectationRunner` reports: each check and its outcome, and where it was made.
extension ExpectationRunner {
    /// One check on one host, as `check` reports a failed one and `import` rejects one.
    public struct Result: Sendable {
        public var environment: String
        /// The host checked; `*.x` for a wildcard binding.
        public var host: String
        public var platform: Platform
        public var url: String
        public var expected: String
        public var actual: String
        public var passed: Bool
        /// Where the expectation is written.
        public var location: SourceLocation
        /// The rule that decided for the app the expectation is about, when one did.
        public var decidingRule: SourceLocation?
        public var comment: String?

        /// "expected shop, got web": what every report of a failed check says it found.
        public var mismatch: String {
            var text = ""
            Self.appendMismatch(expected: expected, actual: actual, to: &text)
            return text
        }

        /// `mismatch` of a check expecting `expected` that got `actual`, appended to `text`.
        static func appendMismatch(expected: String, actual: String, to text: inout String) {
            text += "expected "
            text += expected
            text += ", got "
            text += actual
        }

        /// The one-line message of a failed check, the same in `check` and `test`.
        /// `namingEnvironment`: for reports that do not show the environment apart;
        /// `decidingRule`: where the deciding rule is, written as the caller prints paths.
        public func failureMessage(namingEnvironment: Bool, decidingRule: String?) -> String {
            let place = namingEnvironment ? " in \(environment)" : ""
            let decided = decidingRule.map { " (decided by \($0))" } ?? ""
            return "\(url) on \(platform.rawValue)\(place): \(mismatch)\(decided)"
        }
    }

    /// One expectation on one platform, and what it did on every host it was checked on, hosts
    /// with the same outcome together: a path expectation on a fleet of 30 hosts is usually one
    /// outcome listing 30 places, so reports can say it once.
    public struct Check: Sendable {
        /// Where the expectation is written.
        public var location: SourceLocation
        /// The URL as written: a path, or an absolute URL checked on its own host.
        public var url: LinkURL
        public var platform: Platform
        public var expected: String
        public var comment: String?
        /// In the order first found; never empty.
        public var outcomes: [Outcome]

        /// The URL checked at `place`.
        public func url(at place: Place) -> String { url.on(host: place.urlHost).description }

        /// The check at one place, as a `Result`.
        public func result(_ outcome: Outcome, at place: Place) -> Result {
            Result(
                environment: place.environment, host: place.host, platform: platform, url: url(at: place),
                expected: expected, actual: outcome.actual, passed: outcome.passed, location: location,
                decidingRule: outcome.decidingRule, comment: comment)
        }
    }

    /// What an expectation did, and where.
    public struct Outcome: Sendable {
        /// "web", or the apps that open, comma-separated (with the route reached, for `route:`).
        public var actual: String
        public var passed: Bool
        /// The rule that decided for the app the expectation is about, when one did.
        public var decidingRule: SourceLocation?
        /// Every host with this outcome, in environment and host order. Left empty for passing
        /// outcomes unless the caller asked for `.everyPlace`: those are counted, not listed.
        public var places: PlaceList
        /// How many checks had this outcome (`places.count` unless they were not kept).
        public var count: Int

    }

    /// The places of an outcome: the host groups' own arrays, joined without copying their
    /// elements. A failing path expectation on a fleet lists every host of its groups, and copying
    /// them into one array per outcome was most of what `test` kept in memory.
    public struct PlaceList: RandomAccessCollection, Sendable, ExpressibleByArrayLiteral {
        /// Each of one environment: reports say where an outcome happened per environment, and
        /// read it per segment rather than per place.
        private var segments: [[Place]] = []
        /// Per segment, the index just past its last place.
        private var ends: [Int] = []

        public init(arrayLiteral places: Place...) { append(contentsOf: places) }

        init(_ places: [Place]) { append(contentsOf: places) }

        public var startIndex: Int { 0 }
        public var endIndex: Int { ends.last ?? 0 }

        public subscript(position: Int) -> Place {
            precondition(position >= 0 && position < endIndex, "place out of range")
            // The first segment ending past the position holds it.
            var (low, high) = (0, ends.count - 1)
            while low < high {
                let middle = (low + high) / 2
                if ends[middle] > position { high = middle } else { low = middle + 1 }
            }
            return segments[low][position - (low == 0 ? 0 : ends[low - 1])]
        }

        /// Walks the segments in order, without a search per place.
        public func makeIterator() -> FlattenSequence<[[Place]]>.Iterator { segments.joined().makeIterator() }

        /// Adds `places` as one segment per run of one environment (a host group's places are
        /// one run).
        mutating func append(contentsOf places: [Place]) {
            var start = places.startIndex
            while start < places.endIndex {
                let environment = places[start].environment
                let end = places[start...].firstIndex { $0.environment != environment } ?? places.endIndex
                segments.append(
                    start == places.startIndex && end == places.endIndex ? places : Array(places[start..<end]))
                ends.append(endIndex + end - start)
                start = end
            }
        }

        /// Names the list by the arrays holding its places: lists with equal identities hold
        /// the same places in the same order (the same host groups' arrays, joined), so a report
        /// makes what it writes of them once. Compares alike only while both lists are alive.
        var identity: [Segment] {
            segments.map { segment in
                Segment(
                    storage: segment.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }, count: segment.count)
            }
        }

        /// One segment of `identity`: where its array keeps its places, and how many.
        struct Segment: Hashable, Sendable {
            /// The address of the array's first place.
            var storage: Int
            var count: Int
        }

        /// The environment of each segment, in order: an environment whose places came in
        /// several runs appears once per run. Enough to ask which environments an outcome
        /// touched without building `environmentRuns`.
        public var segmentEnvironments: LazyMapSequence<[[Place]], String> {
            segments.lazy.map { $0[0].environment }
        }

        /// The environments of the places, in order, each with how many places in a row are in
        /// it and the hosts of the first `limit` of them.
        public func environmentRuns(naming limit: Int) -> [(environment: String, hosts: [String], count: Int)] {
            var runs: [(environment: String, hosts: [String], count: Int)] = []
            for segment in segments {
                let environment = segment[0].environment
                if runs.last?.environment != environment { runs.append((environment, [], 0)) }
                let named = runs[runs.count - 1].hosts.count
                if named < limit { runs[runs.count - 1].hosts += segment.prefix(limit - named).map(\.host) }
                runs[runs.count - 1].count += segment.count
            }
            return runs
        }
    }

    /// A host an expectation was checked on.
    public struct Place: Sendable, Equatable {
        public var environment: String
        /// The host as bound; `*.x` for a wildcard binding.
        public var host: String
        /// The host the URL was checked on: the bound host, a subdomain standing for a wildcard,
        /// or an absolute URL's own host.
        public var urlHost: String
    }
}
