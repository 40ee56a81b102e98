/// How a platform reads the wildcards of a pattern.
public enum PatternSemantics: String, Hashable, Sendable {
    /// Apple AASA components: `*` is greedy ("matches as many characters as possible"), `?` is one
    /// character, `$(name)` is one value of a substitution variable (Apple's
    /// applinks.Details.Components page, cited in `PatternSyntax`).
    case apple
    /// Android dynamic rules as devices read them: the newest AOSP `DalComponentParser` turns
    /// the pattern into an `android.os.PatternMatcher` type and pattern (`AndroidFilter`), and
    /// the tokens here say what that matches. `*` "matches zero or more characters up until the
    /// character after the wildcard in the pattern is found" (configure-assetlinks#configure-dynamic):
    /// followed by a literal `c` it is `[^c]*` and then `c`; at the end it takes the rest. A `*`
    /// followed by `?` stops at a literal `.` (the glob `.*.` reads its stop character as
    /// written; `DalComponentParserTest.parseExpressions`, "foo*?bar"), and `**` is `*`, a `.`,
    /// then a literal `*`. `?` is one character and nothing else is special.
    case androidDynamic
}

/// How a pattern compares, shared by every pattern of one component.
public struct PatternOptions: Hashable, Sendable {
    /// Whose wildcard reading applies.
    public var semantics: PatternSemantics
    /// `false` folds the pattern and the compared value to lowercase, scalar by scalar.
    public var caseSensitive: Bool
    /// Apple's reading of URL paths, from swcutil captures (blazingly-aasa
    /// conformance/oracle/swcutil-probes.tsv, groups trailing-star, leading-slash, lead, trail):
    /// leading and trailing slashes are insignificant on both sides (`abc` and `//abc` match
    /// `/abc`, `/buy` matches `/buy/`, `/buy/` matches `/buy//`), and a trailing `/*` also
    /// matches its parent (`/buy/*` matches `/buy`) but `/a/*/c` does not match `/a/c`.
    ///
    /// Modelled as: the compared path loses its leading and trailing slashes and is written
    /// `/core/` (`/` when empty); the pattern loses them too and becomes `/core/`, or `/core`
    /// when it ends with `*`. Every capture above holds under this model, and `{"/":"/"}` matches
    /// an empty path.
    public var appleSlashRules: Bool
    /// `true` percent-decodes the compared value first (Apple's `percentEncoded: false`; always
    /// on Android). Patterns are never decoded.
    public var decoded: Bool

    /// Options for one component; Apple's defaults are case-sensitive, as written, with no path
    /// rules.
    public init(
        semantics: PatternSemantics = .apple, caseSensitive: Bool = true, appleSlashRules: Bool = false,
        decoded: Bool = false
    ) {
        self.semantics = semantics
        self.caseSensitive = caseSensitive
        self.appleSlashRules = appleSlashRules
        self.decoded = decoded
    }

    /// Every setting that changes a prepared value, one bit each: equal bits prepare a text alike
    /// (`ComparedValues` keeps one prepared value per part and per these bits).
    var preparationBits: Int {
        (caseSensitive ? 1 : 0) | (appleSlashRules ? 2 : 0) | (decoded ? 4 : 0) | (semantics == .apple ? 8 : 0)
    }
    static let preparationBitCount = 4

    /// The settings `prepare` reads, as text: equal keys prepare a text alike. One character per
    /// setting, `0` or `1`, in a fixed order, so keys sort the same way whatever is added.
    var preparationKey: String {
        String(
            decoding: [decoded, !caseSensitive, appleSlashRules].map { $0 ? UInt8(ascii: "1") : UInt8(ascii: "0") },
            as: UTF8.self)
    }

    /// `text` as a pattern with these options compares it: decoded when asked, folded when
    /// case-insensitive, with Apple's path slashes normalised when `appleSlashRules` is set. A
    /// "character" is a Unicode scalar: `?` matches one scalar, so `é` written precomposed is one
    /// character and written as `e` plus a combining accent is two (Apple documents nothing finer).
    public func prepare(_ text: String) -> [Unicode.Scalar] {
        decoded ? prepareAsWritten(PercentDecoding.decode(text)) : prepareAsWritten(text)
    }

    private func prepareAsWritten(_ text: String) -> [Unicode.Scalar] {
        if let ascii = text.utf8.withContiguousStorageIfAvailable(prepareASCII), let ascii { return ascii }
        let scalars = caseSensitive ? Array(text.unicodeScalars) : text.unicodeScalars.map(CaseFolding.fold)
        guard appleSlashRules else { return scalars }
        var start = 0
        var end = scalars.count
        while start < end && scalars[start] == "/" { start += 1 }
        while end > start && scalars[end - 1] == "/" { end -= 1 }
        guard start < end else { return ["/"] }
        var prepared: [Unicode.Scalar] = ["/"]
        prepared.reserveCapacity(end - start + 2)
        prepared += scalars[start..<end]
        prepared.append("/")
        return prepared
    }

    /// `prepare` for ASCII text, in one array without decoding scalars: the common case,
    /// matched a million times a batch. `nil` when a byte is not ASCII.
    private func prepareASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [Unicode.Scalar]? {
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        var start = 0
        var end = bytes.count
        if appleSlashRules {
            while start < end && bytes[start] == UInt8(ascii: "/") { start += 1 }
            while end > start && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
            guard start < end else { return ["/"] }
        }
        var prepared: [Unicode.Scalar] = []
        prepared.reserveCapacity(end - start + 2)
        if appleSlashRules { prepared.append("/") }
        for byte in bytes[start..<end] {
            let folded = !caseSensitive && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            prepared.append(Unicode.Scalar(folded))
        }
        if appleSlashRules { prepared.append("/") }
        return prepared
    }
}
