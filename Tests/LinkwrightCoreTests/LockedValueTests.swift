import Dispatch
import LinkwrightCore
import Testing

@Suite struct LockedValueTests {
    /// Unsynchronised, concurrent `+= 1`s lose updates; under the lock every one counts.
    @Test func concurrentChangesAreNeverLost() {
        let counter = LockedValue(0)
        let log = LockedValue<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for step in 0..<10_000 {
                counter.withLock { $0 += 1 }
                if step % 1_000 == 0 { log.withLock { $0.append(worker) } }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
        #expect(log.withLock { $0.count } == 80)
    }

    @Test func returnsAndRethrowsWhatTheBodyDoes() {
        struct Refused: Error {}
        let value = LockedValue("a")
        #expect(
            value.withLock {
                $0 += "b"
                return $0.count
            } == 2)
        #expect(throws: Refused.self) { try value.withLock { _ in throw Refused() } }
        // The lock was released by the throw: taking it again does not deadlock.
        #expect(value.withLock { $0 } == "ab")
    }
}
