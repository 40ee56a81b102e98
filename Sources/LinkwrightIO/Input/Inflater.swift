import CZlib

/// Why an inflate stopped.
enum InflateFailure: Error, Equatable {
    /// The stream stops before its end: the data was cut short.
    case truncated
    /// zlib rejects the data; `reason` is zlib's own message.
    case damaged(String)
}

/// A zlib inflate stream over one buffer that is entirely in memory from the start, so running
/// out of input always means the data was cut short: no call is ever retried without progress.
final class Inflater {
    /// zlib's wrapper (git objects) or raw DEFLATE (ZIP entries, RFC 1951).
    enum Format { case zlib, raw }

    private let format: Format
    private let input: [UInt8]
    /// zlib's state points back at its `z_stream`, so the stream needs an address that never moves.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var started = false
    private(set) var ended = false

    init(_ input: [UInt8], format: Format) {
        self.input = input
        self.format = format
        stream.initialize(to: z_stream())
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deallocate()
    }

    var inputLeft: Int { Int(stream.pointee.avail_in) }

    func start() throws(InflateFailure) {
        guard (format == .zlib ? czlib_inflate_init(stream) : czlib_inflate_init_raw(stream)) == Z_OK else {
            throw .damaged("zlib cannot start")
        }
        started = true
        // Only the count is kept between calls: `next_in` is pointed into `input` for each call,
        // because an array's storage address is only valid inside `withUnsafeBufferPointer`.
        stream.pointee.avail_in = UInt32(input.count)
    }

    /// Up to `limit` more inflated bytes: fewer only when the stream ends. Throws when the input
    /// runs out first (`.truncated`) or zlib rejects it.
    func inflate(atMost limit: Int) throws(InflateFailure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: limit)
        var produced = 0
        while produced < limit && !ended {
            let before = (stream.pointee.avail_in, produced)
            let code = input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target in
                    let consumed = source.count - Int(stream.pointee.avail_in)
                    stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress.map { $0 + consumed })
                    stream.pointee.next_out = target.baseAddress.map { $0 + produced }
                    stream.pointee.avail_out = UInt32(limit - produced)
                    defer {
                        stream.pointee.next_in = nil
                        stream.pointee.next_out = nil
                    }
                    return CZlib.inflate(stream, Z_NO_FLUSH)
                }
            }
            produced = limit - Int(stream.pointee.avail_out)
            switch code {
            case Z_STREAM_END:
                ended = true
            case Z_OK, Z_BUF_ERROR:
                // All the input is there from the start, so stopping with output room left after
                // using it all, or without progress (where libgit2 1.5 loops), means it was cut short.
                if produced < limit && (stream.pointee.avail_in == 0 || before == (stream.pointee.avail_in, produced)) {
                    throw .truncated
                }
            default:
                throw .damaged(stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)")
            }
        }
        return Array(output[..<produced])
    }
}
