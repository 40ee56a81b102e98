/// Concrete URLs to try on a path: the path bare, and with the query items and fragments the
/// rules of a domain mention filled in, so a rule that needs `?code=…` to open is still caught.
/// Sampling, not proof: callers say so when a sample is all they have.
public enum URLSamples {
    /// One concrete string a pattern matches: `*` empty, `?` an `x`, a variable its first value.
    public static func instance(of pattern: String, variables: [AASAVariable] = []) -> String {
        guard case .success(let tokens) = PatternSyntax.tokens(pattern) else { return pattern }
        return tokens.map { token in
            switch token {
            case .literal(let scalar): String(scalar)
            case .one: "x"
            case .any: ""
            case .variable(let name):
                variables.first { $0.name == name }?.values.first.map { instance(of: $0) }
                    ?? PredefinedSamples.value(for: name)
            }
        }.joined()
    }

    /// A host a URL can stand on for a binding: the host itself, or for a wildcard a subdomain
    /// that no binding in `mentioned` names (`www.shop.example`, the subdomain people link most,
    /// else `subdomain.…`, `subdomain2.…`), so the sample checks the wildcard and not some exact
    /// binding. `mentioned` holds every host name bound in the environments the sample is read in.
    public static func host(for binding: Host, avoiding mentioned: Set<String>) -> String {
        guard binding.isWildcard else { return binding.name }
        let root = binding.fileHost.name
        var label = "www"
        var counter = 0
        while mentioned.contains(label + "." + root) {
            counter += 1
            label = counter == 1 ? "subdomain" : "subdomain\(counter)"
        }
        return label + "." + root
    }

    /// `path` bare, with every query item the domain's rules name (each alone and all together),
    /// with every whole-query pattern, and with a fragment.
    public static func around(path: String, in domain: Domain) -> [String] {
        var queries: [String] = []
        var items: [String] = []
        var fragments: [String] = []
        let variables = domain.variables.map { AASAVariable(name: $0.name.value, values: $0.values.map(\.value)) }
        for rule in domain.applinks.flatMap(\.rules) {
            switch rule.query?.value {
            case .whole(let pattern): queries.append(instance(of: pattern, variables: variables))
            case .items(let patterns):
                for item in patterns {
                    let value = instance(of: item.pattern, variables: variables)
                    items.append(item.name + "=" + (value.isEmpty ? "x" : value))
                }
            case nil: break
            }
            if let fragment = rule.fragment { fragments.append(instance(of: fragment.value, variables: variables)) }
        }
        var samples = [path]
        samples += items.map { path + "?" + $0 }
        if items.count > 1 { samples.append(path + "?" + items.joined(separator: "&")) }
        samples += queries.map { path + "?" + $0 }
        samples += fragments.map { path + "#" + ($0.isEmpty ? "x" : $0) }
        var seen: Set<String> = []
        return samples.filter { seen.insert($0).inserted }
    }
}

/// Sample values of Apple's predefined substitution variables.
enum PredefinedSamples {
    static func value(for name: String) -> String {
        switch name {
        case "alpha", "lower", "alnum", "xdigit": "a"
        case "upper": "A"
        case "digit": "0"
        case "region": "ES"
        case "lang": "es"
        default: ""
        }
    }
}
