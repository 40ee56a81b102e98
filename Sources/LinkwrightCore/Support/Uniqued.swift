extension Sequence where Element: Hashable {
    /// Each element once, where it first appears: de-duplication in linear time, for lists an
    /// untrusted file can make as long as it likes (searched as an array, quadratic).
    public func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
