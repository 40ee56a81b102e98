/// Punycode (RFC 3492), the encoding of internationalised host labels as `xn--` ASCII labels.
///
/// Both directions take time in the label's length times its number of distinct non-ASCII
/// characters, so callers bound the label first: `Host.parse` refuses labels that cannot fit in
/// 63 characters before it encodes or decodes anything.
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128

    /// The prefix of an ASCII-compatible encoding (RFC 5890 §2.3.2.1).
    static let acePrefix = "xn--"

    /// The ASCII form of one label: unchanged when it is ASCII, `xn--…` otherwise.
    static func asciiLabel(_ label: String) -> String {
        let scalars = Array(label.unicodeScalars)
        guard scalars.contains(where: { !$0.isASCII }) else { return label }
        return acePrefix + encode(scalars)
    }

    /// RFC 3492 §6.3. Each round handles the smallest code point not yet handled, so the
    /// distinct non-ASCII values are sorted once rather than searched for in every round.
    static func encode(_ input: [Unicode.Scalar]) -> String {
        var output = String(String.UnicodeScalarView(input.filter(\.isASCII)))
        let basicCount = output.unicodeScalars.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN
        var delta = 0
        var bias = initialBias
        for next in Set(input.lazy.map { Int($0.value) }.filter { $0 >= initialN }).sorted() {
            delta += (next - n) * (handled + 1)
            n = next
            for scalar in input {
                let value = Int(scalar.value)
                if value < n { delta += 1 }
                guard value == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = threshold(k, bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta: delta, count: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return output
    }

    /// RFC 3492 §6.2, for lowercase input such as a host label after its `xn--`. `nil` when the
    /// text is not Punycode: a non-digit, a number that overflows, or a code point that is ASCII
    /// or not a Unicode scalar.
    static func decode(_ input: Substring) -> [Unicode.Scalar]? {
        let scalars = Array(input.unicodeScalars)
        let delimiter = scalars.lastIndex(of: "-")
        var output = Array(scalars[..<(delimiter ?? 0)])
        guard output.allSatisfy(\.isASCII) else { return nil }
        var position = delimiter.map { $0 + 1 } ?? 0
        var n = initialN
        var i = 0
        var bias = initialBias
        while position < scalars.count {
            let oldI = i
            var weight = 1
            var k = base
            while true {
                guard position < scalars.count, let value = digitValue(scalars[position]) else { return nil }
                position += 1
                let (product, productOverflow) = value.multipliedReportingOverflow(by: weight)
                let (sum, sumOverflow) = i.addingReportingOverflow(product)
                guard !productOverflow, !sumOverflow else { return nil }
                i = sum
                let t = threshold(k, bias)
                if value < t { break }
                let (nextWeight, weightOverflow) = weight.multipliedReportingOverflow(by: base - t)
                guard !weightOverflow else { return nil }
                weight = nextWeight
                k += base
            }
            let count = output.count + 1
            bias = adapt(delta: i - oldI, count: count, first: oldI == 0)
            let (next, overflow) = n.addingReportingOverflow(i / count)
            guard !overflow, next >= initialN, let scalar = Unicode.Scalar(UInt32(clamping: next)) else { return nil }
            n = next
            i %= count
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }

    private static func threshold(_ k: Int, _ bias: Int) -> Int {
        k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
    }

    private static func digit(_ value: Int) -> Character {
        Character(Unicode.Scalar(UInt8(value < 26 ? value + 97 : value + 22)))
    }

    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar {
        case "a"..."z": Int(scalar.value) - 97
        case "0"..."9": Int(scalar.value) - 22
        default: nil
        }
    }

    private static func adapt(delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
