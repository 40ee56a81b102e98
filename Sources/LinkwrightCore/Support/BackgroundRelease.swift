import Foundation

/// Frees what `value` alone holds on a thread of its own, so the caller goes on at once.
///
/// A large configuration's evaluators (compiled association files, their automata, host
/// indexes) are a graph of hundreds of thousands of objects: freeing them after checking and
/// before exiting is work on the run's one-core tail whose result nobody waits for. Whatever else still references part of the value keeps that part alive as
/// before; only the last reference moves to the other thread. A process that exits meanwhile
/// leaves the rest to the system, as it does all of its memory.
public func releaseInBackground<Value>(_ value: consuming Value) {
    let held = ReleasedValue(value)
    // As deep as the main thread's, which freed these values before (`onAnotherThread`): freeing
    // a nested value recurses as deep as it is nested.
    onAnotherThread { held.release() }
}

/// The value `releaseInBackground` hands over: the thread releasing it is the only one that
/// reads it after the handover.
private final class ReleasedValue: @unchecked Sendable {
    private var value: Any?

    init(_ value: Any) { self.value = value }

    func release() { value = nil }
}
