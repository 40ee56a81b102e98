import Dispatch
import LinkwrightCore
import Testing

@Suite struct ParallelMapTests {
    /// Early elements take longest, so threads finish out of order: the results still come back
    /// in the elements' order, each transformed exactly once.
    @Test func resultsComeInTheElementsOrderWhateverFinishesFirst() {
        let calls = LockedValue<[Int]>([])
        let elements = Array(0..<64)
        let results = elements.parallelMap { element in
            var spin = 0
            for step in 0..<((64 - element) * 2_000) { spin &+= step }
            calls.withLock { $0.append(element) }
            return "\(element):\(spin & 1)"
        }
        #expect(results.map { Int($0.split(separator: ":")[0])! } == elements)
        #expect(calls.withLock { $0.sorted() } == elements)
    }

    @Test func slicesEmptyAndSingleCollections() {
        let slice = Array(0..<10)[3..<7]
        #expect(slice.parallelMap { $0 * 10 } == [30, 40, 50, 60])
        #expect([Int]().parallelMap { $0 } == [])
        #expect([5].parallelMap { $0 + 1 } == [6])
        #expect((0..<5).parallelMap { $0 * $0 } == [0, 1, 4, 9, 16])
    }
}
