import Synchronization

/// Whether work made for one revision, file or rule may be kept for the next: the memos of a
/// process (`ProcessMemo`) and, in the command line, what revisions share (`RevisionCache`,
/// contracts compiled per tree). On unless switched off, which only the tests proving that caches
/// never change an answer do (`LINKWRIGHT_CACHES=off`, read by the command line): every value is
/// then made afresh where it is needed.
public enum Caching {
    private static let enabled = Atomic(true)

    public static var isEnabled: Bool { enabled.load(ordering: .relaxed) }

    /// Switches caching off for the rest of the process.
    public static func switchOff() { enabled.store(false, ordering: .relaxed) }
}
