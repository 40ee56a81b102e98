/// The pattern language of AASA components, as Apple documents it for applinks.Details.Components
/// (https://developer.apple.com/documentation/bundleresources/applinks/details-swift.dictionary/components-swift.dictionary):
/// `*` matches zero or more characters, `?` exactly one, and `?*` therefore one or more;
/// `$(name)` stands for any one value of a substitution variable
/// (https://developer.apple.com/documentation/bundleresources/applinks/substitutionvariables-swift.dictionary).
/// Every other character is literal: Apple documents no escape syntax, so none is invented here.
public enum PatternToken: Hashable, Sendable {
    case literal(Unicode.Scalar)
    /// `?`: exactly one character.
    case one
    /// `*`: zero or more characters, `/` included.
    case any
    case variable(String)
}

public enum PatternSyntaxError: Error, Equatable, Sendable {
    /// `$(` without a closing `)`; the offset counts scalars from the start of the pattern.
    case unterminatedVariable(offset: Int)
    /// `$()`.
    case emptyVariableName(offset: Int)
}

public enum PatternSyntax {
    /// Apple's predefined substitution variables.
    public static let predefinedVariables: Set<String> = [
        "alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang",
    ]

    public static func tokens(_ pattern: String) -> Result<[PatternToken], PatternSyntaxError> {
        let scalars = Array(pattern.unicodeScalars)
        var tokens: [PatternToken] = []
        tokens.reserveCapacity(scalars.count)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*": tokens.append(.any)
            case "?": tokens.append(.one)
            case "$" where index + 1 < scalars.count && scalars[index + 1] == "(":
                guard let close = scalars[(index + 2)...].firstIndex(of: ")") else {
                    return .failure(.unterminatedVariable(offset: index))
                }
                let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
                if name.isEmpty { return .failure(.emptyVariableName(offset: index)) }
                tokens.append(.variable(name))
                index = close
            default: tokens.append(.literal(scalar))
            }
            index += 1
        }
        return .success(tokens)
    }

    /// Names of the variables a pattern uses, in order; empty when the pattern does not parse.
    public static func variableNames(_ pattern: String) -> [String] {
        guard case .success(let tokens) = tokens(pattern) else { return [] }
        return tokens.compactMap {
            if case .variable(let name) = $0 { return name }
            return nil
        }
    }
}
