/// How the engine reads a component's flags: each flag's effect on a pattern's options.
extension ComponentFlag {
    /// The flag's effect on how a value is read: the single place that turns it into comparison.
    func apply(_ value: Bool, to options: inout PatternOptions) {
        switch self {
        case .caseSensitive: options.caseSensitive = value
        case .percentEncoded: options.decoded = !value
        }
    }
}

extension EffectiveFlags {
    /// `options` with every flag's effect applied.
    public func applied(to options: PatternOptions) -> PatternOptions {
        var result = options
        for flag in ComponentFlag.allCases { flag.apply(self[flag], to: &result) }
        return result
    }
}
