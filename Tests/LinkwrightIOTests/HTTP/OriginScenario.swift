import LinkwrightIO
import LinkwrightTestSupport

/// What most HTTP tests serve: a correct origin and its misconfigured variants, a site whose
/// certificate no client trusts, a site without TLS, and a stand-in for Apple's CDN.
enum OriginScenario {
    static let origin = "museo.example"
    static let untrusted = "untrusted.example"
    static let plaintext = "plaintext.example"
    static let cdn = "app-site-association.cdn-apple.com"

    static let aasa =
        #"{"applinks":{"details":[{"appIDs":["A1B2C3D4E5.com.example.museo"],"components":[{"/":"/exhibits/*"}]}]}}"#
    static let staleAASA = #"{"applinks":{"details":[{"appIDs":["A1B2C3D4E5.com.example.museo"],"components":[]}]}}"#
    static let assetLinks = #"""
        [{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.museo","sha256_cert_fingerprints":["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]
        """#
    static let invalidJSON = #"[{"relation":["delegate_permission/common.handle_all_urls"],"#
    /// 200,000 bytes that are not all alike, so a wrong cut shows.
    static let oversize = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    static let atCap = [UInt8](repeating: UInt8(ascii: " "), count: HTTPFetchOptions.defaultMaximumBodySize)
    /// Served at 1,000 bytes per second: nginx sends the first 1,000 and then waits one second.
    static let paced = [UInt8](repeating: UInt8(ascii: " "), count: 1_500)
    /// Served at 1,024 bytes per second: a minute.
    static let slow = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)

    static let cdnHeaders: [(name: String, value: String)] = [
        ("Apple-Failure-Reason", "SWCERR00301 Timeout"),
        ("Apple-Failure-Details", #"{"cause":"context deadline exceeded"}"#),
        ("Apple-From", "https://museo.example/.well-known/apple-app-site-association"),
        ("Age", "86400"),
        ("Cache-Control", "max-age=3600"),
        ("Vary", "Accept-Encoding"),
        ("Vary", "Origin"),
    ]

    static let sites = [
        TestSite(
            [origin],
            routes: [
                .file("/.well-known/apple-app-site-association", aasa, contentType: "application/json"),
                .file("/.well-known/assetlinks.json", assetLinks, contentType: "application/json"),
                .redirect(
                    "/moved/apple-app-site-association", status: 301, to: "/.well-known/apple-app-site-association"),
                .redirect("/found/assetlinks.json", status: 302, to: "/.well-known/assetlinks.json"),
                .file("/html/apple-app-site-association", aasa, contentType: "text/html"),
                .file("/octet-stream/apple-app-site-association", aasa, contentType: "application/octet-stream"),
                .file("/charset/assetlinks.json", assetLinks, contentType: "Application/JSON; charset=utf-8"),
                .file("/invalid-json/assetlinks.json", invalidJSON, contentType: "application/json"),
                .file("/oversize/apple-app-site-association", oversize, contentType: "application/json"),
                .file("/at-cap/apple-app-site-association", atCap, contentType: "application/json"),
                .file(
                    "/paced/apple-app-site-association", paced, contentType: "application/json", bytesPerSecond: 1_000),
                .file("/slow/apple-app-site-association", slow, contentType: "application/json", bytesPerSecond: 1_024),
                .closeWithoutResponse("/closed/apple-app-site-association"),
            ]),
        TestSite(
            [untrusted], security: .untrusted,
            routes: [.file("/.well-known/apple-app-site-association", aasa, contentType: "application/json")]),
        TestSite(
            [plaintext], security: .plaintext,
            routes: [.file("/.well-known/apple-app-site-association", aasa, contentType: "application/json")]),
        TestSite(
            [cdn],
            routes: [.file("/a/v1/museo.example", staleAASA, contentType: "application/json", headers: cdnHeaders)]),
    ]
}

extension Result {
    /// The success value, for expectations on it; nil for a failure.
    var value: Success? { try? get() }

    /// The failure, for expectations on it; nil for a success.
    var error: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
