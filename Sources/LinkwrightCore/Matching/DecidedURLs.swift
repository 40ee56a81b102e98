/// Which rule of a list decided each URL tried before the list's `LazyRuleIndex` was built.
///
/// A list that decides few URLs tries its rules one by one, and the same URL often comes back
/// for another host or app: a behaviour diff decides each witness on every host of an
/// environment, for every app the file serves, and an older Android release's lists again. On
/// a changelog over 100 tags, the lists decided ten times as many URLs as distinct ones, so the
/// tries of the repeats built most lists' indexes. A repeat is answered from here instead, and
/// counts no tries. Rules compare the path, the query and the fragment only (hosts are the
/// caller's concern), so those three are the key. Once the index is built, a decision costs
/// about as much as a lookup here, and nothing more is kept.
final class DecidedURLs: Sendable {
    /// The most URLs kept: a list whose rules are all read one by one (an older Android
    /// release reading every rule otherwise) never builds its index.
    static let capacity = 4096

    private struct Key: Hashable {
        var path: String
        var query: String?
        var fragment: String?

        /// Parts compare exactly (`ExactText`), as the rules read them.
        static func == (left: Key, right: Key) -> Bool {
            ExactText.equal(left.path, right.path) && ExactText.equal(left.query, right.query)
                && ExactText.equal(left.fragment, right.fragment)
        }
    }

    /// The position of the deciding rule in its list, `nil` for none.
    private let decided = LockedValue([Key: Int?]())

    /// The position `decide` finds for `url`, found once while `index` is not built.
    func position(of url: LinkURL, index: LazyRuleIndex, decide: () -> Int?) -> Int? {
        guard !index.isBuilt else { return decide() }
        let key = Key(path: url.path, query: url.query, fragment: url.fragment)
        if let known = decided.withLock({ $0[key] }) { return known }
        let position = decide()
        decided.withLock { if $0.count < Self.capacity { $0[key] = position } }
        return position
    }
}
