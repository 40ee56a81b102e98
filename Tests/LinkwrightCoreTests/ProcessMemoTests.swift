import Dispatch
import Testing

@testable import LinkwrightCore

/// The per-process memos behind a changelog's sharing across revisions: each value is made
/// once per key, memory stays bounded, and a shared compilation answers as compiling again.
@Suite struct ProcessMemoTests {
    @Test func eachKeyIsMadeOnceAndEveryThreadGetsTheFirstValue() {
        let memo = ProcessMemo<Int, [Int]>(limit: 100)
        let made = LockedValue(0)
        let answers = LockedValue<[Int: [Int]]>([:])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for key in 0..<50 {
                let value = memo.value(key) {
                    made.withLock { $0 += 1 }
                    return [key, worker]
                }
                answers.withLock { known in
                    if let first = known[key] { #expect(first == value) } else { known[key] = value }
                }
            }
        }
        // A thread asking for a key another is making waits for it (`Once`).
        #expect(made.withLock { $0 } == 50)
        #expect(memo.value(7) { [-1] }.first == 7)
    }

    @Test func pastItsLimitTheMemoStartsAgain() {
        let memo = ProcessMemo<Int, Int>(limit: 3)
        for key in 0..<3 { _ = memo.value(key) { key } }
        #expect(memo.value(0) { -1 } == 0)
        _ = memo.value(3) { 3 }
        // The fourth key emptied the memo: the first is made again.
        #expect(memo.value(0) { -1 } == -1)
    }

    @Test func equalKeysAreEqualWhateverTheirStorage() {
        let one = HashedKey(["a", "b"])
        let other = HashedKey(["a"] + ["b"])
        #expect(one == other)
        #expect(Set([one, other]).count == 1)
        #expect(one != HashedKey(["b", "a"]))
    }

    @Test func aSharedCompilationAnswersAsCompilingAgain() throws {
        let options = PatternOptions(caseSensitive: false, appleSlashRules: true)
        let shared = try PatternMatcher.shared("/Help/*", options: options)
        let again = try PatternMatcher("/Help/*", options: options)
        for path in ["/help/a", "/HELP", "/helpx", "/other"] {
            #expect(shared.matches(path) == again.matches(path))
        }
        // Other options are another compilation.
        let caseSensitive = try PatternMatcher.shared("/Help/*", options: PatternOptions(appleSlashRules: true))
        #expect(!caseSensitive.matches("/help/a"))
        // A pattern that does not compile fails every time, with the same error.
        let first = #expect(throws: PatternError.self) { try PatternMatcher.shared("/$(lang", options: options) }
        let second = #expect(throws: PatternError.self) { try PatternMatcher.shared("/$(lang", options: options) }
        #expect(first == second)
    }
}
