/// A large key (a file's rules) with its hash taken once. A lookup of a plain array key hashes
/// every element every time, and a changelog looks up each revision's thousand rules per host,
/// platform and app. Equal keys are compared in full only when their
/// hashes agree, and keys copied from one value share its storage, which compares at once.
struct HashedKey<Value: Hashable>: Hashable {
    let value: Value
    private let hash: Int

    init(_ value: Value) {
        self.value = value
        hash = value.hashValue
    }

    /// `value` with `hash`, made by the caller from hashes of its parts taken once (equal values
    /// must get equal hashes): a list of rules kept across revisions hashes its new rules only.
    init(_ value: Value, hash: Int) {
        self.value = value
        self.hash = hash
    }

    static func == (left: HashedKey, right: HashedKey) -> Bool {
        left.hash == right.hash && left.value == right.value
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension HashedKey: Sendable where Value: Sendable {}
