import Foundation

/// Throwaway certificate authorities and server certificates, made with the openssl CLI in a
/// folder of the caller's. EC P-256 keys keep generation to a few milliseconds per certificate.
public struct TestCertificates {
    /// A certificate and its private key, as PEM files.
    public struct Pair: Sendable {
        public let certificate: URL
        public let key: URL
    }

    /// The authority clients are told to trust (`HTTPFetchOptions.caBundlePath`).
    public let trustedAuthority: Pair
    /// A second authority that no client trusts.
    public let untrustedAuthority: Pair
    private let folder: URL

    public init(in folder: URL) throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        trustedAuthority = try Self.makeAuthority(named: "trusted-ca", in: folder)
        untrustedAuthority = try Self.makeAuthority(named: "untrusted-ca", in: folder)
    }

    /// A server certificate for `hostNames` (its subject alternative names), signed by `authority`.
    public func serverCertificate(named name: String, for hostNames: [String], signedBy authority: Pair) throws -> Pair
    {
        let pair = Pair(
            certificate: folder.appendingPathComponent("\(name).pem"), key: folder.appendingPathComponent("\(name).key")
        )
        let configuration = folder.appendingPathComponent("\(name).cnf")
        // A configuration file of our own: the system's openssl.cnf would add CA extensions.
        try Data(
            """
            [req]
            distinguished_name = subject
            prompt = no
            x509_extensions = server
            [subject]
            CN = \(hostNames[0])
            [server]
            basicConstraints = critical,CA:FALSE
            keyUsage = critical,digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = \(hostNames.map { "DNS:\($0)" }.joined(separator: ","))
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid

            """.utf8
        ).write(to: configuration)
        try Self.openssl(
            "req", "-x509", "-config", configuration.path, "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
            "-nodes", "-keyout", pair.key.path, "-out", pair.certificate.path, "-days", "2",
            "-CA", authority.certificate.path, "-CAkey", authority.key.path)
        return pair
    }

    private static func makeAuthority(named name: String, in folder: URL) throws -> Pair {
        let pair = Pair(
            certificate: folder.appendingPathComponent("\(name).pem"), key: folder.appendingPathComponent("\(name).key")
        )
        try openssl(
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", pair.key.path, "-out", pair.certificate.path, "-days", "2",
            "-subj", "/CN=Linkwright Test \(name)",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        return pair
    }

    private static func openssl(_ arguments: String...) throws {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments)
        guard result.status == 0 else {
            throw HarnessError("openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(result)")
        }
    }
}

/// The harness cannot set up what a test asked for.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
