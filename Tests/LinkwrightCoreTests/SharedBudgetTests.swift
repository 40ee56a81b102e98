import Foundation
import Testing

@testable import LinkwrightCore

@Suite struct SharedBudgetTests {
    /// A job of stages, each taking its steps while the meter has them and reporting how many it
    /// took: as a region search does, a stage cut short answers otherwise, and a stage that
    /// finishes answers alike whatever was left.
    private static func run(_ stages: [Int], _ meter: WorkMeter) -> [Int] {
        stages.map { steps in
            guard !meter.isExhausted else { return -1 }
            let taken = min(steps, meter.remaining)
            meter.spend(taken)
            return taken
        }
    }

    /// Seeded jobs and totals, from budgets no job exhausts to budgets that stop in the first
    /// one: on every core, each job answers as it does when they run one after another against
    /// one meter, and the answers come in the jobs' order.
    @Test(arguments: 0..<300) func everyCoreAnswersAsOneAfterAnother(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9)
        let jobs = (0..<Int.random(in: 1...9, using: &generator)).map { _ in
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in Int.random(in: 1...40, using: &generator) }
        }
        let total = Int.random(in: 1...(jobs.joined().reduce(0, +) + 20), using: &generator)
        let oneMeter = WorkMeter(total)
        let afterAnother = jobs.map { Self.run($0, oneMeter) }
        #expect(jobs.mapSharingBudget(total: total, Self.run) == afterAnother, "total \(total), jobs \(jobs)")
    }

    /// However many jobs run at once, together they take at most twice the total: once on
    /// every core, and what is run again one after another.
    @Test func workStaysWithinTwiceTheTotal() {
        let spent = LockedValue(0)
        let jobs = Array(repeating: [50, 50, 50], count: 16)
        _ = jobs.mapSharingBudget(total: 120) { stages, meter in
            let answer = Self.run(stages, meter)
            spent.withLock { $0 += answer.filter { $0 > 0 }.reduce(0, +) }
            return answer
        }
        #expect(spent.withLock { $0 } <= 240)
    }
}
