import Foundation
import LinkwrightIO

/// One `server` block of a test nginx: its host names, who signed its certificate, what it serves.
public struct TestSite: Sendable {
    /// How the site speaks to clients.
    public enum Security: Sendable {
        /// HTTPS with a certificate signed by the authority clients are told to trust.
        case trusted
        /// HTTPS with a certificate signed by a second authority that no client trusts.
        case untrusted
        /// Plain HTTP, no TLS at all.
        case plaintext
    }

    /// `server_name` and the certificate's subject alternative names.
    public let hostNames: [String]
    public let security: Security
    public let routes: [TestRoute]
    /// nginx directives for the server block, verbatim (`$` included), after the harness's
    /// `listen`, certificate, `server_name` and `root` lines: a configuration under test.
    public let directives: String
    /// Files under the site's root, by URL path (`/.well-known/…`), for `directives` to serve.
    public let documents: [String: [UInt8]]

    public init(
        _ hostNames: [String], security: Security = .trusted, routes: [TestRoute] = [], directives: String = "",
        documents: [String: [UInt8]] = [:]
    ) {
        precondition(!hostNames.isEmpty, "a site needs a host name")
        self.hostNames = hostNames
        self.security = security
        self.routes = routes
        self.directives = directives
        self.documents = documents
    }
}

/// What the site answers at one exact path. Any other path answers nginx's own 404.
public struct TestRoute: Sendable {
    public enum Answer: Sendable {
        /// A 200 with this body and Content-Type, extra header fields (a name may repeat), and
        /// optionally a bandwidth limit. nginx paces in whole seconds: a body longer than the
        /// rate takes at least one second.
        case file(body: [UInt8], contentType: String, headers: [(name: String, value: String)], bytesPerSecond: Int?)
        /// A redirect; a relative `location` is made absolute by nginx with the site's host and port.
        case redirect(status: Int, location: String)
        /// The connection closes without any response (nginx's `return 444`).
        case closeWithoutResponse
    }

    public let path: String
    public let answer: Answer

    public static func file(
        _ path: String, _ body: [UInt8], contentType: String, headers: [(name: String, value: String)] = [],
        bytesPerSecond: Int? = nil
    ) -> TestRoute {
        TestRoute(
            path: path,
            answer: .file(body: body, contentType: contentType, headers: headers, bytesPerSecond: bytesPerSecond))
    }

    public static func file(
        _ path: String, _ text: String, contentType: String, headers: [(name: String, value: String)] = []
    ) -> TestRoute {
        file(path, Array(text.utf8), contentType: contentType, headers: headers)
    }

    public static func redirect(_ path: String, status: Int, to location: String) -> TestRoute {
        TestRoute(path: path, answer: .redirect(status: status, location: location))
    }

    public static func closeWithoutResponse(_ path: String) -> TestRoute {
        TestRoute(path: path, answer: .closeWithoutResponse)
    }
}

/// A real nginx serving `TestSite`s on 127.0.0.1, each on a free port of its own, with throwaway
/// certificates. Everything it needs and writes (configuration, certificates, documents, pid
/// file, logs, temporary files) lives in one temporary folder, removed when it stops.
///
/// Use `withNginx(serving:_:)`, which stops it whatever the test does. nginx runs in the foreground
/// as a single process (`daemon off; master_process off;`), a child of the test process, so
/// killing that one PID leaves nothing behind.
public final class NginxTestServer {
    public let folder: TemporaryFolder
    public let certificates: TestCertificates
    /// nginx's process ID; its pid file holds the same number once it listens.
    public let processID: Int32
    private let process: Process
    private let portsByHost: [String: Int]
    /// The loopback address the sites listen on.
    public let address: String
    /// A host that speaks HTTPS, for the harness's own requests.
    private let tlsHost: String?

    private init(
        folder: TemporaryFolder, certificates: TestCertificates, process: Process, ports: [String: Int],
        address: String, tlsHost: String?
    ) {
        self.folder = folder
        self.certificates = certificates
        self.process = process
        self.processID = process.processIdentifier
        self.portsByHost = ports
        self.address = address
        self.tlsHost = tlsHost
    }

    deinit { stop() }

    /// The port of the site serving `host`.
    public func port(of host: String) -> Int {
        guard let port = portsByHost[host] else { preconditionFailure("no test site serves \(host)") }
        return port
    }

