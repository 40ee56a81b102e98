/// Links to a forge's page comparing two revisions, from the repository's remote URL: GitHub
/// and GitLab (`…/compare/v1.4...v1.5`, GitLab under `/-/`) and Bitbucket
/// (`…/branches/compare/v1.5%0Dv1.4`), in the https and ssh forms of a remote. Other hosts get
/// no link: a guessed URL would lead nowhere.
public struct CompareLinks: Sendable, Equatable {
    public enum Forge: String, Sendable {
        case github
        case gitlab
        case bitbucket
    }

    public let forge: Forge
    /// `https://github.com/owner/repo`, without `.git`.
    public let repository: String

    /// `nil` for a remote that is no known forge, or that does not name a repository.
    public init?(remote: String) {
        var text = Substring(remote)
        var host: Substring
        if let scheme = text.range(of: "://") {
            guard ["https", "http", "ssh", "git"].contains(text[..<scheme.lowerBound].lowercased()) else { return nil }
            text = text[scheme.upperBound...]
            let authority = text.prefix { $0 != "/" }
            text = text.dropFirst(authority.count).dropFirst()
            host = authority.split(separator: "@").last ?? authority
            host = host.prefix { $0 != ":" }
        } else if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") {
            // scp-like ssh: git@github.com:owner/repo.git
            let authority = text[..<colon]
            host = authority.split(separator: "@").last ?? authority
            text = text[text.index(after: colon)...]
        } else {
            return nil
        }
        let name = host.lowercased()
        let first = name.split(separator: ".").first.map(String.init) ?? ""
        // github.com, gitlab.com, bitbucket.org, and self-hosted gitlab.example.com alike.
        guard let forge = Forge(rawValue: first) else { return nil }
        var path = String(text.drop { $0 == "/" })
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix(".git") { path.removeLast(4) }
        guard path.split(separator: "/").count >= 2, path.allSatisfy(Self.isPathCharacter) else { return nil }
        self.forge = forge
        repository = "https://\(name)/\(path)"
    }

    /// The page comparing `from` with `to`.
    public func url(from: String, to: String) -> String {
        let (from, to) = (Self.escaped(from), Self.escaped(to))
        switch forge {
        case .github: return "\(repository)/compare/\(from)...\(to)"
        case .gitlab: return "\(repository)/-/compare/\(from)...\(to)"
        case .bitbucket: return "\(repository)/branches/compare/\(to)%0D\(from)"
        }
    }

    /// A revision name as a URL path segment.
    static func escaped(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-._~".unicodeScalars.contains(scalar))
            {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    static func isPathCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-._~/".contains(character))
    }
}
