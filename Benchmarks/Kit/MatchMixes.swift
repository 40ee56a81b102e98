import Foundation
import LinkwrightCore

extension ScaleGenerator {
    /// The rule shapes the matching benchmark measures (issue 13): each loads a matcher
    /// differently, from literal prefixes to stars between short literals, where a backtracking
    /// matcher blows up.
    public enum MatchMix: String, CaseIterable, Sendable {
        /// Literals, `/wordN/*`, `/wordN/?*/detail` and `/wordN/private/*` exclusions: the shapes
        /// and draws of the earlier benchmark, so its association files are the same.
        case prefix
        /// Mostly leading stars (`*/wordN`, `*/wordN/*`, `*/wordN.pdf`), some prefixes.
        case suffix
        /// Stars between literals: `/*/wordN/*`, `/wordN/*/detail/????`, `/*/wordN/*/reviews`.
        case middle
        /// What real files hold: literals and prefixes mostly, a few leading stars and `?`-runs,
        /// query items, a whole-query pattern, fragments, `caseSensitive`, `percentEncoded`,
        /// exclusions, and `$(lang)` and a custom substitution variable.
        case mixed
        /// Stars between short literals (`*ab*cd*ef*`) and `*?*?*?*x`, against URLs that include
        /// paths of 10–100 KB made of the literals' letters.
        case adversarial

        /// The name the performance table gives it.
        public var title: String {
            switch self {
            case .prefix: "prefix-heavy"
            case .suffix: "suffix-heavy"
            case .middle: "middle-wildcard-heavy"
            case .mixed: "mixed real-world"
            case .adversarial: "adversarial"
            }
        }
    }

    /// The values of `$(section)`, the custom substitution variable of the mixed real-world files.
    static let sections = ["shop", "news", "blog", "help"]
    /// Values written for `$(lang)`, Apple's predefined list of language codes.
    static let languages = ["en", "fr", "de", "es", "it", "ja"]
    /// What a `?` stands for in realistic URLs.
    static let oneCharacter = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    /// The letters of adversarial literals. Long adversarial paths use the first half only, so
    /// every rule holding a letter of the second half fails on them, but only at the path's end.
    static let adversarialLetters = Array("abcdefghijklmnop".utf8)

    /// An AASA for one app with `rules` components of `mix`. The rules depend on the seed alone,
    /// not on what this generator drew before, so `urls` aims at the same rules.
    public func aasa(rules: Int, mix: MatchMix = .prefix) -> String {
        let variables =
            mix == .mixed
            ? "\"substitutionVariables\": {\"section\": [\(Self.sections.map(quoted).joined(separator: ", "))]}, "
            : ""
        return "{\"applinks\": {\(variables)\"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], "
            + "\"components\": [\n" + components(rules: rules, mix: mix).map(\.json).joined(separator: ",\n")
            + "\n]}]}}\n"
    }

    /// `count` URLs, one per line, for the AASA of the same seed, `rules` and `mix`: four in five
    /// are made from one of its components (some of them exclusions), the others from none, most
    /// 25 to 80 characters long. One adversarial URL in a hundred, from the 51st on, has a
    /// path of `longPaths` bytes instead, spread evenly so the first lines of the file are a fair
    /// sample of it.
    public mutating func urls(
        count: Int, rules: Int, mix: MatchMix = .prefix, longPaths: ClosedRange<Int> = 10_000...100_000
    ) -> String {
        let components = components(rules: rules, mix: mix)
        var text = ""
        text.reserveCapacity(count * 50)
        for index in 0..<count {
            if mix == .adversarial && index % 100 == 50 {
                text += "https://example.com" + longAdversarialPath(bytes: longPaths.lowerBound + next(longPaths.count))
            } else if components.isEmpty || next(5) == 0 {
                text += unclaimedURL(rules: rules, mix: mix)
            } else {
                text += url(hitting: components[next(components.count)], mix: mix)
            }
            text += "\n"
        }
        return text
    }

    private func components(rules: Int, mix: MatchMix) -> [GeneratedComponent] {
        var drawing = ScaleGenerator(seed: seed)
        return (0..<rules).map { drawing.component($0, mix: mix) }
    }

