/// An Android `<data>` path attribute
/// (https://developer.android.com/guide/topics/manifest/data-element), matched the way AOSP's
/// `android.os.PatternMatcher` does (core/java/android/os/PatternMatcher.java): `path` exactly,
/// `pathPrefix` as a prefix, `pathSuffix` as a suffix, `pathPattern` as a SIMPLE_GLOB.
///
/// Values are written as in the manifest: the resource compiler reads `\` as an escape before
/// the pattern is parsed ("a literal '*' would be written as "\\*"", data-element page), so
/// `matches` undoes that level first.
public enum AndroidPathAttribute: Hashable, Sendable {
    case path(String)
    case prefix(String)
    case pattern(String)
    case suffix(String)

    /// The attribute a compiled `PathScope` stands for.
    public init(_ scope: PathScope) {
        switch scope {
        case .path(let path): self = .path(path)
        case .prefix(let prefix): self = .prefix(prefix)
        case .pattern(let pattern): self = .pattern(pattern)
        }
    }

    /// Whether the attribute accepts `path`, the decoded path (`Uri.getPath()`, which
    /// `IntentFilter.matchData` compares).
    public func matches(path: String) -> Bool {
        let literal: (value: String, isPrefix: Bool)? =
            switch self {
            case .path(let value): (value, false)
            case .prefix(let value): (value, true)
            case .suffix, .pattern: nil
            }
        guard let literal else { return matchesByScalars(path: path) }
        // Without `\`, a value is its own unescaping, and UTF-8 being prefix-free, its bytes
        // compare as its scalars do: no arrays made for every scope, app and witness.
        var (path, value) = (path, literal.value)
        let answer = value.withUTF8 { value in
            value.contains(UInt8(ascii: "\\"))
                ? nil : path.withUTF8 { literal.isPrefix ? $0.starts(with: value) : $0.elementsEqual(value) }
        }
        return answer ?? matchesByScalars(path: path)
    }

    /// `matches(path:)` on the path's and the unescaped value's scalars, for any value.
    func matchesByScalars(path: String) -> Bool {
        let scalars = Array(path.unicodeScalars)
        switch self {
        case .path(let literal): return scalars == Self.unescaped(literal)
        case .prefix(let prefix): return scalars.starts(with: Self.unescaped(prefix))
        case .suffix(let suffix):
            let suffix = Self.unescaped(suffix)
            return scalars.count >= suffix.count && scalars.suffix(suffix.count).elementsEqual(suffix)
        case .pattern(let pattern): return Self.matchesSimpleGlob(Self.unescaped(pattern), scalars)
        }
    }

    /// The attribute value after the resource compiler's escape handling: `\x` becomes `x`.
    static func unescaped(_ text: String) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        var escaping = false
        for scalar in text.unicodeScalars {
            if scalar == "\\" && !escaping {
                escaping = true
            } else {
                result.append(scalar)
                escaping = false
            }
        }
        return result
    }

    /// AOSP's SIMPLE_GLOB (see `SimpleGlob`) over the whole of `input`.
    static func matchesSimpleGlob(_ pattern: [Unicode.Scalar], _ input: [Unicode.Scalar]) -> Bool {
        let glob = SimpleGlob(pattern)
        return glob.accepts(input.reduce(glob.start) { glob.step($0, $1) })
    }
}

/// AOSP's SIMPLE_GLOB (`PatternMatcher.matchPattern`), read one input scalar at a time: the
/// same one left-to-right pass that never backtracks, so matching is linear and the behaviour
/// proof can run it as a machine.
/// - `.` matches any character; `x*` takes as many `x` as follow (greedy, no giving back);
/// - `.*` takes characters up to the first occurrence of the pattern character after it,
///   which is then consumed too (lazy): "abc.*xyz" rejects "abcpxqrxyz";
/// - `\` makes the next character literal before a `*` (`\.*` is "any number of dots"), but
///   AOSP still compares a lone escaped `.` as "any character";
/// - a pattern ending in `.*` accepts once the input runs out; a pattern ending in `x*` does
///   not accept an input that stops before it ("a*" rejects "", "ba*" rejects "b").
/// Characters are Unicode scalars here, UTF-16 units in Java; they differ only outside the BMP.
struct SimpleGlob: Sendable {
    let pattern: [Unicode.Scalar]

    init(_ pattern: [Unicode.Scalar]) { self.pattern = pattern }

    /// Where the pass stands between two input scalars.
    enum State: Hashable, Sendable {
        /// At pattern position `p`, about to read the next input scalar.
        case at(Int)
        /// Inside `.*`: skipping until `stop`, then at `next`.
        case skipping(stop: Unicode.Scalar, next: Int)
        /// Inside `x*`: taking `character` while it repeats, then at `next`.
        case repeating(character: Unicode.Scalar, next: Int)
        /// A trailing `.*` was reached: everything is accepted.
        case acceptingRest
        case failed
    }

