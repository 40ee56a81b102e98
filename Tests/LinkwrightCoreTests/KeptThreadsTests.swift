import Dispatch
import Foundation
import Testing

@testable import LinkwrightCore

/// Each test has a pool of its own: the shared one serves every test running at the same time.
@Suite struct KeptThreadsTests {
    /// Polls `condition` for up to a minute: a thread goes idle just after its body returns.
    private func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(1_000)
        }
        return true
    }

    /// The thread a body ran on, once it ran.
    private func threadRunning(_ pool: KeptThreads) -> ObjectIdentifier? {
        let ran = DispatchSemaphore(value: 0)
        let thread = LockedValue<ObjectIdentifier?>(nil)
        pool.run {
            thread.withLock { $0 = ObjectIdentifier(Thread.current) }
            ran.signal()
        }
        guard ran.wait(timeout: .now() + 60) == .success else { return nil }
        return thread.withLock { $0 }
    }

    /// A second body runs on the thread the first one left idle, and no thread is started for it.
    @Test func anIdleThreadRunsTheNextBody() throws {
        let pool = KeptThreads()
        let first = try #require(threadRunning(pool))
        #expect(eventually { pool.idleCount == 1 })
        let second = try #require(threadRunning(pool))
        #expect(first == second)
        #expect(pool.started.withLock { $0 } == 1)
    }

    /// Bodies that wait for each other all run at once: a body never waits for a thread to come
    /// free, whatever the number of idle threads. Past the limit, threads end rather than idle.
    @Test func everyBodyGetsAThreadAtOnceAndTheIdleOnesAreCapped() {
        let pool = KeptThreads()
        let count = KeptThreads.idleLimit + 3
        let running = LockedValue(0)
        let allRan = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            pool.run {
                running.withLock { $0 += 1 }
                let deadline = Date().addingTimeInterval(60)
                while running.withLock({ $0 }) < count && Date() < deadline { usleep(1_000) }
                allRan.signal()
            }
        }
        for _ in 0..<count { #expect(allRan.wait(timeout: .now() + 90) == .success) }
        #expect(running.withLock { $0 } == count)
        #expect(pool.started.withLock { $0 } == count)
        #expect(eventually { pool.idleCount == KeptThreads.idleLimit })
    }

    /// What a body captured is freed when the body returns, before its thread idles: a value
    /// handed to `releaseInBackground` is freed rather than held by an idle thread.
    @Test func aBodysCapturesAreFreedWhenItReturns() {
        final class Captured: Sendable {}
        let pool = KeptThreads()
        weak var watched: Captured?
        do {
            let captured = Captured()
            watched = captured
            pool.run { _ = captured }
        }
        #expect(eventually { pool.idleCount == 1 })
        #expect(eventually { watched == nil })
    }

    /// `parallelMap` keeps its results and their order when its threads are kept ones: many
    /// calls in a row, some nested, each transforming every element once.
    @Test func parallelMapsInARowOnKeptThreads() {
        for round in 0..<200 {
            let elements = Array(0..<(round % 7 + 2))
            let results = elements.parallelMap { element in
                element % 3 == 0 ? [element, element].parallelMap { $0 + round }.reduce(0, +) : element + round
            }
            #expect(results == elements.map { $0 % 3 == 0 ? 2 * ($0 + round) : $0 + round })
        }
    }
}
