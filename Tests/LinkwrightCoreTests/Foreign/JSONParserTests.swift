import Foundation
import LinkwrightCore
import Testing

private func parse(_ text: String, parser: JSONParser = JSONParser()) -> (JSONNode?, [Diagnostic]) {
    parser.parse(Array(text.utf8), file: "f.json")
}

/// The single error of an input that does not parse, as (id, line, column).
private func failure(_ bytes: [UInt8], parser: JSONParser = JSONParser()) -> (String, Int, Int)? {
    let (root, diagnostics) = parser.parse(bytes, file: "f.json")
    guard root == nil, let error = diagnostics.last, error.severity == .error, let location = error.location else {
        return nil
    }
    return (error.id.rawValue, location.line, location.column)
}

private func failure(_ text: String) -> (String, Int, Int)? { failure(Array(text.utf8)) }

@Suite("JSON parser")
struct JSONParserTests {
    @Test func valuesAndPositions() throws {
        let (root, diagnostics) = parse("{\n  \"a\": [1, -2.5e3, true, null],\n  \"é\": \"x\\u00e9\\ud83d\\ude00\"\n}")
        #expect(diagnostics.isEmpty)
        guard case .object(let members) = try #require(root).value else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["a", "é"])
        #expect(members[0].keyLocation.line == 2 && members[0].keyLocation.column == 3)
        guard case .array(let items) = members[0].value.value else {
            Issue.record("expected an array")
            return
        }
        #expect(items.map(\.value) == [.number("1"), .number("-2.5e3"), .bool(true), .null])
        #expect(items[1].location.column == 12)
        #expect(members[1].value.value == .string("xé😀"))
        // Columns count scalars: "é" is one column although it is two bytes.
        #expect(members[1].value.location.column == 8)
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "trailing comma"),
        ("[1, 2,]", 1, 7, "trailing comma"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "missing comma"),
        ("{\n  // note\n  \"a\": 1}", 2, 3, "comment"),
        ("{'a': 1}", 1, 2, "single quotes"),
        ("[01]", 1, 3, "leading zero"),
        ("[1.]", 1, 4, "digit after point"),
        ("[\"a\nb\"]", 1, 4, "line feed in a string"),
        ("[\"\\ud800\"]", 1, 3, "unpaired surrogate"),
        ("[\"\\x\"]", 1, 3, "unknown escape"),
        ("[tru]", 1, 5, "bad literal"),
        ("{\"a\": 1} x", 1, 10, "trailing text"),
        ("", 1, 1, "empty"),
        ("[1, 2", 1, 6, "unterminated array"),
        ("{\"a\" 1}", 1, 6, "missing colon"),
    ])
    func errorsAreLocated(text: String, line: Int, column: Int, what: String) {
        let result = failure(text)
        #expect(result?.0 == "INVALID_JSON", "\(what)")
        #expect(result?.1 == line && result?.2 == column, "\(what): \(String(describing: result))")
    }

    // The history of 5calls (corpus) had a trailing comma after the last component.
    @Test func errorsHaveHints() {
        let (_, diagnostics) = parse("{\"a\": [1,]}")
        #expect(diagnostics.first?.hint?.contains("remove the comma") == true)
    }

    @Test func invalidUTF8IsLocated() {
        let bytes = Array("{\n \"a\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        #expect(failure(bytes)! == ("INVALID_JSON", 2, 8))
    }

    @Test func utf16IsRefused() {
        #expect(failure([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00])?.0 == "INVALID_JSON")
    }

    // RFC 8259 §8.1 lets parsers ignore a BOM; Apple's JSONSerialization accepts one.
    @Test func byteOrderMarkIsSkippedWithAWarning() throws {
        let (root, diagnostics) = JSONParser().parse([0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8), file: "f.json")
        #expect(try #require(root).location.column == 1)
        #expect(diagnostics.map(\.id) == [.byteOrderMark])
        #expect(diagnostics.first?.severity == .warning)
    }

    @Test func duplicateKeysKeepTheLastValue() throws {
        let (root, diagnostics) = parse("{\"a\": 1, \"b\": 2,\n \"a\": 3}")
        guard case .object(let members) = try #require(root).value else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members[1].value.value == .number("3"))
        #expect(diagnostics.map(\.id) == [.duplicateJSONKey])
        #expect(diagnostics.first?.location?.line == 2)
    }

    /// Two spellings of one text are two keys: a query dictionary linkwright writes for `café`
    /// precomposed and decomposed keeps both items when `match` reads it back.
    @Test func canonicallyEquivalentKeysAreTwoKeys() throws {
        let (root, diagnostics) = parse("{\"caf\u{E9}\": \"?*\", \"cafe\u{301}\": \"x*\"}")
        guard case .object(let members) = try #require(root).value else {
            Issue.record("expected an object")
            return
        }
        #expect(
            members.map { Array($0.key.unicodeScalars) } == [
                Array("caf\u{E9}".unicodeScalars), Array("cafe\u{301}".unicodeScalars),
            ])
        #expect(diagnostics.isEmpty)
    }

    @Test func depthAndSizeAreCapped() {
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        #expect(failure(deep)?.0 == "NESTING_TOO_DEEP")
        let nested = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        #expect(parse(nested).0 != nil)
        #expect(failure(Array("[1, 2, 3]".utf8), parser: JSONParser(maximumBytes: 4))?.0 == "FILE_TOO_LARGE")
    }
}

