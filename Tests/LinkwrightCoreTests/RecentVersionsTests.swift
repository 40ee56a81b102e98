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
}
