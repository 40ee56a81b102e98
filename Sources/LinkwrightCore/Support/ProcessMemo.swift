/// Values made once per process by key and shared by every thread: what depends on a rule's
/// text alone (its compiled pattern, what its tests tell apart) is met again in every revision
/// a changelog reads. Past `limit` entries the memo starts again, so a long-running process
/// (`monitor`) meeting ever new rules keeps bounded memory. Two threads missing the same key at
/// once may both make the value; the first stored is kept, and equal keys make equal values.
///
/// A key is hashed once, before the lock is taken: the threads compiling a fleet's files both
/// met every new pattern here, and hashing each key (its file's substitution variables with it)
/// twice inside the lock kept one thread waiting on the other.
final class ProcessMemo<Key: Hashable, Value>: @unchecked Sendable {
    private let known: LockedValue<[HashedKey<Key>: Value]>
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
        known = LockedValue([:])
    }

    /// The value for `key`, made by `make` on first use (outside the lock).
    func value(_ key: Key, _ make: () throws -> Value) rethrows -> Value {
        guard Caching.isEnabled else { return try make() }
        let hashed = HashedKey(key)
        if let value = known.withLock({ $0[hashed] }) { return value }
        let made = try make()
        return known.withLock { known in
            if let first = known[hashed] { return first }
            if known.count >= limit { known = [:] }
            known[hashed] = made
            return made
        }
    }
}