    /// Component `index` of a file of `mix`. Components but adversarial ones start with a word
    /// and the index, which keeps them apart.
    private mutating func component(_ index: Int, mix: MatchMix) -> GeneratedComponent {
        switch mix {
        case .prefix: prefixComponent(base: nextBase(index))
        case .suffix: suffixComponent(base: nextBase(index))
        case .middle: middleComponent(base: nextBase(index))
        case .mixed: mixedComponent(base: nextBase(index), index: index)
        case .adversarial: adversarialComponent()
        }
    }

    private mutating func nextBase(_ index: Int) -> String { "/\(Self.words[next(Self.words.count)])\(index)" }

    private mutating func prefixComponent(base: String) -> GeneratedComponent {
        switch next(10) {
        case 0..<5: GeneratedComponent(path: base)
        case 5..<8: GeneratedComponent(path: base + "/*")
        case 8: GeneratedComponent(path: base + "/?*/detail")
        default: GeneratedComponent(path: base + "/private/*", exclude: true)
        }
    }

    private mutating func suffixComponent(base: String) -> GeneratedComponent {
        switch next(10) {
        case 0..<4: GeneratedComponent(path: "*" + base)
        case 4, 5: GeneratedComponent(path: "*" + base + "/*")
        case 6: GeneratedComponent(path: "*" + base + ".pdf")
        default: GeneratedComponent(path: base + "/*")
        }
    }

    private mutating func middleComponent(base: String) -> GeneratedComponent {
        switch next(10) {
        case 0..<3: GeneratedComponent(path: "/*" + base + "/*")
        case 3, 4: GeneratedComponent(path: base + "/*/detail/????")
        case 5, 6: GeneratedComponent(path: "/*" + base + "/*/reviews")
        case 7, 8: GeneratedComponent(path: base + "/*/x/*")
        default: GeneratedComponent(path: base + "/*")
        }
    }

    private mutating func mixedComponent(base: String, index: Int) -> GeneratedComponent {
        switch next(100) {
        case 0..<30: GeneratedComponent(path: base)
        case 30..<55: GeneratedComponent(path: base + "/*")
        case 55..<62: GeneratedComponent(path: "*" + base)
        case 62..<67: GeneratedComponent(path: base + "/*/x/????")
        case 67..<72: GeneratedComponent(path: base + "/?*")
        case 72..<80: GeneratedComponent(path: base + "/*", query: .item(name: "ref", pattern: "?*"))
        case 80..<83: GeneratedComponent(path: base + "/*", fragment: "section\(index)*")
        case 83..<86: GeneratedComponent(path: base + "/*", caseSensitive: false)
        case 86..<88: GeneratedComponent(path: base + "/summer sale/*", percentEncoded: false)
        case 88..<96: GeneratedComponent(path: base + "/private/*", exclude: true)
        case 96, 97: GeneratedComponent(path: base + "/*", query: .whole("page=?*"))
        case 98: GeneratedComponent(path: "/$(lang)" + base + "/*")
        default: GeneratedComponent(path: "/$(section)" + base + "/*")
        }
    }

    /// `*ab*cd*ef*` (three to six literals of one to three letters), or `*?*?*?*x` (two to five
    /// `?*` and a letter).
    private mutating func adversarialComponent() -> GeneratedComponent {
        if next(5) == 0 {
            return GeneratedComponent(path: "*" + String(repeating: "?*", count: 2 + next(4)) + randomLetters(1))
        }
        let literals = (0..<(3 + next(4))).map { _ in randomLetters(1 + next(3)) }
        return GeneratedComponent(path: "*" + literals.joined(separator: "*") + "*")
    }

    /// A URL `component` decides: its patterns with every wildcard and variable filled in.
    private mutating func url(hitting component: GeneratedComponent, mix: MatchMix) -> String {
        var path = fill(component.path, mix: mix)
        if !path.hasPrefix("/") { path = "/" + path }
        if !component.caseSensitive && next(2) == 0 { path = path.uppercased() }
        var url = "https://example.com" + path
        switch component.query {
        case .whole(let pattern)?: url += "?" + fill(pattern, mix: mix)
        case .item(let name, let pattern)?:
            url += (next(3) == 0 ? "?utm_source=mail&" : "?") + name + "=" + fill(pattern, mix: mix)
        case nil: if next(5) == 0 { url += "?utm_source=news" }
        }
        if let fragment = component.fragment {
            url += "#" + fill(fragment, mix: mix)
        } else if next(10) == 0 {
            url += "#top"
        }
        return url
    }

