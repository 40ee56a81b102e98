import CCurl
import Foundation

/// Process-wide libcurl state.
enum LibCurl {
    /// `curl_global_init` must run once, before any other libcurl call, and is not thread-safe. A
    /// `static let` initialiser runs exactly once, thread-safely, and `MultiTransfer` reads it
    /// before it creates any handle. libcurl is never cleaned up: the process owns it until exit.
    static let initialization: CURLcode = curl_global_init(ccurl_global_default())
}

/// One GET on an easy handle of its own, configured for `MultiTransfer` to run: created with
/// every option set, read once libcurl says it ended, cleaned up when released.
final class CurlTransfer {
    let url: String
    let handle: UnsafeMutableRawPointer
    private let sink: TransferSink
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// A configured transfer, or why none can be made. `lists` must outlive it. With
    /// `closesConnection` its connection is closed when it ends instead of kept for reuse.
    static func make(
        url: String, options: HTTPFetchOptions, lists: CurlLists, closesConnection: Bool = false
    ) -> Result<CurlTransfer, HTTPFetchFailure> {
        guard LibCurl.initialization == CURLE_OK else {
            return .failure(failure(url, .other, LibCurl.initialization, detail: "libcurl cannot be initialised"))
        }
        guard let handle = curl_easy_init() else {
            return .failure(failure(url, .other, CURLE_FAILED_INIT, detail: "libcurl cannot create a transfer"))
        }
        let transfer = CurlTransfer(url: url, handle: handle, maximumBodySize: options.maximumBodySize)
        do throws(OptionFailure) {
            try transfer.configure(options, lists, closesConnection: closesConnection)
        } catch {
            return .failure(failure(url, .other, error.code, detail: "cannot set \(error.option)"))
        }
        return .success(transfer)
    }

    private init(url: String, handle: UnsafeMutableRawPointer, maximumBodySize: Int) {
        self.url = url
        self.handle = handle
        sink = TransferSink(maximumBodySize: max(0, maximumBodySize))
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    /// The caller has removed the handle from its multi handle first.
    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// The outcome, once libcurl has ended the transfer with `code`.
    func result(_ code: CURLcode) -> HTTPFetchResult {
        // Cutting the body at the cap makes the write callback refuse bytes, which libcurl
        // reports as a write error: the response itself is complete up to the cap.
        guard code == CURLE_OK || (code == CURLE_WRITE_ERROR && sink.isBodyTruncated) else {
            let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : Self.curlMessage(code)
            return .failure(Self.failure(url, kind(of: code, detail: detail), code, detail: detail))
        }
        return .success(response())
    }

    /// The connection carries several requests at once (HTTP/2 or HTTP/3).
    var isMultiplexed: Bool {
        let version = long(CURLINFO_HTTP_VERSION)
        return version == ccurl_http_version_2() || version == ccurl_http_version_3()
    }

    private struct OptionFailure: Error {
        let code: CURLcode
        let option: String
    }

    private func configure(
        _ options: HTTPFetchOptions, _ lists: CurlLists, closesConnection: Bool
    ) throws(OptionFailure) {
        func check(_ code: CURLcode, _ option: String) throws(OptionFailure) {
            guard code == CURLE_OK else { throw OptionFailure(code: code, option: option) }
        }
        try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "the error buffer")
        try check(ccurl_setopt_string(handle, CURLOPT_URL, url), "the URL")
        try check(ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "https"), "HTTPS as the only protocol")
        try check(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0), "no redirects")
        try check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1), "certificate verification")
        try check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2), "host name verification")
        if let caBundlePath = options.caBundlePath {
            try check(ccurl_setopt_string(handle, CURLOPT_CAINFO, caBundlePath), "the CA bundle")
            // Without this the system's CA folder would still be trusted alongside the bundle.
            try check(ccurl_setopt_string(handle, CURLOPT_CAPATH, nil), "no CA folder")
        }
        if let resolve = lists.resolve {
            try check(ccurl_setopt_slist(handle, CURLOPT_RESOLVE, resolve), "the resolve overrides")
        }
        if let connectTo = lists.connectTo(for: url) {
            try check(ccurl_setopt_slist(handle, CURLOPT_CONNECT_TO, connectTo), "the connect-to entries")
        }
        // HTTP/2 where the server offers it (ALPN), and a new transfer to a host whose connection
        // is still being set up waits to share it rather than opening a second one
        // (CURLOPT_PIPEWAIT): one connection per host. libcurl groups connections by where they
        // go, so with `connectTo` every host would wait for every other host's handshake; the
        // scheduler then keeps to one connection per host alone.
        try check(ccurl_setopt_long(handle, CURLOPT_HTTP_VERSION, ccurl_http_version_2tls()), "HTTP/2 over TLS")
        if !lists.hasConnectTo {
            try check(ccurl_setopt_long(handle, CURLOPT_PIPEWAIT, 1), "waiting for multiplexing")
        }
        if closesConnection {
            try check(ccurl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1), "closing the connection after it")
        }
        // An empty proxy disables the proxy variables of the environment.
        try check(ccurl_setopt_string(handle, CURLOPT_PROXY, ""), "no proxy")
        try check(
            ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(options.connectTimeout)),
            "the connect timeout")
        try check(ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(options.totalTimeout)), "the timeout")
        // Timeouts must not use signals: callers may fetch on several threads.
        try check(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "no signals")
        try check(ccurl_setopt_string(handle, CURLOPT_USERAGENT, options.userAgent), "the User-Agent")
        // The transfer owns the sink and outlives the handle's use, so an unretained pointer is safe.
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
        try check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, sinkPointer), "the body sink")
        try check(
            ccurl_setopt_write_function(handle) { data, size, count, sinkPointer in
                let sink = Unmanaged<TransferSink>.fromOpaque(sinkPointer!).takeUnretainedValue()
                let length = size * count
                // Returning fewer bytes than given makes libcurl stop the transfer.
                return sink.appendBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
            }, "the body callback")
        try check(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, sinkPointer), "the header sink")
        try check(
            ccurl_setopt_header_function(handle) { data, size, count, sinkPointer in
                let sink = Unmanaged<TransferSink>.fromOpaque(sinkPointer!).takeUnretainedValue()
                let length = size * count
                sink.appendHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
                return length
            }, "the header callback")
    }

    private func response() -> HTTPResponse {
        let status = long(CURLINFO_RESPONSE_CODE)
        return HTTPResponse(
            url: url,
            effectiveURL: string(CURLINFO_EFFECTIVE_URL) ?? url,
            status: status,
            headers: HTTPHeaders(sink.headerFields),
            body: sink.body,
            isBodyTruncated: sink.isBodyTruncated,
            redirectLocation: (300..<400).contains(status) ? string(CURLINFO_REDIRECT_URL) : nil,
            timings: HTTPTimings(
                nameLookup: duration(CURLINFO_NAMELOOKUP_TIME_T),
                connect: duration(CURLINFO_CONNECT_TIME_T),
                tlsHandshake: duration(CURLINFO_APPCONNECT_TIME_T),
                firstByte: duration(CURLINFO_STARTTRANSFER_TIME_T),
                total: duration(CURLINFO_TOTAL_TIME_T)))
    }

    private func kind(of code: CURLcode, detail: String) -> HTTPFetchFailure.Kind {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidURL
        case CURLE_SSL_CACERT_BADFILE:
            return .unreadableCABundle
        case CURLE_COULDNT_RESOLVE_HOST:
            return .dnsFailure
        case CURLE_COULDNT_CONNECT:
            return long(CURLINFO_OS_ERRNO) == Int(ECONNREFUSED) ? .connectionRefused : .connectionFailed
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return .connectionFailed
        case CURLE_PEER_FAILED_VERIFICATION:
            // libcurl checks the host name itself, before it reads OpenSSL's chain verdict, so
            // CURLINFO_SSL_VERIFYRESULT cannot tell the two apart; its messages can, and every
            // host name message of libcurl's names the "target host name".
            return detail.contains("target host name") ? .hostnameMismatch : .untrustedCertificate
        case CURLE_SSL_CONNECT_ERROR:
            return .tlsHandshake
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING,
            CURLE_BAD_CONTENT_ENCODING:
            return .protocolError
        default:
            return .other
        }
    }

    static func failure(_ url: String, _ kind: HTTPFetchFailure.Kind, _ code: CURLcode, detail: String)
        -> HTTPFetchFailure
    {
        HTTPFetchFailure(kind: kind, url: url, curlCode: Int(code.rawValue), detail: detail)
    }

    static func curlMessage(_ code: CURLcode) -> String { String(cString: curl_easy_strerror(code)) }

    private func long(_ info: CURLINFO) -> Int {
        var value = 0
        return ccurl_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
    }

    private func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    private func duration(_ info: CURLINFO) -> Duration {
        var microseconds: curl_off_t = 0
        return ccurl_getinfo_off_t(handle, info, &microseconds) == CURLE_OK ? .microseconds(microseconds) : .zero
    }

    /// libcurl reads 0 as "no timeout", so the shortest timeout is 1 ms.
    private func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? Int.max : max(1, Int(milliseconds + attoseconds / 1_000_000_000_000_000))
    }
}

