/// The steps a series of searches may still take together, so that an analysis of many rules or
/// the proofs of one comparison stay bounded as a whole, not only search by search. A meter
/// within another (a file's within the command's) spends from both and runs out when either
/// does. Threads share one: its count is locked.
final class WorkMeter: Sendable {
    private let left: LockedValue<Int>
    private let parent: WorkMeter?
    private let budget: Int

    init(_ budget: Int, within parent: WorkMeter? = nil) {
        left = LockedValue(budget)
        self.parent = parent
        self.budget = budget
    }

    /// Steps spent so far, past the budget too.
    var spent: Int { budget - left.withLock { $0 } }

    var remaining: Int { min(left.withLock { max($0, 0) }, parent?.remaining ?? .max) }
    var isExhausted: Bool { remaining == 0 }

    func spend(_ steps: Int) {
        left.withLock { $0 -= steps }
        parent?.spend(steps)
    }
}

extension Array where Element: Sendable {
    /// `work` on each element, as running the elements one after another against one meter of
    /// `total` steps answers, but on every core. Each element runs against a meter of its own,
    /// all of them within one of `total`, so the work stays bounded by it however many run at
    /// once. An element's answer stands when the shared meter still had steps left as it and
    /// every element before it finished: then nothing cut their work short, together they spent
    /// less than the total, and each met the limits it meets in turn. Work that never meets its
    /// limit answers alike whatever the limit (as a rule analysis and a behaviour proof do: a
    /// search answers otherwise only when its steps run out). From the first element whose
    /// answer does not stand, the rest run again one after another with what the earlier ones
    /// left, so work too costly to finish stops where it does in turn, after at most twice the
    /// total.
    func mapSharingBudget<Answer: Sendable>(total: Int, _ work: @Sendable (Element, WorkMeter) -> Answer)
        -> [Answer]
    {
        let together = WorkMeter(total)
        let alone = parallelMap { element in
            let meter = WorkMeter(total, within: together)
            let answer = work(element, meter)
            return (answer: answer, spent: meter.spent, whole: !together.isExhausted)
        }
        let standing = alone.prefix { $0.whole }
        let rest = WorkMeter(total - standing.map(\.spent).reduce(0, +))
        return standing.map(\.answer) + self[standing.count...].map { work($0, rest) }
    }
}