    /// `https://host:port/path` for a site of this server.
    public func url(_ host: String, _ path: String) -> String { "https://\(host):\(port(of: host))\(path)" }

    /// Every host of every site mapped to the loopback address, so that no DNS or /etc/hosts is involved.
    public var resolveOverrides: [HTTPResolveOverride] {
        portsByHost.keys.sorted().map { HTTPResolveOverride(host: $0, port: port(of: $0), address: address) }
    }

    /// Every request, whatever its host and port, sent to the site serving `host` (curl's
    /// `--connect-to ::ADDRESS:PORT`): with a wildcard site, a whole fleet of names on one site.
    public func connectEverythingTo(_ host: String) -> HTTPConnectTo {
        HTTPConnectTo(host: nil, port: nil, connectHost: address, connectPort: port(of: host))
    }

    /// Options that trust the test authority and reach every site, with short timeouts.
    public func fetchOptions(
        totalTimeout: Duration = .seconds(5),
        maximumBodySize: Int = HTTPFetchOptions.defaultMaximumBodySize
    ) -> HTTPFetchOptions {
        HTTPFetchOptions(
            caBundlePath: certificates.trustedAuthority.certificate.path, resolveOverrides: resolveOverrides,
            connectTimeout: .seconds(2), totalTimeout: totalTimeout, maximumBodySize: maximumBodySize)
    }

    /// The requests nginx has completed, one `METHOD path User-Agent` line each, in the order they
    /// ended. nginx logs a request right after sending its last byte, so a client can be done
    /// before the line is written. The single nginx process finishes that step before it serves
    /// anything else, so a request of the harness's own, once logged, marks the log as complete.
    public func requests() throws -> [String] {
        guard let host = tlsHost else { preconditionFailure("reading the log needs an HTTPS site") }
        let barrier = "/harness-log-barrier-\(UUID().uuidString)"
        // A wildcard site's own name is no host name: ask for one it covers, sent to its port.
        var options = fetchOptions()
        options.connectTo = [connectEverythingTo(host)]
        let name = host.hasPrefix("*.") ? "harness" + host.dropFirst() : host
        _ = HTTPFetcher(options: options).fetch("https://\(name):\(port(of: host))\(barrier)")
        let deadline = ContinuousClock.now + .seconds(2)
        while true {
            let lines = try folder.read("access.log").split(separator: "\n").map(String.init)
            if let end = lines.firstIndex(where: { $0.hasPrefix("GET \(barrier) ") }) {
                return lines[..<end].filter { !$0.contains("/harness-log-barrier-") }
            }
            guard ContinuousClock.now < deadline else { throw HarnessError("nginx did not log \(barrier)") }
            usleep(5_000)
        }
    }

    /// The requests nginx has completed, as `requests()` reads them, each with its `Host` and
    /// nginx's serial number of the connection that carried it: which requests shared a connection.
    public func requestsByConnection() throws -> [(host: String, connection: Int, path: String)] {
        let count = try requests().count
        let lines = try folder.read("connections.log").split(separator: "\n")
        return try lines.filter { !$0.contains("/harness-log-barrier-") }.prefix(count).map { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let connection = Int(fields[1]) else {
                throw HarnessError("unexpected line in connections.log: \(line)")
            }
            return (String(fields[0]), connection, String(fields[2]))
        }
    }

    /// Stops nginx, waits for it and removes the folder. Safe to call more than once.
    public func stop() {
        if process.isRunning {
            // SIGKILL: nginx inherits the signal mask of the thread that started it, and the test
            // runner's threads block SIGTERM, so it would stay pending. Without a master process
            // this PID is all of nginx.
            kill(processID, SIGKILL)
            process.waitUntilExit()
        }
        folder.remove()
    }

