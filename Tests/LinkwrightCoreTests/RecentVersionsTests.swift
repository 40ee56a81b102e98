import Testing

@testable import LinkwrightCore

@Suite struct RecentVersionsTests {
    /// The newest match wins, each name keeps its own versions, and only the latest few are kept.
    @Test func keepsTheLatestFewVersionsPerName() {
        let versions = RecentVersions<String, Int>()
        for value in 1...6 { versions.keep(value, as: "shop") }
        versions.keep(10, as: "news")
        #expect(versions.versions(of: "shop") == [3, 4, 5, 6])
        #expect(versions.newest(of: "shop") { $0 % 2 == 1 } == 5)
        #expect(versions.newest(of: "shop") { $0 == 1 } == nil)
        #expect(versions.versions(of: "news") == [10])
        versions.forget()
        #expect(versions.versions(of: "shop").isEmpty)
    }

    /// A match is taken as it is; else the value made from the versions kept is kept as the
    /// newest, and threads asking at once for one value all take the one kept first.
    @Test func newestOrKeptIsFoundAndKeptAtOnce() {
        let versions = RecentVersions<String, Int>()
        for value in [2, 4] { versions.keep(value, as: "shop") }
        #expect(versions.newest(of: "shop", where: { $0 == 2 }, orKeep: { _ in 99 }) == 2)
        #expect(versions.newest(of: "shop", where: { $0 == 7 }, orKeep: { $0.reduce(1, +) }) == 7)
        #expect(versions.versions(of: "shop") == [2, 4, 7])
        let made = LockedValue(0)
        let taken = (0..<16).parallelMap { thread in
            versions.newest(of: "news", where: { $0 >= 100 }) { _ in
                made.withLock { $0 += 1 }
                return 100 + thread
            }
        }
        #expect(made.withLock { $0 } == 1)
        #expect(Set(taken).count == 1 && versions.versions(of: "news") == taken.prefix(1).map { $0 })
    }
}
