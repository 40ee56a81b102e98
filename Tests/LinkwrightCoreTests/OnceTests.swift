import Dispatch
import Testing

@testable import LinkwrightCore

/// `Once`, behind every compute-once site: one thread makes the value, the others wait for it.
@Suite struct OnceTests {
    @Test func threadsAskingAtOnceGetTheOneValueMade() {
        let once = Once<[Int]>()
        let made = LockedValue(0)
        let answers = LockedValue<[[Int]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let value = once.value {
                made.withLock { $0 += 1 }
                return [worker]
            }
            answers.withLock { $0.append(value) }
        }
        #expect(made.withLock { $0 } == 1)
        #expect(Set(answers.withLock { $0 }).count == 1)
        #expect(once.made == answers.withLock { $0 }.first)
    }

    @Test func nothingIsMadeUntilAskedAndAFailureStoresNothing() {
        struct Failure: Error {}
        let once = Once<Int>()
        #expect(once.made == nil)
        #expect(throws: Failure.self) { try once.value { throw Failure() } }
        #expect(once.made == nil)
        #expect(once.value { 2 } == 2)
        #expect(once.value { 3 } == 2)
    }

    /// What is made once may ask other `Once`s while it is made.
    @Test func aValueMayBeMadeFromAnother() {
        let inner = Once<Int>()
        let outer = Once<Int>()
        #expect(outer.value { inner.value { 20 } + 1 } == 21)
        #expect(inner.made == 20)
    }
}