@Suite("PKCS#7 signed files")
struct SignedFileTests {
    static let json = Array(
        #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["*"]}]}}"#.utf8)

    /// DER TLV with a definite length.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8] = count < 128 ? [UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + content
    }

    /// BER TLV with an indefinite length, as `openssl cms -sign -stream` writes.
    static func indefinite(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag, 0x80] + content + [0, 0] }

    static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]

    static func envelope(content: [UInt8], wrap: ([UInt8]) -> [UInt8] = { tlv(0x30, $0) }) -> [UInt8] {
        let encapsulated = tlv(0x30, dataOID + tlv(0xA0, content))
        let signedData = wrap([0x02, 0x01, 0x01] + tlv(0x31, []) + encapsulated + tlv(0x31, []))
        return tlv(0x30, signedDataOID + tlv(0xA0, signedData))
    }

    @Test func definiteLengthEnvelope() throws {
        let result = AASAReader().read(Self.envelope(content: Self.tlv(0x04, Self.json)), file: "aasa")
        #expect(result.wasSigned)
        #expect(result.diagnostics.map(\.id) == [.signedAASA])
        #expect(try #require(result.document?.applinks?.details.first?.paths) == ["*"])
    }

    @Test func streamedEnvelopeWithChunkedContent() throws {
        let chunks = Self.tlv(0x04, Array(Self.json[..<10])) + Self.tlv(0x04, Array(Self.json[10...]))
        let bytes = Self.indefinite(
            0x30, Self.signedDataOID + Self.indefinite(0xA0, Self.envelopeBody(Self.indefinite(0x24, chunks))))
        let result = AASAReader().read(bytes, file: "aasa")
        #expect(result.diagnostics.map(\.id) == [.signedAASA])
        #expect(try #require(result.document?.applinks?.details.first?.appID) == "ABCDE12345.com.example.app")
    }

    static func envelopeBody(_ content: [UInt8]) -> [UInt8] {
        indefinite(0x30, [0x02, 0x01, 0x01] + tlv(0x31, []) + indefinite(0x30, dataOID + indefinite(0xA0, content)))
    }

    /// `Fixtures/matching/streamed-signed-aasa.der` was made with a throwaway self-signed
    /// certificate: `openssl cms -sign -in aasa.json -signer cert.pem -inkey key.pem -outform DER
    /// -nodetach -stream -binary`, so it is BER with indefinite lengths, as streaming signers write.
    @Test func opensslStreamedFile() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/matching/streamed-signed-aasa.der")
        let result = AASAReader().read(Array(try Data(contentsOf: fixture)), file: "streamed-signed-aasa.der")
        #expect(result.diagnostics.map(\.id) == [.signedAASA])
        let document = try #require(result.document)
        #expect(CompiledAASA(document).decision(for: LinkURL("/signed/1")!, appID: exampleApp).outcome == .match)
    }

    @Test func brokenEnvelopesAreErrors() {
        let good = Self.envelope(content: Self.tlv(0x04, Self.json))
        for bytes in [Array(good.prefix(40)), [0x30, 0x80, 0x06], Self.tlv(0x30, Self.dataOID + Self.tlv(0xA0, []))] {
            let result = AASAReader().read(bytes, file: "aasa")
            #expect(result.document == nil)
            #expect(result.diagnostics.map(\.id) == [.invalidSignedFile])
        }
    }
}
