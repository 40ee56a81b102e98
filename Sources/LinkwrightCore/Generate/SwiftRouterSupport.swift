/// The Swift every generated router carries beside its rules, kept apart from the writer that
/// arranges the rules so each reads on its own.
extension SwiftRouterWriter {
    /// What every router shares: the URL's parts and Apple's pattern language.
    static let support = """
        /// The parts of a URL that association files and scheme routes compare, as written (still
        /// percent-encoded), split from the URL's text as `linkwright match` splits it, scalar by
        /// scalar: Foundation's `URL` takes ports above 65535 and re-encodes malformed escapes on
        /// some platforms, which would route text no association file is matched against.
        private struct Link: Sendable {
            /// Lowercase: schemes are read without case (RFC 3986, section 3.1).
            let scheme: String
            /// `nil` for a custom scheme's URL, which has no authority.
            let host: String?
            let path: String
            let query: String?
            let fragment: String?

            /// Universal links are HTTPS links on a named host, without a user name, on a port up to
            /// 65535; a custom scheme's links are `scheme:/path?query`, since in `scheme://x/path` x
            /// is a host, not a path segment. Text holding spaces or control characters is no link:
            /// a browser would have encoded them.
            init?(_ text: String) {
                let scalars = Array(text.unicodeScalars)
                guard !scalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
                    let colon = scalars.firstIndex(of: ":")
                else { return nil }
                let hash = scalars.firstIndex(of: "#") ?? scalars.count
                let question = scalars[..<hash].firstIndex(of: "?")
                let end = question ?? hash
                guard colon < end else { return nil }
                query = question.map { string(scalars[($0 + 1)..<hash]) }
                fragment = hash < scalars.count ? string(scalars[(hash + 1)...]) : nil
                scheme = string(scalars[..<colon]).lowercased()
                let hasAuthority = colon + 2 < end && scalars[colon + 1] == "/" && scalars[colon + 2] == "/"
                if scheme == "https" {
                    guard hasAuthority else { return nil }
                    let start = colon + 3
                    let authorityEnd = scalars[start..<end].firstIndex(of: "/") ?? end
                    let authority = scalars[start..<authorityEnd]
                    guard !authority.isEmpty, !authority.contains("@") else { return nil }
                    var hostEnd = authorityEnd
                    if let portColon = authority.lastIndex(of: ":") {
                        guard let port = Int(string(scalars[(portColon + 1)..<authorityEnd])), (0...65535).contains(port)
                        else { return nil }
                        hostEnd = portColon
                    }
                    guard hostEnd > start else { return nil }
                    host = string(scalars[start..<hostEnd]).lowercased()
                    path = string(scalars[authorityEnd..<end])
                } else {
                    let letters = "abcdefghijklmnopqrstuvwxyz0123456789+-.".unicodeScalars
                    guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
                        scheme.unicodeScalars.allSatisfy(letters.contains), scheme != "http",
                        !scalars[(colon + 1)...].starts(with: ["/", "/"])
                    else { return nil }
                    host = nil
                    path = string(scalars[(colon + 1)..<end])
                }
            }

            /// The query's items as written, split at `&` (empty pieces skipped), each at its first
            /// `=`; a bare name has the value "".
            var items: [(name: String, value: String)] {
                Array((query ?? "").unicodeScalars).split(separator: "&").map { item in
                    guard let equals = item.firstIndex(of: "=") else { return (string(item), "") }
                    return (string(item[..<equals]), string(item[(equals + 1)...]))
                }
            }

            /// The path's `position`-th segment (from 1, empty segments skipped), percent-decoded;
            /// `nil` when absent or empty.
            func segment(_ position: Int) -> String? {
                let segments = Array(path.unicodeScalars).split(separator: "/")
                guard position <= segments.count else { return nil }
                return nonEmpty(percentDecoded(string(segments[position - 1])))
            }

            /// The value of the first query item named `name`, percent-decoded; `nil` when absent or empty.
            func queryItem(_ name: String) -> String? {
                guard let item = items.first(where: { same(percentDecoded($0.name), name) }) else { return nil }
                return nonEmpty(percentDecoded(item.value))
            }

            /// A whole-number parameter: `nil` when absent or not a number.
            static func number(_ text: String?) -> Int? { text.flatMap { Int($0) } }

            /// An optional whole-number parameter: `.some(nil)` when absent, `nil` when present but
            /// not a number.
            static func wholeNumber(_ text: String?) -> Int?? {
                guard let text else { return .some(nil) }
                return Int(text).map { .some($0) }
            }
        }

        /// Text from scalars, exactly.
        private func string<Scalars: Sequence<Unicode.Scalar>>(_ scalars: Scalars) -> String {
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            return String(text)
        }

        /// Whether two texts are the same scalar by scalar. Swift's `==` on strings also takes
        /// canonically equivalent ones (`café` written with and without a combining accent), which
        /// the association files tell apart.
        private func same(_ left: String, _ right: String) -> Bool {
            left.unicodeScalars.elementsEqual(right.unicodeScalars)
        }

        private func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

        /// Whether `host` is a subdomain of `root`, at any depth.
        private func isSubdomain(_ host: String, of root: String) -> Bool {
            let suffix = Array(("." + root).unicodeScalars)
            let scalars = Array(host.unicodeScalars)
            return scalars.count > suffix.count && scalars.suffix(suffix.count).elementsEqual(suffix)
        }

        /// `%XX` escapes decoded and the bytes read as UTF-8: a `%` without two hex digits stays as
        /// written, and bytes that are not UTF-8 read as U+FFFD.
        private func percentDecoded(_ text: String) -> String {
            guard text.contains("%") else { return text }
            let input = Array(text.utf8)
            var bytes: [UInt8] = []
            var index = 0
            while index < input.count {
                if input[index] == UInt8(ascii: "%"), index + 2 < input.count,
                    let high = hexDigit(input[index + 1]), let low = hexDigit(input[index + 2])
                {
                    bytes.append(high << 4 | low)
                    index += 3
                } else {
                    bytes.append(input[index])
                    index += 1
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        private func hexDigit(_ byte: UInt8) -> UInt8? {
            Character(Unicode.Scalar(byte)).hexDigitValue.map { UInt8($0) }
        }

        /// Lowercase, scalar by scalar, where the lowercase is one scalar: a case-insensitive rule
        /// compares both sides so.
        private func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            return lower.count == 1 ? lower.first ?? scalar : scalar
        }

        private func folded(_ text: String) -> String { string(text.unicodeScalars.map(folded)) }

        private func folded(_ token: GlobToken) -> GlobToken {
            switch token {
            case .literal(let scalar): .literal(folded(scalar))
            case .one, .any: token
            case .oneOf(let values): .oneOf(values.map { $0.map(folded) })
            }
        }

        /// A piece of Apple's component patterns: `*` any run of characters (`/` included), `?` one
        /// character, a literal character, or one of a substitution variable's values.
        private enum GlobToken {
            case literal(Unicode.Scalar)
            case one
            case any
            case oneOf([[GlobToken]])
        }

        /// `pattern` as tokens. `$(name)` is one value of the variable (values may hold `*` and `?`,
        /// never another variable); an unknown one matches nothing.
        private func globTokens(_ pattern: String, variables: [(name: String, values: [String])]?) -> [GlobToken] {
            let scalars = Array(pattern.unicodeScalars)
            var tokens: [GlobToken] = []
            var index = 0
            while index < scalars.count {
                let scalar = scalars[index]
                if let variables, scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
                    let close = scalars[(index + 2)...].firstIndex(of: ")")
                {
                    let name = string(scalars[(index + 2)..<close])
                    let values = variables.first(where: { same($0.name, name) })?.values ?? []
                    tokens.append(.oneOf(values.map { globTokens($0, variables: nil) }))
                    index = close + 1
                    continue
                }
                switch scalar {
                case "*": tokens.append(.any)
                case "?": tokens.append(.one)
                default: tokens.append(.literal(scalar))
                }
                index += 1
            }
            return tokens
        }

        /// Apple's reading of paths: leading and trailing slashes do not count on either side, and a
        /// pattern ending in `*` also matches its parent (`/tickets/*` matches `/tickets`).
        private func withAppleSlashes(_ tokens: [GlobToken]) -> [GlobToken] {
            func isSlash(_ token: GlobToken) -> Bool {
                if case .literal("/") = token { return true }
                return false
            }
            let core = Array(tokens.drop(while: isSlash).reversed().drop(while: isSlash).reversed())
            guard let last = core.last else { return [.literal("/")] }
            if case .any = last { return [.literal("/")] + core }
            return [.literal("/")] + core + [.literal("/")]
        }

        private func withAppleSlashes(_ path: [Unicode.Scalar]) -> [Unicode.Scalar] {
            let core = Array(path.drop { $0 == "/" }.reversed().drop { $0 == "/" }.reversed())
            return core.isEmpty ? ["/"] : ["/"] + core + ["/"]
        }

        /// Whether `tokens` match the whole of `text`.
        private func globMatches(_ tokens: [GlobToken], _ text: [Unicode.Scalar]) -> Bool {
            globEnds(tokens, text, from: [0]).contains(text.count)
        }

        /// Every position of `text` at which `tokens`, started at one of `starts`, can end. Keeping
        /// every position at once means `*` never backtracks.
        private func globEnds(_ tokens: [GlobToken], _ text: [Unicode.Scalar], from starts: Set<Int>) -> Set<Int> {
            var positions = starts
            for token in tokens {
                switch token {
                case .literal(let scalar):
                    positions = Set(positions.filter { $0 < text.count && text[$0] == scalar }.map { $0 + 1 })
                case .one:
                    positions = Set(positions.filter { $0 < text.count }.map { $0 + 1 })
                case .any:
                    if let first = positions.min() { positions = Set(first...text.count) }
                case .oneOf(let values):
                    positions = values.reduce(into: []) { $0.formUnion(globEnds($1, text, from: positions)) }
                }
                if positions.isEmpty { return [] }
            }
            return positions
        }

        """
}