    var start: State { .at(0) }

    private func at(_ index: Int) -> Unicode.Scalar { index < pattern.count ? pattern[index] : "\0" }

    func step(_ state: State, _ scalar: Unicode.Scalar) -> State {
        switch state {
        case .at(let position): return read(scalar, at: position)
        case .skipping(let stop, let next): return scalar == stop ? .at(next) : state
        case .repeating(let character, let next): return scalar == character ? state : read(scalar, at: next)
        case .acceptingRest, .failed: return state
        }
    }

    /// One turn of AOSP's loop, from pattern position `position`, for input scalar `scalar`.
    private func read(_ scalar: Unicode.Scalar, at position: Int) -> State {
        guard position < pattern.count else { return .failed }
        var next = position
        var character = pattern[next]
        next += 1
        let escaped = character == "\\"
        if escaped {
            character = at(next)
            next += 1
        }
        guard at(next) == "*" else {
            return character != "." && scalar != character ? .failed : .at(next)
        }
        if !escaped && character == "." {
            if next >= pattern.count - 1 { return .acceptingRest }
            next += 1
            var stop = pattern[next]
            if stop == "\\" {
                next += 1
                stop = at(next)
            }
            return scalar == stop ? .at(next + 1) : .skipping(stop: stop, next: next + 1)
        }
        next += 1
        return scalar == character ? .repeating(character: character, next: next) : read(scalar, at: next)
    }

    /// The verdict when the input ends in `state`.
    func accepts(_ state: State) -> Bool {
        switch state {
        case .at(let position), .repeating(_, let position):
            if pattern.isEmpty { return true }
            return position >= pattern.count
                || (position == pattern.count - 2 && pattern[position] == "." && pattern[position + 1] == "*")
        case .acceptingRest: return true
        case .skipping, .failed: return false
        }
    }
}

extension PathScope {
    /// Whether this scope accepts the URL's path, decoded as Android's `Uri.getPath()` gives it.
    public func matches(_ url: LinkURL) -> Bool {
        AndroidPathAttribute(self).matches(path: PercentDecoding.decode(url.path))
    }
}

/// Host wildcards of each platform. Neither lets `*.example.com` cover `example.com` itself.
public enum HostPattern {
    /// An associated-domains entry host (`example.com` or `*.example.com`) against a URL host.
    /// "An entry for *.mywebsite.com does not match mywebsite.com" (App Search Programming
    /// Guide); how deep the wildcard reaches is undocumented, so any number of labels is
    /// accepted, as "all of its subdomains" (Supporting associated domains) reads. Hosts
    /// compare without case (swcutil case host/comparison-is-case-insensitive).
    public static func appleEntitlement(_ entry: String, matches host: String) -> Bool {
        let entry = entry.lowercased()
        let host = host.lowercased()
        guard entry.hasPrefix("*.") else { return entry == host }
        return host.hasSuffix(entry.dropFirst()) && host.count > entry.count - 1
    }

    /// An intent-filter `android:host` against a URL host, as AOSP's
    /// `IntentFilter.AuthorityEntry.match` does it: a leading `*` is dropped and the rest is
    /// compared, without case, with the end of the host. So `*.example.com` matches
    /// `www.example.com` and even `.example.com`, as the data-element page says, but not
    /// `example.com`.
    public static func androidFilter(_ filterHost: String, matches host: String) -> Bool {
        var (pattern, bytes) = (filterHost, host)
        let answer = pattern.withUTF8 { pattern in bytes.withUTF8 { printableFilter(pattern, matches: $0) } }
        return answer ?? androidFilterByCharacters(filterHost, matches: host)
    }

    /// `androidFilter` on the bytes of printable ASCII hosts (the usual ones), nil for others:
    /// each byte is then one character, and lowering changes `A`-`Z` alone, so the bytes are
    /// compared in place, without the two lowered copies that cost most of a witness's claims.
    private static func printableFilter(_ pattern: UnsafeBufferPointer<UInt8>, matches host: UnsafeBufferPointer<UInt8>)
        -> Bool?
    {
        let printable = { (byte: UInt8) in (0x21..<0x7F).contains(byte) }
        guard pattern.allSatisfy(printable), host.allSatisfy(printable) else { return nil }
        func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        let isWildcard = pattern.first == UInt8(ascii: "*")
        let compared = isWildcard ? pattern.count - 1 : pattern.count
        guard isWildcard ? host.count >= compared : host.count == compared else { return false }
        return zip(pattern.suffix(compared), host.suffix(compared)).allSatisfy { lowered($0) == lowered($1) }
    }

    /// `androidFilter` on any hosts, character by character.
    static func androidFilterByCharacters(_ filterHost: String, matches host: String) -> Bool {
        let filterHost = filterHost.lowercased()
        let host = host.lowercased()
        guard filterHost.hasPrefix("*") else { return filterHost == host }
        return host.hasSuffix(filterHost.dropFirst())
    }
}