    /// Writes the sites into a new folder and starts nginx on them. Picking a free port and nginx
    /// binding it are two steps, so a port taken in between (by a test running in parallel) is
    /// retried with fresh ports.
    /// With `standardPort`, every site listens on port 443 of its own random 127.x.y.z address
    /// (HTTPS URLs then need no port, as devices fetch them; nginx picks the site by SNI). Binding
    /// port 443 needs root, as CI runs.
    /// `httpDirectives` go verbatim into nginx's `http` block, for what a site's directives refer to
    /// (a `limit_req_zone`, say).
    public static func start(serving sites: [TestSite], standardPort: Bool = false, httpDirectives: String = "")
        throws -> NginxTestServer
    {
        let executable = try locateNginx()
        var attempt = 1
        while true {
            let folder = try TemporaryFolder()
            do {
                let address =
                    standardPort
                    ? "127.\(UInt8.random(in: 1...254)).\(UInt8.random(in: 1...254)).\(UInt8.random(in: 1...254))"
                    : "127.0.0.1"
                return try start(
                    sites, executable: executable, in: folder, address: address, standardPort: standardPort,
                    httpDirectives: httpDirectives)
            } catch let failure as StartFailure where failure.portWasTaken && attempt < 3 {
                folder.remove()
                attempt += 1
            } catch {
                folder.remove()
                throw error
            }
        }
    }

    /// The nginx executable: on `searchPath` (a PATH-style list), then in the sbin folders that
    /// a non-root PATH on Debian leaves out.
    public static func locateNginx(
        searchPath: String = ProcessInfo.processInfo.environment["PATH"] ?? "",
        extraFolders: [String] = ["/usr/sbin", "/usr/local/sbin", "/sbin"]
    ) throws -> String {
        let folders = searchPath.split(separator: ":").map(String.init) + extraFolders
        if let found = folders.map({ $0 + "/nginx" }).first(where: FileManager.default.isExecutableFile(atPath:)) {
            return found
        }
        throw HarnessError(
            "nginx is not installed (looked in \(folders.joined(separator: ":"))). The HTTP tests need a real "
                + "nginx: run scripts/install-deps.sh --for-tests, which installs nginx-light and openssl.")
    }

    private struct StartFailure: Error, CustomStringConvertible {
        let description: String
        var portWasTaken: Bool { description.contains("Address already in use") }
    }

    private static func start(
        _ sites: [TestSite], executable: String, in folder: TemporaryFolder, address: String, standardPort: Bool,
        httpDirectives: String
    ) throws -> NginxTestServer {
        let certificates = try TestCertificates(in: folder.url.appendingPathComponent("tls"))
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("temp"), withIntermediateDirectories: true)
        var portsByHost: [String: Int] = [:]
        var servers: [String] = []
        let ports = standardPort ? Array(repeating: 443, count: sites.count) : try freePorts(sites.count)
        for (index, (site, port)) in zip(sites, ports).enumerated() {
            for host in site.hostNames {
                precondition(portsByHost[host] == nil, "\(host) is served by two test sites")
                portsByHost[host] = port
            }
            let root = folder.url.appendingPathComponent("sites/\(index)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            servers.append(
                try serverBlock(
                    site, index: index, listen: "\(address):\(port)", root: root, certificates: certificates))
        }
        let configuration = try folder.write(
            "nginx.conf", configurationText(servers: servers, folder: folder.url, httpDirectives: httpDirectives))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // -e: errors before the configuration is read go here too, not to /var/log/nginx.
        process.arguments = [
            "-p", folder.url.path, "-c", configuration.path, "-e", folder.url.appendingPathComponent("error.log").path,
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // From here on, the server's deinit stops nginx if it does not come up.
        let server = NginxTestServer(
            folder: folder, certificates: certificates, process: process, ports: portsByHost, address: address,
            tlsHost: sites.first { $0.security != .plaintext }?.hostNames[0])
        try server.waitUntilListening()
        return server
    }

