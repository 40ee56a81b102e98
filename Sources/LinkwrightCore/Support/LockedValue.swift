#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A value only one thread at a time reads or changes, through `withLock`. Our own rather than
/// `Synchronization.Mutex`: a `Mutex` cannot be copied, so closures on several threads cannot
/// share one as they share this class, and its `withLock` takes and returns `sending` values,
/// which a generic body over a non-`Sendable` value fails (region isolation refuses it). A
/// `pthread_mutex_t` exists on every platform we build for; it is allocated once so it never
/// moves, as POSIX requires of a mutex in use.
public final class LockedValue<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock; the value is never reachable otherwise.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