    /// A URL made from no component: a word and number past every component's, or for
    /// adversarial files letters in any order (which some `*?*?*x` may still match).
    private mutating func unclaimedURL(rules: Int, mix: MatchMix) -> String {
        if mix == .adversarial { return "https://example.com/" + randomLetters(10 + next(40)) }
        return "https://example.com/\(Self.words[next(Self.words.count)])\(rules + next(max(1, rules)))/"
            + starFiller(empty: true)
    }

    /// `pattern` with its wildcards and variables replaced by text they match, and spaces
    /// percent-encoded.
    private mutating func fill(_ pattern: String, mix: MatchMix) -> String {
        var text = ""
        var rest = Substring(pattern)
        while let character = rest.first {
            if rest.hasPrefix("$("), let close = rest.firstIndex(of: ")") {
                let name = rest[rest.index(rest.startIndex, offsetBy: 2)..<close]
                let values = name == "section" ? Self.sections : Self.languages
                text += values[next(values.count)]
                rest = rest[rest.index(after: close)...]
                continue
            }
            switch character {
            case "*" where mix == .adversarial: text += randomLetters(next(4))
            // Only a final star stands for nothing: `/a/*` as `/a/`, but no `//` or bare `/b` for `*/b`.
            case "*": text += starFiller(empty: rest.dropFirst().isEmpty)
            case "?" where mix == .adversarial: text += randomLetters(1)
            case "?": text += String(Self.oneCharacter[next(Self.oneCharacter.count)])
            case " ": text += "%20"
            default: text.append(character)
            }
            rest = rest.dropFirst()
        }
        return text
    }

    /// What a `*` stands for in a realistic URL: nothing when `empty` allows, a number, a word or
    /// both.
    private mutating func starFiller(empty: Bool) -> String {
        switch next(4) {
        case 0 where empty: ""
        case 0, 1: String(next(10_000))
        case 2: Self.words[next(Self.words.count)]
        default: "\(Self.words[next(Self.words.count)])/\(next(1000))"
        }
    }

    /// `count` letters of the adversarial alphabet.
    private mutating func randomLetters(_ count: Int) -> String {
        String(
            decoding: (0..<count).map { _ in Self.adversarialLetters[next(Self.adversarialLetters.count)] },
            as: UTF8.self)
    }

    /// A path of about `bytes` bytes: letters of the first half of the adversarial alphabet, a
    /// slash now and then, and a number at the end, which no `*?*?*x` matches.
    private mutating func longAdversarialPath(bytes: Int) -> String {
        var path: [UInt8] = [UInt8(ascii: "/")]
        path.reserveCapacity(bytes + 4)
        while path.count < bytes {
            path.append(
                next(40) == 0 ? UInt8(ascii: "/") : Self.adversarialLetters[next(Self.adversarialLetters.count / 2)])
        }
        return String(decoding: path, as: UTF8.self) + "/\(next(1000))"
    }
}

/// One component of a generated association file, kept as parts so URLs can be made from it.
private struct GeneratedComponent {
    enum Query {
        /// `"?": "pattern"`, compared with the whole query.
        case whole(String)
        /// `"?": {"name": "pattern"}`.
        case item(name: String, pattern: String)
    }

    var path: String
    var query: Query?
    var fragment: String?
    var exclude = false
    var caseSensitive = true
    var percentEncoded = true

    /// The component as JSON, its keys in the order Apple's documentation lists them.
    var json: String {
        var members = ["\"/\": \(quoted(path))"]
        switch query {
        case .whole(let pattern)?: members.append("\"?\": \(quoted(pattern))")
        case .item(let name, let pattern)?: members.append("\"?\": {\(quoted(name)): \(quoted(pattern))}")
        case nil: break
        }
        if let fragment { members.append("\"#\": \(quoted(fragment))") }
        if exclude { members.append("\"exclude\": true") }
        if !caseSensitive { members.append("\"caseSensitive\": false") }
        if !percentEncoded { members.append("\"percentEncoded\": false") }
        return "{" + members.joined(separator: ", ") + "}"
    }
}

private func quoted(_ text: String) -> String { JSON.string(text).renderedCompact() }
