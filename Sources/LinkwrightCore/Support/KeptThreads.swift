import Foundation

/// Runs `body` at once on a thread other than the caller's, as deep as the main thread's
/// (8 MiB: parsing, automata and freeing nested values recurse): a thread an earlier call
/// started when one is idle, a new one otherwise.
///
/// Every caller of the core that starts a thread goes through here (`parallelMap`,
/// `overlapping`, `releaseInBackground`). A changelog of 100 tags runs about 300 parallel
/// stages; a thread started and ended for each costs the clone, the stack mapped and unmapped
/// and its first pages faulted again. A thread whose body returned waits for the next body
/// instead, up to `KeptThreads.idleLimit` of them; more end. A body never waits for a thread to
/// come free, so stages nested in others keep their parallelism, and no body can wait on
/// another that has no thread yet.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    KeptThreads.shared.run(body)
}

/// The threads `onAnotherThread` keeps between bodies.
final class KeptThreads: Sendable {
    static let shared = KeptThreads()

    /// Idle threads kept at most: a nested stage asks for one thread per core besides the
    /// caller's, and a few stages run at once.
    static let idleLimit = 4 * activeCores

    private let idle = LockedValue<[KeptThread]>([])
    /// Threads started so far; tests read it to see threads kept rather than started.
    let started = LockedValue(0)

    /// How many threads wait for a body now.
    var idleCount: Int { idle.withLock(\.count) }

    func run(_ body: @escaping @Sendable () -> Void) {
        if let kept = idle.withLock({ $0.popLast() }) {
            kept.hand(body)
            return
        }
        started.withLock { $0 += 1 }
        let kept = KeptThread(body)
        let thread = Thread { kept.serve(in: self) }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Takes `thread` back as idle; false when enough are idle already and it should end.
    fileprivate func keep(_ thread: KeptThread) -> Bool {
        idle.withLock { idle in
            guard idle.count < Self.idleLimit else { return false }
            idle.append(thread)
            return true
        }
    }
}

/// One thread's next body, handed over through its semaphore.
private final class KeptThread: @unchecked Sendable {
    /// Written by the handing thread before `wake` is signalled, taken by this thread after its
    /// wait returns: the semaphore orders the two.
    private var body: (@Sendable () -> Void)?
    private let wake = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func hand(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        wake.signal()
    }

    /// Runs bodies until the pool has idle threads enough.
    func serve(in pool: KeptThreads) {
        runBody()
        while pool.keep(self) {
            wake.wait()
            runBody()
        }
    }

    /// Runs the body and drops it before the thread idles, so what it captured is freed when
    /// it returns, as it was when each body had a thread of its own.
    private func runBody() {
        let body = self.body.take()!
        body()
    }
}
