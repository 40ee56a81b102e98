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

@Suite struct OverlappingTests {
    private struct Refused: Error {}

    /// The consumer sees every value in the order handed over, and sees the first before the
    /// producer has made the last: the producer waits for it to be consumed, which would never
    /// happen if values were handed over only once the producer returned.
    @Test func valuesArriveInOrderWhileTheProducerStillRuns() throws {
        let consumedFirst = DispatchSemaphore(value: 0)
        var seen: [Int] = []
        let produced = try overlapping(
            { handOver in
                handOver(0)
                let waited = consumedFirst.wait(timeout: .now() + 60)
                for value in 1..<100 { handOver(value) }
                return waited == .success
            },
            with: { value in
                seen.append(value)
                if value == 0 { consumedFirst.signal() }
            })
        #expect(produced)
        #expect(seen == Array(0..<100))
    }

    /// A consumer that throws sees nothing after, the producer is finished before the call
    /// returns, and the error reaches the caller.
    @Test func aConsumerErrorStopsConsumingAndWaitsForTheProducer() {
        let finished = LockedValue(false)
        var seen: [Int] = []
        #expect(throws: Refused.self) {
            try overlapping(
                { handOver in
                    for value in 0..<10 { handOver(value) }
                    finished.withLock { $0 = true }
                },
                with: { value in
                    seen.append(value)
                    if value == 3 { throw Refused() }
                })
        }
        #expect(seen == [0, 1, 2, 3])
        #expect(finished.withLock { $0 })
    }
}
