import Foundation
import Synchronization

extension RandomAccessCollection where Index == Int {
    /// `map` with the elements transformed on every core at once, the results in the elements'
    /// order. For independent pieces of pure work of some size, such as a domain's expectations
    /// or a configuration file: each piece runs on one thread from start to end, so it needs no
    /// lock of its own, and the order of the output never depends on which thread finished first.
    ///
    /// The caller works too, with one thread per other core (`onAnotherThread`), each taking the
    /// next element until none is left. Threads rather than `DispatchQueue.concurrentPerform`:
    /// libdispatch runs a `concurrentPerform` nested in another on the calling thread, so a stage
    /// inside another (the analysis of each changed file inside one policy rule) stayed on one
    /// core while the other was idle. Nested calls here get threads of their own; the system
    /// shares the cores.
    public func parallelMap<Transformed: Sendable>(
        _ transform: @Sendable (Element) -> Transformed
    ) -> [Transformed] where Self: Sendable, Element: Sendable {
        let helpers = Swift.min(count, activeCores) - 1
        guard helpers > 0 else { return map(transform) }
        let results = LockedValue([Transformed?](repeating: nil, count: count))
        let start = startIndex
        withoutActuallyEscaping(transform) { transform in
            let work = SharedElements(count: count) { offset in
                let transformed = transform(self[start + offset])
                results.withLock { $0[offset] = transformed }
            }
            let finished = DispatchSemaphore(value: 0)
            for _ in 0..<helpers {
                onAnotherThread {
                    work.run()
                    finished.signal()
                }
            }
            work.run()
            for _ in 0..<helpers { finished.wait() }
            // Every thread is done with the closure: dropping it here lets the caller's closure
            // end with this call, as `withoutActuallyEscaping` requires.
            work.clear()
        }
        return results.withLock { $0.map { $0! } }
    }
}

/// The cores this process may run on, read once: on Linux Foundation opens the cgroup's CPU set
/// and CPU quota files on each call (about 90 K instructions and six system calls), and a
/// changelog of 100 tags maps in parallel about 400 times.
let activeCores = ProcessInfo.processInfo.activeProcessorCount

/// The elements of one `parallelMap`, handed out one at a time to the threads working on them.
private final class SharedElements: @unchecked Sendable {
    /// The offset of the element to take next.
    private let next = Atomic<Int>(0)
    private let count: Int
    /// Written before the threads start and cleared after they all finished; only read between.
    private var transform: ((Int) -> Void)?

    init(count: Int, transform: @escaping (Int) -> Void) {
        self.count = count
        self.transform = transform
    }

    /// Transforms the next element not taken yet, until none is left.
    func run() {
        while true {
            let offset = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard offset < count else { return }
            transform!(offset)
        }
    }

    func clear() { transform = nil }
}