    /// nginx writes its pid file after it has bound every listening socket: once the file holds
    /// our child's PID, every port accepts connections.
    private func waitUntilListening() throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if (try? folder.read("nginx.pid"))?.trimmingCharacters(in: .whitespacesAndNewlines) == String(processID) {
                return
            }
            guard process.isRunning else {
                throw StartFailure(description: "nginx exited at start: \((try? folder.read("error.log")) ?? "")")
            }
            usleep(5_000)
        }
        throw HarnessError("nginx did not start within 5 seconds: \((try? folder.read("error.log")) ?? "")")
    }

    private static func configurationText(servers: [String], folder: URL, httpDirectives: String) -> String {
        let path = { (name: String) in quoted(folder.appendingPathComponent(name).path) }
        return """
            daemon off;
            master_process off;
            pid \(path("nginx.pid"));
            error_log \(path("error.log")) warn;
            events { worker_connections 512; }
            http {
                log_format requests '$request_method $request_uri $http_user_agent';
                access_log \(path("access.log")) requests;
                log_format connections '$host $connection $request_uri';
                access_log \(path("connections.log")) connections;
                client_body_temp_path \(path("temp/body"));
                proxy_temp_path \(path("temp/proxy"));
                fastcgi_temp_path \(path("temp/fastcgi"));
                uwsgi_temp_path \(path("temp/uwsgi"));
                scgi_temp_path \(path("temp/scgi"));
                # Connections stay open however slowly a loaded machine runs a test: tests count
                # them, and nginx's default 75 s would close one between two requests.
                keepalive_timeout 1h;
                keepalive_requests 100000;
                \(httpDirectives)

            \(servers.joined(separator: "\n"))
            }

            """
    }

    private static func serverBlock(
        _ site: TestSite, index: Int, listen: String, root: URL, certificates: TestCertificates
    ) throws -> String {
        var lines: [String] = []
        switch site.security {
        case .plaintext:
            lines.append("listen \(listen);")
        case .trusted, .untrusted:
            let authority =
                site.security == .trusted ? certificates.trustedAuthority : certificates.untrustedAuthority
            let pair = try certificates.serverCertificate(
                named: "site-\(index)", for: site.hostNames, signedBy: authority)
            lines.append("listen \(listen) ssl;")
            lines.append("ssl_certificate \(quoted(pair.certificate.path));")
            lines.append("ssl_certificate_key \(quoted(pair.key.path));")
        }
        lines.append("server_name \(site.hostNames.joined(separator: " "));")
        lines.append("root \(quoted(root.path));")
        for route in site.routes {
            var directives: [String] = []
            switch route.answer {
            case .file(let body, let contentType, let headers, let bytesPerSecond):
                try write(body, at: route.path, under: root)
                // An empty types map makes default_type apply whatever the file's extension.
                directives.append("types { }")
                directives.append("default_type \(quoted(contentType));")
                directives += headers.map { "add_header \(quoted($0.name)) \(quoted($0.value)) always;" }
                if let bytesPerSecond { directives.append("limit_rate \(bytesPerSecond);") }
            case .redirect(let status, let location):
                directives.append("return \(status) \(quoted(location));")
            case .closeWithoutResponse:
                directives.append("return 444;")
            }
            lines.append("location = \(quoted(route.path)) { \(directives.joined(separator: " ")) }")
        }
        for (path, body) in site.documents {
            try write(body, at: path, under: root)
        }
        lines += site.directives.split(separator: "\n").map(String.init)
        return "    server {\n" + lines.map { "        " + $0 }.joined(separator: "\n") + "\n    }"
    }

    private static func write(_ body: [UInt8], at path: String, under root: URL) throws {
        precondition(path.hasPrefix("/") && !path.contains(".."), "bad document path \(path)")
        let file = root.appendingPathComponent(String(path.dropFirst()))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(body).write(to: file)
    }

    /// A double-quoted nginx string. nginx expands `$` in most strings and has no escape for it,
    /// so test values must not contain one.
    private static func quoted(_ text: String) -> String {
        precondition(!text.contains("$") && !text.contains(where: \.isNewline), "cannot quote \(text) for nginx")
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }

    /// `count` distinct TCP ports on 127.0.0.1 that nothing listens on right now: the kernel picks
    /// each for a socket bound to port 0. The sockets stay open until all are picked, so that no
    /// port comes up twice.
    public static func freePorts(_ count: Int) throws -> [Int] {
        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { close(descriptor) } }
        return try (0..<count).map { _ in
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
            descriptors.append(descriptor)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
                }
            }
            guard bound else { throw HarnessError("cannot bind a free port: errno \(errno)") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
}

/// Starts nginx serving `sites`, runs `body` with it, and stops nginx afterwards whether `body`
/// returns or throws (and, through `#expect`, whether its expectations held or not).
public func withNginx<Result>(
    serving sites: [TestSite], standardPort: Bool = false, httpDirectives: String = "",
    _ body: (NginxTestServer) throws -> Result
) throws -> Result {
    let server = try NginxTestServer.start(serving: sites, standardPort: standardPort, httpDirectives: httpDirectives)
    defer { server.stop() }
    return try body(server)
}
