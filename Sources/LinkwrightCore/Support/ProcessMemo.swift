/// Values made once per process by key and shared by every thread: what depends on a rule's
/// text alone (its compiled pattern, what its tests tell apart) is met again in every revision
/// a changelog reads. Past `limit` entries the memo starts again, so a long-running process
/// (`monitor`) meeting ever new rules keeps bounded memory. Each entry is a `Once`: a thread
/// asking for a key another is making waits for it (`Once` states the policy), and threads
/// making different keys do not wait for each other.
///
/// A key is hashed once, before the lock is taken: the threads compiling a fleet's files both
/// met every new pattern here, and hashing each key (its file's substitution variables with it)
/// twice inside the lock kept one thread waiting on the other.
final class ProcessMemo<Key: Hashable, Value>: @unchecked Sendable {
    private let known: LockedValue<[HashedKey<Key>: Once<Value>]>
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
        known = LockedValue([:])
    }

    /// The value for `key`, made by `make` on first use (outside the memo's lock).
    func value(_ key: Key, _ make: () throws -> Value) rethrows -> Value {
        guard Caching.isEnabled else { return try make() }
        let hashed = HashedKey(key)
        let entry = known.withLock { known in
            if let entry = known[hashed] { return entry }
            if known.count >= limit { known = [:] }
            let entry = Once<Value>()
            known[hashed] = entry
            return entry
        }
        return try entry.value(make)
    }
}
