import Dispatch

extension RandomAccessCollection where Index == Int {
    /// `map` with the elements transformed on every core at once (`concurrentPerform`), the
    /// results in the elements' order. For independent pieces of pure work of some size, such
    /// as a domain's expectations or a configuration file: each piece runs on one thread from
    /// start to end, so it needs no lock of its own, and the order of the output never depends
    /// on which thread finished first.
    public func parallelMap<Transformed: Sendable>(
        _ transform: @Sendable (Element) -> Transformed
    ) -> [Transformed] where Self: Sendable, Element: Sendable {
        guard count > 1 else { return map(transform) }
        let results = LockedValue([Transformed?](repeating: nil, count: count))
        let start = startIndex
        DispatchQueue.concurrentPerform(iterations: count) { offset in
            let transformed = transform(self[start + offset])
            results.withLock { $0[offset] = transformed }
        }
        return results.withLock { $0.map { $0! } }
    }
}
