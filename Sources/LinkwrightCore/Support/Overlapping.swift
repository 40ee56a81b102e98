import Foundation

/// Runs `produce` on a thread of its own and `consume` on the calling thread with each value
/// `produce` hands over, in the order handed over and as soon as it is made, then returns what
/// `produce` returned. A stage that waits on the disk (staging an environment's files) so
/// overlaps the work that makes its next input (compiling and rendering the next environment).
///
/// When `consume` throws, the values still to come are dropped unread, `produce` is waited for
/// (nothing outlives the call), and the error is rethrown.
public func overlapping<Value: Sendable, Produced: Sendable>(
    _ produce: @escaping @Sendable (_ handOver: @Sendable (Value) -> Void) -> Produced,
    with consume: (Value) throws -> Void
) throws -> Produced {
    let handoff = Handoff<Value, Produced>()
    onAnotherThread {
        let produced = produce { value in handoff.put(.value(value)) }
        handoff.put(.finished(produced))
    }
    var failure: (any Error)?
    while true {
        switch handoff.take() {
        case .value(let value):
            guard failure == nil else { continue }
            do { try consume(value) } catch { failure = error }
        case .finished(let produced):
            if let failure { throw failure }
            return produced
        }
    }
}

/// The values one `overlapping` call hands from its producing thread to the caller, in order.
private final class Handoff<Value: Sendable, Produced: Sendable>: Sendable {
    enum Item: Sendable {
        case value(Value)
        case finished(Produced)
    }

    private let items = LockedValue<[Item]>([])
    /// Signalled once per item put, so `take` waits exactly until there is one.
    private let arrived = DispatchSemaphore(value: 0)

    func put(_ item: Item) {
        items.withLock { $0.append(item) }
        arrived.signal()
    }

    func take() -> Item {
        arrived.wait()
        return items.withLock { $0.removeFirst() }
    }
}
