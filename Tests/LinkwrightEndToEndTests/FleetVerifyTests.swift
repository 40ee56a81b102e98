import Foundation
import LinkwrightTestSupport
import Testing

/// `verify` over a fleet served by one nginx through `--connect-to` (wildcard certificates, SNI
/// and Host the hosts' own), split with `--shard K/N` as a CI matrix would.
@Suite struct FleetVerifyTests {
    static let jq: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { URL(fileURLWithPath: String($0)).appendingPathComponent("jq") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// The merge docs/serving.md shows: its one line that runs `jq -s`.
    static func documentedMerge() throws -> String {
        let page = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("docs/serving.md"), encoding: .utf8)
        guard let line = page.split(separator: "\n").first(where: { $0.hasPrefix("jq -s ") }) else {
            throw HarnessError("docs/serving.md shows no jq -s line")
        }
        return String(line)
    }

    static let good = (1...12).map { "g\($0).fleet.test" }
    static let stale = (1...5).map { "s\($0).stale.test" }
    static let missing = (1...4).map { "m\($0).missing.test" }
    /// Declared out of order: the report's order must not depend on it.
    static let hosts = (good + stale + missing).sorted { $0.reversed().lexicographicallyPrecedes($1.reversed()) }

    let folder: TemporaryFolder
    let aasa: [UInt8]
    let assetLinks: [UInt8]

    init() throws {
        folder = try TemporaryFolder()
        try Self.writeEnvironment(Self.hosts, in: folder)
        try folder.write("domains/shop.yaml", ShopConfiguration.domain)
        (aasa, assetLinks) = try builtAssociationFiles(in: folder, host: "g1.fleet.test")
    }

    private static func writeEnvironment(_ hosts: [String], in folder: TemporaryFolder) throws {
        try folder.write(
            "environments/production.yaml",
            ShopConfiguration.production.replacingOccurrences(
                of: "  shop.example: shop\n", with: hosts.map { "  \($0): shop\n" }.joined()))
    }

    private var sites: [TestSite] {
        let json = "application/json"
        let outdated = Array(
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": []}]}}"#.utf8)
        let assetLinksRoute = TestRoute.file("/.well-known/assetlinks.json", assetLinks, contentType: json)
        return [
            TestSite(
                ["*.fleet.test"],
                routes: [.file("/.well-known/apple-app-site-association", aasa, contentType: json), assetLinksRoute]),
            TestSite(
                ["*.stale.test"],
                routes: [
                    .file("/.well-known/apple-app-site-association", outdated, contentType: json), assetLinksRoute,
                ]),
            TestSite(["*.missing.test"]),
        ]
    }

    /// Each stale and missing host to its site, every other host to the good one: the first
    /// matching `--connect-to` wins, as in curl.
    private func linkwright(_ arguments: [String], _ server: NginxTestServer) throws -> ProcessResult {
        var connectTo = Self.stale.map { "\($0):443:\(server.address):\(server.port(of: "*.stale.test"))" }
        connectTo += Self.missing.map { "\($0):443:\(server.address):\(server.port(of: "*.missing.test"))" }
        connectTo.append(server.connectEverythingTo("*.fleet.test").description)
        return try runLinkwright(
            arguments + connectTo.flatMap { ["--connect-to", $0] } + [
                "--cacert", server.certificates.trustedAuthority.certificate.path, "--timeout", "5",
                "--max-connections", "4",
            ],
            in: folder.url)
    }

    /// The hosts of a text report's host lines.
    private func reportedHosts(_ result: ProcessResult) -> [String] {
        result.stdout.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("production ") else { return nil }
            return line.dropFirst("production ".count).split(separator: ":").first.map(String.init)
        }
    }

