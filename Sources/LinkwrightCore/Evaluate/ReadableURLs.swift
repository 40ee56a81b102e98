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

    /// The alternative `index` of a pattern, or `nil` when it does not parse.
    static func instance(of pattern: String, variables: [AASAVariable], alternative index: Int) -> String? {
        guard case .success(let tokens) = PatternSyntax.tokens(pattern) else { return nil }
        var text = ""
        var any = false
        var ones = 0
        func flush() {
            if any || ones > 0 {
                let afterDigit = text.unicodeScalars.last.map { ("0"..."9").contains($0) } ?? false
                text += fill(any: any, ones: ones, afterDigit: afterDigit, alternative: index)
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
                text.unicodeScalars.append(scalar)
            case .variable(let name):
                flush()
                if let values = variables.first(where: { $0.name == name })?.values, !values.isEmpty {
                    // A value is a pattern too, without variables of its own.
                    text += instance(of: values[min(index, values.count - 1)], variables: [], alternative: index) ?? ""
                } else {
                    text += PredefinedSamples.value(for: name)
                }
            }
        }
        flush()
        return text
    }

    /// URLs (a path with its query and fragment) that a rule with these parts matches when read
    /// as written, most readable first and without repeats. A rule with no path pattern matches
    /// every path: it is shown on `/`.
    public static func candidates(
        path: String?, query: QueryPattern?, fragment: String?, variables: [AASAVariable]
    ) -> [String] {
        var seen: Set<String> = []
        return (0..<alternatives).compactMap { index -> String? in
            guard var url = path.map({ instance(of: $0, variables: variables, alternative: index) }) ?? "/" else {
                return nil
            }
            if url.unicodeScalars.first != "/" { url = "/" + url }
            url = encoded(url, keeping: [])
            switch query {
            case .whole(let pattern):
                guard let text = instance(of: pattern, variables: variables, alternative: index) else { return nil }
                url += "?" + encoded(text, keeping: ["?"])
            case .items(let items):
                var pairs: [String] = []
                for item in items {
                    guard let value = instance(of: item.pattern, variables: variables, alternative: index) else {
                        return nil
                    }
                    pairs.append(encoded(item.name, keeping: ["?"]) + "=" + encoded(value, keeping: ["?"]))
                }
                if !pairs.isEmpty { url += "?" + pairs.joined(separator: "&") }
            case nil: break
            }
            if let fragment {
                guard let text = instance(of: fragment, variables: variables, alternative: index) else { return nil }
                url += "#" + encoded(text, keeping: ["?", "#"])
            }
            return seen.insert(url).inserted ? url : nil
        }
    }

    /// `text` with what a browser would escape in a URL part escaped: spaces, controls, non-ASCII,
    /// and the delimiters that would end the part (`?` and `#` in a path, `#` in a query).
    static func encoded(_ text: String, keeping kept: Set<Unicode.Scalar>) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let delimiter = (scalar == "?" || scalar == "#") && !kept.contains(scalar)
            if scalar.value > 0x20 && scalar.value < 0x7F && !delimiter {
                out.unicodeScalars.append(scalar)
                continue
            }
            for byte in String(scalar).utf8 {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
