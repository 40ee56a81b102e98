import Dispatch
import Foundation
import LinkwrightCore
import Testing

@Suite struct BackgroundReleaseTests {
    /// Records the thread its last reference was dropped on.
    final class Tracked: @unchecked Sendable {
        let freed: DispatchSemaphore
        let freedOnThread: LockedValue<pthread_t?>

        init(_ freed: DispatchSemaphore, _ thread: LockedValue<pthread_t?>) {
            (self.freed, freedOnThread) = (freed, thread)
        }

        deinit {
            freedOnThread.withLock { $0 = pthread_self() }
            freed.signal()
        }
    }

    /// The value is freed, and not by the caller: the caller's thread goes on at once.
    @Test func theLastReferenceIsDroppedOnAnotherThread() throws {
        let freed = DispatchSemaphore(value: 0)
        let thread = LockedValue<pthread_t?>(nil)
        releaseInBackground([Tracked(freed, thread), Tracked(freed, thread)])
        #expect(freed.wait(timeout: .now() + 30) == .success)
        #expect(freed.wait(timeout: .now() + 30) == .success)
        let freer = try #require(thread.withLock { $0 })
        #expect(pthread_equal(freer, pthread_self()) == 0)
    }

    /// A value nested 20,000 levels deep (lists in lists) is freed one level inside the other:
    /// the releasing thread's stack must be as deep as the main thread's, which freed such
    /// values before.
    @Test func aDeeplyNestedValueIsFreedWholly() {
        struct Nested: @unchecked Sendable {
            var inner: [Nested]
            var last: Tracked?
        }
        let freed = DispatchSemaphore(value: 0)
        var nested = Nested(inner: [], last: Tracked(freed, LockedValue(nil)))
        for _ in 1..<20_000 { nested = Nested(inner: [nested], last: nil) }
        releaseInBackground(consume nested)
        #expect(freed.wait(timeout: .now() + 30) == .success)
    }

    /// A part the caller still references stays alive; only what the value alone held is freed.
    @Test func whatIsStillReferencedElsewhereStaysAlive() {
        let freed = DispatchSemaphore(value: 0)
        let thread = LockedValue<pthread_t?>(nil)
        let kept = Tracked(freed, thread)
        releaseInBackground((kept, Tracked(freed, thread)))
        #expect(freed.wait(timeout: .now() + 30) == .success)
        // The second signal would come from `kept`, which is still here.
        #expect(freed.wait(timeout: .now() + 0.2) == .timedOut)
        withExtendedLifetime(kept) {}
    }
}
