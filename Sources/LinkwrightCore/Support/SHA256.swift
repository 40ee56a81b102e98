/// SHA-256 (FIPS 180-4), for the content hashes `build` records in its manifest: the output
/// folder can then be checked with `sha256sum -c`, and a file is removed only when its bytes are
/// still the ones linkwright wrote.
public enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The digest of `bytes` as 64 lowercase hex digits, as `sha256sum` prints it.
    public static func hex(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest(bytes) {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var state = State()
        bytes.withUnsafeBufferPointer { input in
            let whole = input.count - input.count % 64
            // The message's whole blocks are read in place; only the last one or two, padded,
            // are copied: artifacts are tens of kilobytes, hashed on the way to the disk.
            var start = 0
            while start < whole {
                state.compress(UnsafeBufferPointer(rebasing: input[start..<start + 64]))
                start += 64
            }
            // Padding: a 1 bit, zeros to 56 mod 64 bytes, then the message length in bits, big-endian.
            var tail = Array(input[whole...])
            tail.append(0x80)
            while tail.count % 64 != 56 { tail.append(0) }
            let bitLength = UInt64(input.count) &* 8
            for shift in stride(from: 56, through: 0, by: -8) {
                tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
            }
            tail.withUnsafeBufferPointer { padded in
                for blockStart in stride(from: 0, to: padded.count, by: 64) {
                    state.compress(UnsafeBufferPointer(rebasing: padded[blockStart..<blockStart + 64]))
                }
            }
        }
        return state.words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    private struct State {
        var words: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        /// The message schedule, kept between blocks so that each block needs no allocation.
        var schedule = [UInt32](repeating: 0, count: 64)

        /// Mixes one 64-byte block into the state.
        mutating func compress(_ block: UnsafeBufferPointer<UInt8>) {
            schedule.withUnsafeMutableBufferPointer { schedule in
                for index in 0..<16 {
                    let offset = index * 4
                    schedule[index] =
                        UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16
                        | UInt32(block[offset + 2]) << 8 | UInt32(block[offset + 3])
                }
                for index in 16..<64 {
                    let previous = schedule[index - 15]
                    let recent = schedule[index - 2]
                    let sigma0 = rotate(previous, 7) ^ rotate(previous, 18) ^ (previous &>> 3)
                    let sigma1 = rotate(recent, 17) ^ rotate(recent, 19) ^ (recent &>> 10)
                    schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
                }
                words.withUnsafeMutableBufferPointer { state in
                    SHA256.roundConstants.withUnsafeBufferPointer { constants in
                        var (a, b, c, d, e, f, g, h) = (
                            state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
                        )
                        // Eight rounds a step, each naming the state's words where the round
                        // before left them, so no word is moved between rounds.
                        var index = 0
                        while index < 64 {
                            SHA256.mix(a, b, c, &d, e, f, g, &h, constants[index] &+ schedule[index])
                            SHA256.mix(h, a, b, &c, d, e, f, &g, constants[index + 1] &+ schedule[index + 1])
                            SHA256.mix(g, h, a, &b, c, d, e, &f, constants[index + 2] &+ schedule[index + 2])
                            SHA256.mix(f, g, h, &a, b, c, d, &e, constants[index + 3] &+ schedule[index + 3])
                            SHA256.mix(e, f, g, &h, a, b, c, &d, constants[index + 4] &+ schedule[index + 4])
                            SHA256.mix(d, e, f, &g, h, a, b, &c, constants[index + 5] &+ schedule[index + 5])
                            SHA256.mix(c, d, e, &f, g, h, a, &b, constants[index + 6] &+ schedule[index + 6])
                            SHA256.mix(b, c, d, &e, f, g, h, &a, constants[index + 7] &+ schedule[index + 7])
                            index += 8
                        }
                        state[0] &+= a
                        state[1] &+= b
                        state[2] &+= c
                        state[3] &+= d
                        state[4] &+= e
                        state[5] &+= f
                        state[6] &+= g
                        state[7] &+= h
                    }
                }
            }
        }
    }

    /// One round: `d` and `h` are the words it changes (FIPS 180-4, 6.2.2, step 3, with the
    /// other words renamed rather than moved).
    @inline(__always)
    private static func mix(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ constantAndWord: UInt32
    ) {
        let first = h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ ((e & f) ^ (~e & g)) &+ constantAndWord
        d = d &+ first
        h = first &+ (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value &>> count | value &<< (32 - count) }
}