    @Test func everyHostIsCheckedThroughOneTestServerInHostOrder() throws {
        defer { folder.remove() }
        try withNginx(serving: sites) { server in
            let result = try linkwright(["verify"], server)
            #expect(result.status == 1, "\(result)")
            #expect(reportedHosts(result) == Self.hosts.sorted(), "\(result)")
            #expect(
                result.stdout.contains(
                    "production g7.fleet.test: apple-app-site-association ok, assetlinks.json ok\n"), "\(result)")
            #expect(
                result.stdout.contains(
                    "https://s3.stale.test/.well-known/apple-app-site-association: serves a file that differs from the build"
                ), "\(result)")
            #expect(
                result.stdout.contains(
                    "https://m2.missing.test/.well-known/apple-app-site-association: answers 404, not 200 [ORIGIN_STATUS]"
                ),
                "\(result)")
            // Every request reached nginx under its own host name, two per host, one connection each.
            let requests = try server.requestsByConnection()
            #expect(requests.count == 2 * Self.hosts.count)
            let connections = Dictionary(grouping: requests, by: \.host).mapValues { Set($0.map(\.connection)) }
            #expect(Set(connections.keys) == Set(Self.hosts))
            #expect(connections.values.allSatisfy { $0.count == 1 }, "\(connections)")
        }
    }

    @Test func shardsSplitTheFleetByHostNameAndStayPutWhenHostsAreAdded() throws {
        defer { folder.remove() }
        try withNginx(serving: sites) { server in
            let shards = try (1...3).map { try linkwright(["verify", "--shard", "\($0)/3"], server) }
            let parts = shards.map(reportedHosts)
            #expect(parts.allSatisfy { !$0.isEmpty }, "\(parts)")
            #expect(parts.flatMap { $0 }.sorted() == Self.hosts.sorted())
            #expect(shards.map(\.status).contains(1))

            // A new host, declared first, moves no other host between shards.
            try Self.writeEnvironment(["g0.fleet.test"] + Self.hosts, in: folder)
            let grown = try (1...3).map { reportedHosts(try linkwright(["verify", "--shard", "\($0)/3"], server)) }
            #expect(zip(parts, grown).allSatisfy { before, after in after.filter { $0 != "g0.fleet.test" } == before })
            #expect(grown.flatMap { $0 }.filter { $0 == "g0.fleet.test" }.count == 1)
        }
    }

    @Test(.enabled(if: jq != nil, "jq is not installed (scripts/install-deps.sh --for-tests installs it)"))
    func theDocumentedMergeOfShardsGivesTheSingleRunsReport() throws {
        defer { folder.remove() }
        try withNginx(serving: sites) { server in
            let single = try linkwright(["verify", "--format", "json"], server)
            #expect(single.status == 1, "\(single)")
            for shard in 1...3 {
                let result = try linkwright(["verify", "--format", "json", "--shard", "\(shard)/3"], server)
                try folder.write("shard-\(shard).json", result.stdout)
            }
            let merged = try runProcess(
                URL(fileURLWithPath: "/bin/sh"), ["-c", try Self.documentedMerge()], in: folder.url)
            #expect(merged.status == 0, "\(merged)")
            try folder.write("single.json", single.stdout)
            try folder.write("merged.json", merged.stdout)
            let normalise = { (file: String) in
                try runProcess(Self.jq!, ["-S", ".", file], in: folder.url).stdout
            }
            let findings = try runProcess(
                Self.jq!, ["[.findings[].host] | unique | length", "single.json"], in: folder.url)
            #expect(findings.stdout == "\(Self.stale.count + Self.missing.count)\n", "\(single)")
            #expect(try normalise("merged.json") == normalise("single.json"))
        }
    }

    /// The example matrix merges its shards with the documented line, over `monitor --shard`.
    @Test func theMatrixWorkflowMergesWithTheDocumentedLine() throws {
        defer { folder.remove() }
        let workflow = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("docs/examples/monitor-matrix.yml"), encoding: .utf8
        )
        let merge = try Self.documentedMerge()
        #expect(workflow.contains("          \(merge.dropLast(" shard-*.json".count)) shard-*.json > monitor.json\n"))
        #expect(workflow.contains("linkwright monitor --shard ${{ matrix.shard }}/4 --state monitor-state.json"))
    }

    @Test func refusesABadShardConnectToOrConnectionCap() throws {
        defer { folder.remove() }
        let cases: [([String], String)] = [
            (["--shard", "4/3"], "--shard 4/3 asks for part 4 of 3; K is from 1 to 3"),
            (["--shard", "two"], "--shard two is not K/N with whole numbers, such as 2/8"),
            (
                ["--connect-to", "127.0.0.1:8443"],
                "--connect-to 127.0.0.1:8443 has 2 fields, not the 4 of HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT (an IPv6 address goes in [brackets])"
            ),
            (
                ["--connect-to", "::127.0.0.1:99999"],
                "--connect-to ::127.0.0.1:99999 port 99999 is not a number in 1...65535"
            ),
            (["--max-connections", "0"], "--max-connections takes a whole number of at least 1, not 0"),
        ]
        for (arguments, message) in cases {
            for command in [["verify"], ["monitor", "--state", "state.json"]] {
                let result = try runLinkwright(command + arguments, in: folder.url)
                #expect(result.status == 2, "\(result)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.hasPrefix("error: \(message)\nUsage: linkwright \(command[0]) "), "\(result)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("state.json").path))
    }
}
