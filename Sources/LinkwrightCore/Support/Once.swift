import Synchronization

/// A value made on first use, once: the first thread to ask makes it, a thread asking meanwhile
/// waits for it, and every later read takes no lock. The one primitive behind every
/// compute-once site of the core (work several policy rules share, a rule list's index, a
/// configuration's name positions, each entry of a `ProcessMemo`).
///
/// The concurrency policy of those sites, stated here once:
/// - **Nesting.** `make` may ask other `Once`s (the behaviour comparison builds evaluators,
///   whose lists build their indexes), so what is made once forms a graph with no cycle: `make`
///   must never ask, directly or not, for the value it is making, which would wait for itself.
/// - **Oversubscription.** A thread waiting here leaves its core idle. Callers that share work
///   hand out first what others will wait on (`PolicyEngine` starts the first rule reading the
///   behaviour diff before the rest), and `make` may start threads of its own (`parallelMap`
///   does for a nested stage), taking the cores the waiting threads leave.
/// - **Errors.** A `make` that throws stores nothing: the next asker makes the value again.
public final class Once<Value>: @unchecked Sendable {
    private let isMade = Atomic<Bool>(false)
    /// Written once, under `making`, before `isMade` is set; read only after `isMade` is seen set.
    private var stored: Value?
    /// Held while the value is made.
    private let making = LockedValue(())

    public init() {}

    /// The value, made by `make` if no thread has made it yet.
    public func value(_ make: () throws -> Value) rethrows -> Value {
        if let made { return made }
        return try making.withLock { _ in
            if let stored { return stored }
            let value = try make()
            stored = value
            isMade.store(true, ordering: .releasing)
            return value
        }
    }

    /// The value if it has been made, without waiting or making it.
    public var made: Value? { isMade.load(ordering: .acquiring) ? stored : nil }
}
