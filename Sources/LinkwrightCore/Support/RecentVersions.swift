/// The latest few values kept under each name, by threads at once: what a changelog's
/// revisions make of each domain, kept for the next revision to take again when what it was
/// made from equals what asks for it. Values read from one file reading share storage, so the
/// comparison of an unchanged one costs nothing; one that changed compares until it differs.
final class RecentVersions<Name: Hashable & Sendable, Value: Sendable>: Sendable {
    private let kept = LockedValue([Name: [Value]]())
    /// A walk through revisions meets a name's versions in turn, and a lookup compares each.
    private static var versionsKept: Int { 4 }

    init() {}

    /// The versions kept under `name`, oldest first.
    func versions(of name: Name) -> [Value] { kept.withLock { $0[name] } ?? [] }

    /// The newest version under `name` that `matches`, compared outside the lock.
    func newest(of name: Name, where matches: (Value) -> Bool) -> Value? { versions(of: name).last(where: matches) }

    /// Keeps `value` as the newest under `name`, forgetting the oldest past the few kept.
    func keep(_ value: Value, as name: Name) {
        kept.withLock { kept in Self.keep(value, as: name, in: &kept) }
    }

    /// The newest version under `name` that `matches`, else the one `make` gives from the
    /// versions kept, kept as the newest: found and kept at once, under the lock, so threads
    /// asking for one version meanwhile take the same value (a `Once` they wait on, where its
    /// making is long).
    func newest(of name: Name, where matches: (Value) -> Bool, orKeep make: ([Value]) -> Value) -> Value {
        kept.withLock { kept in
            let versions = kept[name] ?? []
            if let found = versions.last(where: matches) { return found }
            let made = make(versions)
            Self.keep(made, as: name, in: &kept)
            return made
        }
    }

    private static func keep(_ value: Value, as name: Name, in kept: inout [Name: [Value]]) {
        kept[name, default: []].append(value)
        if kept[name]!.count > versionsKept { kept[name]!.removeFirst() }
    }

    func forget() { kept.withLock { $0 = [:] } }
}
