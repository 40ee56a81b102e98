/// URLs a person would write for a rule, read off the rule's own text: its literal segments kept,
/// a `*` filled with a word, a `?` with a letter, a variable with one of its values
/// (`/users/*/callback` → `/users/example/callback`). Shown where a URL stands for a rule: the
/// expectations `import` seeds and the examples of `changelog`. Callers decide each candidate
/// again (devices' semantics, the rule's flags, earlier rules) and keep the first that shows
/// what they mean, so a candidate here is a guess in reading order, never an answer.
public enum ReadableURLs {
    /// How many alternatives `candidates` offers at most: a fill that an earlier rule takes is
    /// usually avoided by the next one.
    static let alternatives = 4

    /// What fills a run of `*` and `?` in alternative `index`: a word first, then shorter and
    /// plainer fills, then one that crosses a `/` (a `*` matches it). `?`s after a digit are
    /// digits, so `/video/20??` reads as a year.
    static func fill(any: Bool, ones: Int, afterDigit: Bool, alternative index: Int) -> String {
        let letters = "abcdefghijklmnopqrstuvwxyz"
        let digits = "1234567890"
        let words =
            any ? ["example", "1", "", "example/more"] : afterDigit ? [digits, letters, "x"] : [letters, digits, "x"]
        var word = words[min(index, words.count - 1)]
        guard any else {
            // Each `?` takes exactly one character; the letters repeat past the alphabet.
            while word.count < ones { word += word }
            return String(word.prefix(ones))
        }
        // `?*` needs at least one character, `??*` two: the word is long enough for the `?`s.
        while word.count < ones { word += "x" }
        return word
    }

    /// Appends alternative `index` of a pattern read into `tokens` to `text`. Written as UTF-8
    /// bytes: a release's notes write the URLs of thousands of rules, and a string grown a
    /// scalar at a time cost most of that.
    static func write(
        _ tokens: [PatternToken], variables: [AASAVariable], alternative index: Int, into text: inout [UInt8]
    ) {
        var any = false
        var ones = 0
        func flush() {
            if any || ones > 0 {
                // A digit is one byte, and no byte of a longer character is one.
                let afterDigit = text.last.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
                text.append(contentsOf: fill(any: any, ones: ones, afterDigit: afterDigit, alternative: index).utf8)
            }
            any = false
            ones = 0
        }
        for token in tokens {
            switch token {
            case .any: any = true
            case .one: ones += 1
            case .literal(let scalar):
                flush()
                text.append(contentsOf: scalar.utf8)
            case .variable(let name):
                flush()
                if let values = variables.first(where: { $0.name == name })?.values, !values.isEmpty {
                    // A value is a pattern too, without variables of its own; one that does not
                    // parse adds nothing. Written apart: its fills follow its own digits.
                    if case .success(let tokens) = PatternSyntax.tokens(values[min(index, values.count - 1)]) {
                        var value: [UInt8] = []
                        write(tokens, variables: [], alternative: index, into: &value)
                        text.append(contentsOf: value)
                    }
                } else {
                    text.append(contentsOf: PredefinedSamples.value(for: name).utf8)
                }
            }
        }
        flush()
    }

    /// URLs (a path with its query and fragment) that a rule with these parts matches when read
    /// as written, most readable first and without repeats. A rule with no path pattern matches
    /// every path: it is shown on `/`. None when a pattern does not parse.
    public static func candidates(
        path: String?, query: QueryPattern?, fragment: String?, variables: [AASAVariable]
    ) -> [String] {
        // Each pattern is read once for every alternative.
        func read(_ pattern: String) -> [PatternToken]? { try? PatternSyntax.tokens(pattern).get() }
        var pathTokens: [PatternToken]?
        var fragmentTokens: [PatternToken]?
        if let path {
            guard let tokens = read(path) else { return [] }
            pathTokens = tokens
        }
        if let fragment {
            guard let tokens = read(fragment) else { return [] }
            fragmentTokens = tokens
        }
        enum QueryTokens {
            case whole([PatternToken])
            case items([(name: String, value: [PatternToken])])
        }
        let queryTokens: QueryTokens?
        switch query {
        case .whole(let pattern):
            guard let tokens = read(pattern) else { return [] }
            queryTokens = .whole(tokens)
        case .items(let items):
            var itemTokens: [(name: String, value: [PatternToken])] = []
            for item in items {
                guard let tokens = read(item.pattern) else { return [] }
                itemTokens.append((item.name, tokens))
            }
            queryTokens = .items(itemTokens)
        case nil: queryTokens = nil
        }
        var seen: Set<String> = []
        var urls: [String] = []
        var url: [UInt8] = []
        var part: [UInt8] = []
        for index in 0..<alternatives {
            url.removeAll(keepingCapacity: true)
            part.removeAll(keepingCapacity: true)
            if let pathTokens {
                write(pathTokens, variables: variables, alternative: index, into: &part)
            } else {
                part.append(UInt8(ascii: "/"))
            }
            if part.first != UInt8(ascii: "/") { url.append(UInt8(ascii: "/")) }
            encode(part, in: .path, into: &url)
            switch queryTokens {
            case .whole(let tokens):
                part.removeAll(keepingCapacity: true)
                write(tokens, variables: variables, alternative: index, into: &part)
                url.append(UInt8(ascii: "?"))
                encode(part, in: .query, into: &url)
            case .items(let items):
                for (position, item) in items.enumerated() {
                    url.append(position == 0 ? UInt8(ascii: "?") : UInt8(ascii: "&"))
                    encode(Array(item.name.utf8), in: .queryItem, into: &url)
                    url.append(UInt8(ascii: "="))
                    part.removeAll(keepingCapacity: true)
                    write(item.value, variables: variables, alternative: index, into: &part)
                    encode(part, in: .queryItem, into: &url)
                }
            case nil: break
            }
            if let fragmentTokens {
                part.removeAll(keepingCapacity: true)
                write(fragmentTokens, variables: variables, alternative: index, into: &part)
                url.append(UInt8(ascii: "#"))
                encode(part, in: .fragment, into: &url)
            }
            let text = String(decoding: url, as: UTF8.self)
            if seen.insert(text).inserted { urls.append(text) }
        }
        return urls
    }

    /// Appends `text` to `out` with what a browser would escape in a URL's `part` escaped:
    /// spaces, controls, non-ASCII, and the delimiters that would end the part (`?` and `#` in
    /// a path, `#` in a query). Byte by byte: every byte of a non-ASCII character is escaped.
    static func encode(_ text: [UInt8], in part: URLPart.Key, into out: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text {
            let delimiter =
                switch byte {
                case UInt8(ascii: "?"): part == .path
                case UInt8(ascii: "#"): part != .fragment
                default: false
                }
            if byte > 0x20 && byte < 0x7F && !delimiter {
                out.append(byte)
            } else {
                out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
    }
}
