import Dispatch
import Foundation
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

    /// A `parallelMap` inside another still runs its elements at once: each inner element waits
    /// until both are running, which never happens if nested calls run one element at a time
    /// (as a `concurrentPerform` nested in another does).
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1))
    func nestedCallsRunTheirElementsAtOnce() {
        let outer = [0, 1].parallelMap { element -> [Bool] in
            guard element == 0 else { return [] }
            let running = LockedValue(0)
            return [0, 1].parallelMap { _ in
                running.withLock { $0 += 1 }
                let deadline = Date().addingTimeInterval(10)
                while running.withLock({ $0 }) < 2 && Date() < deadline { usleep(1_000) }
                return running.withLock { $0 } == 2
            }
        }
        #expect(outer == [[true, true], []])
    }

    @Test func slicesEmptyAndSingleCollections() {
        let slice = Array(0..<10)[3..<7]
        #expect(slice.parallelMap { $0 * 10 } == [30, 40, 50, 60])
        #expect([Int]().parallelMap { $0 } == [])
        #expect([5].parallelMap { $0 + 1 } == [6])
        #expect((0..<5).parallelMap { $0 * $0 } == [0, 1, 4, 9, 16])
    }
}
