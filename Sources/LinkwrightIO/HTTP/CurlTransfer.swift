import CCurl
import Foundation

/// Process-wide libcurl state.
enum LibCurl {
    /// `curl_global_init` must run once, before any other libcurl call, and is not thread-safe. A
    /// `static let` initialiser runs exactly once, thread-safely, and `HTTPFetcher` reads it on
    /// the caller's thread before it starts fetch threads. libcurl is never cleaned up: the
    /// process owns it until exit.
    static let initialization: CURLcode = curl_global_init(ccurl_global_default())
}

/// One GET on its own easy handle, from creation to cleanup on the calling thread.
struct CurlTransfer {
    let url: String
    let options: HTTPFetchOptions

    func run() -> HTTPFetchResult {
        guard LibCurl.initialization == CURLE_OK else {
            return .failure(failure(.other, LibCurl.initialization, detail: "libcurl cannot be initialised"))
        }
        guard let handle = curl_easy_init() else {
            return .failure(failure(.other, CURLE_FAILED_INIT, detail: "libcurl cannot create a transfer"))
        }
        defer { curl_easy_cleanup(handle) }
        var resolveList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(resolveList) }
        for override in options.resolveOverrides {
            // On failure curl_slist_append returns NULL and leaves the list as it was.
            guard let appended = curl_slist_append(resolveList, override.description) else {
                return .failure(failure(.other, CURLE_OUT_OF_MEMORY, detail: "out of memory"))
            }
            resolveList = appended
        }
        let sink = TransferSink(maximumBodySize: max(0, options.maximumBodySize))
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE))
        return withExtendedLifetime(sink) {
            errorBuffer.withUnsafeMutableBufferPointer { errorBuffer in
                do throws(OptionFailure) {
                    try configure(handle, sink: sink, resolveList: resolveList, errorBuffer: errorBuffer.baseAddress!)
                } catch {
                    return .failure(failure(.other, error.code, detail: "cannot set \(error.option)"))
                }
                let code = curl_easy_perform(handle)
                // Cutting the body at the cap makes the write callback refuse bytes, which libcurl
                // reports as a write error: the response itself is complete up to the cap.
                guard code == CURLE_OK || (code == CURLE_WRITE_ERROR && sink.isBodyTruncated) else {
                    let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer.baseAddress!) : curlMessage(code)
                    return .failure(failure(kind(of: code, detail: detail, handle), code, detail: detail))
                }
                return .success(response(handle, sink))
            }
        }
    }

    private struct OptionFailure: Error {
        let code: CURLcode
        let option: String
    }

    private func configure(
        _ handle: UnsafeMutableRawPointer, sink: TransferSink, resolveList: UnsafeMutablePointer<curl_slist>?,
        errorBuffer: UnsafeMutablePointer<CChar>
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
        if let resolveList {
            try check(ccurl_setopt_slist(handle, CURLOPT_RESOLVE, resolveList), "the resolve overrides")
        }
        // An empty proxy disables the proxy variables of the environment.
        try check(ccurl_setopt_string(handle, CURLOPT_PROXY, ""), "no proxy")
        try check(
            ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(options.connectTimeout)),
            "the connect timeout")
        try check(ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(options.totalTimeout)), "the timeout")
        // Timeouts must not use signals: fetches run on several threads.
        try check(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "no signals")
        try check(ccurl_setopt_string(handle, CURLOPT_USERAGENT, options.userAgent), "the User-Agent")
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

    private func response(_ handle: UnsafeMutableRawPointer, _ sink: TransferSink) -> HTTPResponse {
        let status = long(handle, CURLINFO_RESPONSE_CODE)
        return HTTPResponse(
            url: url,
            effectiveURL: string(handle, CURLINFO_EFFECTIVE_URL) ?? url,
            status: status,
            headers: HTTPHeaders(sink.headerFields),
            body: sink.body,
            isBodyTruncated: sink.isBodyTruncated,
            redirectLocation: (300..<400).contains(status) ? string(handle, CURLINFO_REDIRECT_URL) : nil,
            timings: HTTPTimings(
                nameLookup: duration(handle, CURLINFO_NAMELOOKUP_TIME_T),
                connect: duration(handle, CURLINFO_CONNECT_TIME_T),
                tlsHandshake: duration(handle, CURLINFO_APPCONNECT_TIME_T),
                firstByte: duration(handle, CURLINFO_STARTTRANSFER_TIME_T),
                total: duration(handle, CURLINFO_TOTAL_TIME_T)))
    }

    private func kind(of code: CURLcode, detail: String, _ handle: UnsafeMutableRawPointer) -> HTTPFetchFailure.Kind {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidURL
        case CURLE_SSL_CACERT_BADFILE:
            return .unreadableCABundle
        case CURLE_COULDNT_RESOLVE_HOST:
            return .dnsFailure
        case CURLE_COULDNT_CONNECT:
            return long(handle, CURLINFO_OS_ERRNO) == Int(ECONNREFUSED) ? .connectionRefused : .connectionFailed
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

    private func failure(_ kind: HTTPFetchFailure.Kind, _ code: CURLcode, detail: String) -> HTTPFetchFailure {
        HTTPFetchFailure(kind: kind, url: url, curlCode: Int(code.rawValue), detail: detail)
    }

    private func curlMessage(_ code: CURLcode) -> String { String(cString: curl_easy_strerror(code)) }

    private func long(_ handle: UnsafeMutableRawPointer, _ info: CURLINFO) -> Int {
        var value = 0
        return ccurl_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
    }

    private func string(_ handle: UnsafeMutableRawPointer, _ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    private func duration(_ handle: UnsafeMutableRawPointer, _ info: CURLINFO) -> Duration {
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
/// through an unretained pointer, so the transfer keeps it alive around `curl_easy_perform`.
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
