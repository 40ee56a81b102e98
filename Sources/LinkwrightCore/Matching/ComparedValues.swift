/// Percent-decoding, as Apple's `percentEncoded: false` and Android's decoded `Uri` accessors
/// apply it before comparing.
enum PercentDecoding {
    /// Decodes `%XX` escapes and reads the bytes as UTF-8. A `%` not followed by two hex digits
    /// stays as written. Bytes that are not UTF-8 read as U+FFFD, one for each maximal ill-formed
    /// part (Unicode's recommended practice, `String(decoding:as:)`): Android's `Uri.decode` does
    /// so (AOSP `UriCodec`, a decoder replacing malformed input with U+FFFD); Apple documents
    /// nothing, and the same reading is used for `percentEncoded: false`.
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.count, let high = hexValue(input[index + 1]),
                let low = hexValue(input[index + 2])
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

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// One `name=value` item of a query, as written.
struct QueryItem: Hashable, Sendable {
    var name: String
    /// Empty for an item without `=`: Apple reads "query items with no value" as the empty
    /// string (WWDC19 session 717; swcutil case query/item-without-equals-is-empty).
    var value: String
}

extension LinkURL {
    /// The query's items as written: split on `&`, each at its first `=`. Empty pieces (`a=1&&b=2`)
    /// are skipped. Split on bytes, as `NSURLComponents` splits UTF-16 units: a `&` or `=`
    /// followed by a combining mark is one Character, but still the separator.
    var queryItems: [QueryItem] {
        guard let query else { return [] }
        return query.utf8.split(separator: UInt8(ascii: "&")).map { piece in
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else {
                return QueryItem(name: String(Substring(piece)), value: "")
            }
            return QueryItem(
                name: String(Substring(piece[..<equals])),
                value: String(Substring(piece[piece.index(after: equals)...])))
        }
    }
}

/// The parts of one URL prepared for comparison, each preparation made once however many rules
/// ask for it: a batch of rules costs one decoding and one folding per distinct option set.
struct ComparedValues {
    let url: LinkURL
    /// The query's items, split on first use: most URLs meet no query dictionary.
    private var splitItems: [QueryItem]?
    /// Android's query items (`androidQueryItems`), split on first use.
    private var androidItems: [[Unicode.Scalar]]?
    /// Prepared values by part and option set (see `slot`), filled on first use. A URL meets few
    /// option sets, so a short list searched in order beats a table allocated per URL; the first
    /// value, often the only one (the path), is kept apart so most URLs allocate no list.
    private var first: (slot: Int, value: [Unicode.Scalar])?
    private var others: [(slot: Int, value: [Unicode.Scalar])] = []

    init(_ url: LinkURL) { self.url = url }

    var items: [QueryItem] {
        mutating get {
            if let splitItems { return splitItems }
            splitItems = url.queryItems
            return splitItems!
        }
    }

    /// One slot per part and per way of preparing a value (`PatternOptions.preparationBits`).
    private static func slot(_ part: Int, _ options: PatternOptions) -> Int {
        part << PatternOptions.preparationBitCount | options.preparationBits
    }

    /// `text` prepared with `options`.
    private mutating func prepared(_ part: Int, _ text: String, options: PatternOptions) -> [Unicode.Scalar] {
        let slot = Self.slot(part, options)
        if let first, first.slot == slot { return first.value }
        if let cached = others.first(where: { $0.slot == slot }) { return cached.value }
        let value = options.prepare(text)
        if first == nil { first = (slot, value) } else { others.append((slot, value)) }
        return value
    }

    /// The path (empty when absent).
    mutating func path(options: PatternOptions) -> [Unicode.Scalar] {
        prepared(0, url.path, options: options)
    }

    /// The whole query; an absent query reads as empty (swcutil, query-whole/whole-star-on-empty).
    mutating func query(options: PatternOptions) -> [Unicode.Scalar] {
        prepared(1, url.query ?? "", options: options)
    }

    /// The fragment; `nil` when the URL has none.
    mutating func fragment(options: PatternOptions) -> [Unicode.Scalar]? {
        url.fragment.map { prepared(2, $0, options: options) }
    }

    /// The query's items as Android's `UriRelativeFilter.matchQuery` compares them: the query
    /// decoded first (`Uri.getQuery()`), then split at `&`, or at `;` when that leaves one piece,
    /// each piece whole (`name=value`, or a bare name). Split as Java's `String.split` does: a
    /// text without the separator is one piece, and trailing empty pieces are dropped. No query:
    /// no items (`matchQuery` of `null` is false).
    mutating func androidQueryItems() -> [[Unicode.Scalar]] {
        if let androidItems { return androidItems }
        guard let query = url.query else {
            androidItems = []
            return []
        }
        let decoded = Array(PercentDecoding.decode(query).unicodeScalars)
        func javaSplit(_ separator: Unicode.Scalar) -> [ArraySlice<Unicode.Scalar>] {
            guard decoded.contains(separator) else { return [decoded[...]] }
            var pieces = decoded.split(separator: separator, omittingEmptySubsequences: false)
            while pieces.last?.isEmpty == true { pieces.removeLast() }
            return pieces
        }
        var pieces = javaSplit("&")
        if pieces.count == 1 { pieces = javaSplit(";") }
        androidItems = pieces.map(Array.init)
        return androidItems!
    }

    /// The values of every item named `name`, in URL order. Names compare exactly, after
    /// decoding when values are decoded: Apple documents dictionary keys as NSURLQueryItem names
    /// and says nothing about folding them, so they are not folded.
    mutating func itemValues(named name: String, options: PatternOptions) -> [[Unicode.Scalar]] {
        items.compactMap { item in
            let itemName = options.decoded ? PercentDecoding.decode(item.name) : item.name
            guard ExactText.equal(itemName, name) else { return nil }
            return options.prepare(item.value)
        }
    }
}
