import Foundation
import LinkwrightTestSupport

/// `verify` of a fleet against `curl --parallel` fetching the same URLs: one local nginx with a
/// wildcard certificate answers for every host, reached through `--connect-to` by both, over TLS.
struct FleetBenchmark {
    /// curl's own parallelism, which `verify`'s default connection cap matches.
    static let parallel = 50
    /// The domain `ScaleGenerator` puts every host of a one-domain configuration under.
    static let domain = "d0.example"

    let hosts: Int
    let seed: UInt64
    let linkwright: String
    let folder: URL

    /// Runs both, each measured by `measure` with its standard output to a file, and returns the
    /// rows and what went wrong: a run that did not get every file right is no figure.
    func rows(smoke: Bool, measure: ([String], String) throws -> Measurement) throws -> (
        rows: [BenchmarkRun.Row], failures: [String]
    ) {
        // One environment, every host on one domain (`h0.d0.example`…) with 20 rules of the usual shapes.
        var generator = ScaleGenerator(seed: seed)
        try BenchmarkCommand.write(
            generator.configuration(
                ScaleGenerator.Size(
                    name: "fleet", hosts: hosts, environments: 1, rulesPerDomain: 20, expectationURLs: 10,
                    domainCount: 1)),
            to: folder)
        let names = (0..<hosts).map { "h\($0).\(Self.domain)" }
        let build = try Measurement.run(
            [linkwright, "build", "--config", folder.path, "--out", folder.appendingPathComponent("dist").path])
        guard build.status == 0 else { throw BenchmarkError("build of the fleet configuration failed") }
        let files = folder.appendingPathComponent("dist/production/\(names[0])/.well-known")
        let json = "application/json"
        let site = TestSite(
            ["*.\(Self.domain)"],
            routes: [
                .file(
                    "/.well-known/apple-app-site-association",
                    Array(try Data(contentsOf: files.appendingPathComponent("apple-app-site-association"))),
                    contentType: json),
                .file(
                    "/.well-known/assetlinks.json",
                    Array(try Data(contentsOf: files.appendingPathComponent("assetlinks.json"))), contentType: json),
            ])
        return try withNginx(serving: [site]) { server in
            var failures: [String] = []
            let connectTo = server.connectEverythingTo(site.hostNames[0]).description
            let authority = server.certificates.trustedAuthority.certificate.path
            let report = folder.appendingPathComponent("verify.json").path
            let verify = try measure(
                [
                    linkwright, "verify", "--config", folder.path, "--connect-to", connectTo, "--cacert", authority,
                    "--max-connections", String(Self.parallel), "--format", "json",
                ], report)
            if verify.status != 0
                || (try? String(contentsOfFile: report, encoding: .utf8))?.contains("\"findings\": []") != true
            {
                failures.append(
                    "verify of \(hosts) local hosts did not find every file as built (exit \(verify.status))")
            }
            // The same run with an entry per host and as many again for hosts it does not serve, in
            // the order a generated list would have them: each transfer looks its own entry up, so
            // this costs what one entry does, not hosts × entries.
            let target = connectTo.drop { $0 == ":" }
            let entries = names.flatMap { name in
                ["--connect-to", "\(name):443:\(target)", "--connect-to", "other-\(name):443:\(target)"]
            }
            let perHost = try measure(
                [
                    linkwright, "verify", "--config", folder.path, "--cacert", authority, "--max-connections",
                    String(Self.parallel), "--format", "json",
                ] + entries, report)
            if perHost.status != 0
                || (try? String(contentsOfFile: report, encoding: .utf8))?.contains("\"findings\": []") != true
            {
                failures.append(
                    "verify with an entry per host did not find every file as built (exit \(perHost.status))")
            }
            // The same URLs for curl, each written nowhere, its status printed to check the answers.
            let urls = names.flatMap { name in
                ["apple-app-site-association", "assetlinks.json"].map { "https://\(name)/.well-known/\($0)" }
            }
            let curlConfig = folder.appendingPathComponent("curl.config")
            try Data(urls.map { "url = \"\($0)\"\noutput = \"/dev/null\"\n" }.joined().utf8).write(to: curlConfig)
            let statuses = folder.appendingPathComponent("curl-statuses").path
            let curl = try measure(
                [
                    "curl", "--silent", "--parallel", "--parallel-max", String(Self.parallel), "--parallel-immediate",
                    "--connect-to",
                    connectTo, "--cacert", authority, "--write-out", "%{http_code}\\n", "--config", curlConfig.path,
                ], statuses)
            let codes = (try? String(contentsOfFile: statuses, encoding: .utf8))?.split(separator: "\n") ?? []
            if curl.status != 0 || codes.count != urls.count || !codes.allSatisfy({ $0 == "200" }) {
                failures.append("curl --parallel did not fetch all \(urls.count) URLs with 200 (exit \(curl.status))")
            }
            let figure = "\(hosts) hosts × 2 files over TLS, local nginx via --connect-to"
            let rows = [
                BenchmarkRun.Row(
                    figure: "verify, \(figure)", seconds: verify.seconds, peakKilobytes: verify.peakKilobytes,
                    baseline: "curl --parallel --parallel-max \(Self.parallel)", baselineSeconds: curl.seconds,
                    ratio: verify.seconds / curl.seconds, goal: "≤ 2× curl",
                    met: smoke ? nil : verify.seconds <= 2 * curl.seconds),
                BenchmarkRun.Row(
                    figure: "verify, \(hosts) hosts with \(2 * hosts) --connect-to entries",
                    seconds: perHost.seconds, peakKilobytes: perHost.peakKilobytes,
                    baseline: "one entry for every host",
                    baselineSeconds: verify.seconds, ratio: perHost.seconds / verify.seconds,
                    goal: "≤ 1.5× (no hosts × entries)",
                    met: smoke ? nil : perHost.seconds <= 1.5 * verify.seconds),
                BenchmarkRun.Row(
                    figure: "curl --parallel --parallel-max \(Self.parallel), \(figure)", seconds: curl.seconds,
                    peakKilobytes: curl.peakKilobytes, baseline: "–", baselineSeconds: curl.seconds, ratio: 1, goal: "",
                    met: nil),
            ]
            return (rows, failures)
        }
    }
}
