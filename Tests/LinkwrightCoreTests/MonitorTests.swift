import Foundation
import LinkwrightCore
import Testing

@Suite struct MonitorTests {
    @Test func parsesDurations() {
        #expect(Monitor.duration("24h") == 86400)
        #expect(Monitor.duration("15m") == 900)
        #expect(Monitor.duration("1h30m") == 5400)
        #expect(Monitor.duration("2d") == 172_800)
        for bad in ["", "h", "10", "1x", "-1h", "0s"] { #expect(Monitor.duration(bad) == nil, "\(bad)") }
    }

    @Test func describesDurations() {
        #expect(Monitor.describe(11520) == "3h12m")
        #expect(Monitor.describe(45) == "45s")
        #expect(Monitor.describe(90000) == "1d1h")
    }

    @Test func timestampsRoundTrip() {
        for text in ["1970-01-01T00:00:00Z", "2026-11-29T08:00:00Z", "2000-02-29T23:59:59Z", "2100-12-31T12:34:56Z"] {
            #expect(Timestamp.parse(text).map(Timestamp.format) == text)
        }
        #expect(Timestamp.parse("2026-11-29 08:00:00") == nil)
        #expect(Timestamp.parse("2026-13-01T00:00:00Z") == nil)
    }

    private func finding(_ id: DiagnosticID, host: String) -> Finding {
        Finding(
            rule: id.rawValue, severity: .error, message: "m", location: nil, environment: "production", host: host,
            identity: [host])
    }

    @Test func aLaggingCDNBlocksOnlyAfterTheGracePeriod() throws {
        let start = try #require(Timestamp.parse("2026-11-29T08:00:00Z"))
        var state = MonitorState()
        let round = [
            finding(.cdnDiffers, host: "a.example"), finding(.originStatus, host: "b.example"),
        ]
        var (findings, next) = Monitor.apply(round, state: state, now: start, grace: 86400)
        #expect(findings.map(\.severity) == [.note, .error], "an origin problem blocks at once")
        state = next
        (findings, next) = Monitor.apply(round, state: state, now: start.addingTimeInterval(86399), grace: 86400)
        #expect(findings[0].severity == .note)
        (findings, next) = Monitor.apply(round, state: next, now: start.addingTimeInterval(86400), grace: 86400)
        #expect(findings[0].severity == .error)
        #expect(next.cdnDiffersSince["production/a.example"] == start)
        // Once the CDN agrees again, the host is forgotten.
        (_, next) = Monitor.apply([], state: next, now: start.addingTimeInterval(90000), grace: 86400)
        #expect(next.cdnDiffersSince.isEmpty)
    }

    @Test func theStateSurvivesAWriteAndRead() throws {
        let state = MonitorState(
            cdnDiffersSince: ["production/a.example": Date(timeIntervalSince1970: 1_764_403_200)],
            lastRound: Date(timeIntervalSince1970: 1_764_406_800))
        let read = MonitorState.read(Array(state.json.rendered().utf8), file: "state.json")
        #expect((try? read.get()) == state)
    }
}