/// What the callbacks collect during one transfer. One thread uses it; the C callbacks reach it
/// through an unretained pointer, so its `CurlTransfer` keeps it alive as long as the handle.
private final class TransferSink {
    let maximumBodySize: Int
    private(set) var body: [UInt8] = []
    private(set) var isBodyTruncated = false
    private(set) var headerFields: [HTTPHeaders.Field] = []

    init(maximumBodySize: Int) { self.maximumBodySize = maximumBodySize }

    /// Keeps `bytes` up to the cap. False once the cap is crossed: reading stops there.
    func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let room = maximumBodySize - body.count
        guard bytes.count > room else {
            body.append(contentsOf: bytes)
            return true
        }
        body.append(contentsOf: bytes.prefix(room))
        isBodyTruncated = true
        return false
    }

    /// Takes one header line as libcurl delivers it: the status line, a field, or the blank end.
    func appendHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        var line = Array(bytes)
        while let last = line.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else { return }
        // A new status line starts another response (after a 1xx): only the final one's fields count.
        if line.starts(with: "HTTP/".utf8) {
            headerFields.removeAll()
            return
        }
        let text = Self.decode(line)
        if text.first == " " || text.first == "\t", let previous = headerFields.popLast() {
            // Obsolete line folding: the line continues the previous field's value.
            let value = previous.value + " " + text.trimmingHTTPWhitespace()
            headerFields.append(HTTPHeaders.Field(name: previous.name, value: value))
            return
        }
        guard let colon = text.firstIndex(of: ":") else { return }
        headerFields.append(
            HTTPHeaders.Field(
                name: text[..<colon].trimmingHTTPWhitespace(),
                value: text[text.index(after: colon)...].trimmingHTTPWhitespace()))
    }

    /// Header bytes as UTF-8 when valid, else as ISO-8859-1 (HTTP's historical charset), which
    /// maps every byte to a character so that nothing is lost.
    private static func decode(_ bytes: [UInt8]) -> String {
        String(validating: bytes, as: UTF8.self)
            ?? String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
