/// Reads the content out of a PKCS#7 / CMS `SignedData` file, the form iOS 8 required for
/// association files served for Handoff and Shared Web Credentials (Apple's archived App Search
/// Programming Guide, "Support Universal Links"). The signature is not verified: Linkwright reads
/// such files to show what they say, and says that it did not check who said it.
///
/// Structure (RFC 5652 §3, §5.1, §5.2):
/// ContentInfo ::= SEQUENCE { contentType OID signedData, content [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE { version INTEGER, digestAlgorithms SET,
///                           encapContentInfo SEQUENCE { eContentType OID, eContent [0] EXPLICIT OCTET STRING }, ... }
/// BER is accepted as well as DER: indefinite lengths and a constructed (chunked) OCTET STRING,
/// which streaming signers such as `openssl cms -sign -stream` write.
enum SignedDataEnvelope {
    /// Whether the bytes start like a DER SEQUENCE rather than like JSON text.
    static func looksSigned(_ bytes: [UInt8]) -> Bool { bytes.first == 0x30 }

    /// The signed content, or why it cannot be read.
    static func content(of bytes: [UInt8]) -> Result<[UInt8], SignedDataError> {
        let reader = BERReader(bytes: bytes)
        do {
            let contentInfo = try reader.element(at: 0, within: bytes.count)
            try contentInfo.expect(tag: BERReader.sequence)
            var children = try reader.children(of: contentInfo)
            let contentType = try children.next()
            try contentType.expect(tag: BERReader.objectIdentifier)
            guard reader.contents(of: contentType).elementsEqual(BERReader.signedDataOID) else {
                throw SignedDataError("the PKCS#7 content type is not signedData")
            }
            let explicitContent = try children.next()
            try explicitContent.expect(tag: BERReader.contextZeroConstructed)
            let signedData = try reader.firstChild(of: explicitContent)
            try signedData.expect(tag: BERReader.sequence)
            var fields = try reader.children(of: signedData)
            try fields.next().expect(tag: BERReader.integer)
            try fields.next().expect(tag: BERReader.set)
            let encapsulated = try fields.next()
            try encapsulated.expect(tag: BERReader.sequence)
            var encapsulatedFields = try reader.children(of: encapsulated)
            try encapsulatedFields.next().expect(tag: BERReader.objectIdentifier)
            guard let eContent = try encapsulatedFields.nextIfPresent() else {
                throw SignedDataError("the signature is detached: the file holds no content")
            }
            try eContent.expect(tag: BERReader.contextZeroConstructed)
            return .success(try reader.octets(of: reader.firstChild(of: eContent), depth: 0))
        } catch let error as SignedDataError {
            return .failure(error)
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }
}

/// Why a signed file could not be read.
struct SignedDataError: Error, Equatable {
    var reason: String

    init(_ reason: String) { self.reason = reason }
}

/// A minimal BER reader: tag, length (short, long or indefinite) and contents, with bounds
/// checks on every read and a depth cap on nested indefinite lengths.
struct BERReader {
    static let integer: UInt8 = 0x02
    static let octetString: UInt8 = 0x04
    static let constructedOctetString: UInt8 = 0x24
    static let objectIdentifier: UInt8 = 0x06
    static let sequence: UInt8 = 0x30
    static let set: UInt8 = 0x31
    static let contextZeroConstructed: UInt8 = 0xA0
    /// 1.2.840.113549.1.7.2 (RFC 5652 §5.1).
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let maximumDepth = 16

    struct Element {
        var tag: UInt8
        /// Where the tag is.
        var start: Int
        var contentStart: Int
        /// End of the contents, before the end-of-contents octets of an indefinite length.
        var contentEnd: Int
        /// End of the whole element.
        var end: Int

        func expect(tag expected: UInt8) throws {
            guard tag == expected else {
                throw SignedDataError(
                    "expected tag 0x\(String(expected, radix: 16)), found 0x\(String(tag, radix: 16)) "
                        + "at byte \(contentStart)"
                )
            }
        }
    }

    /// The elements inside a constructed element, read one at a time.
    struct Children {
        let reader: BERReader
        var offset: Int
        let end: Int
        let depth: Int

        mutating func nextIfPresent() throws -> Element? {
            guard offset < end else { return nil }
            let element = try reader.element(at: offset, within: end, depth: depth)
            offset = element.end
            return element
        }

        mutating func next() throws -> Element {
            guard let element = try nextIfPresent() else { throw SignedDataError("a required field is missing") }
            return element
        }
    }

    let bytes: [UInt8]

    func contents(of element: Element) -> ArraySlice<UInt8> { bytes[element.contentStart..<element.contentEnd] }

    func children(of element: Element, depth: Int = 0) throws -> Children {
        guard element.tag & 0x20 != 0 else { throw SignedDataError("expected a constructed element") }
        return Children(reader: self, offset: element.contentStart, end: element.contentEnd, depth: depth + 1)
    }

    func firstChild(of element: Element) throws -> Element {
        var elements = try children(of: element)
        return try elements.next()
    }

    /// The bytes of an OCTET STRING, joining the chunks of a constructed one (X.690 §8.7.3).
    func octets(of element: Element, depth: Int) throws -> [UInt8] {
        switch element.tag {
        case Self.octetString:
            return Array(contents(of: element))
        case Self.constructedOctetString:
            guard depth < Self.maximumDepth else { throw SignedDataError("OCTET STRING chunks nest too deeply") }
            var chunks = try children(of: element, depth: depth)
            var result: [UInt8] = []
            while let chunk = try chunks.nextIfPresent() { result += try octets(of: chunk, depth: depth + 1) }
            return result
        default:
            throw SignedDataError("the signed content is not an OCTET STRING")
        }
    }

    /// The element starting at `offset`, which must end by `limit`.
    func element(at offset: Int, within limit: Int, depth: Int = 0) throws -> Element {
        guard depth < Self.maximumDepth else { throw SignedDataError("elements nest too deeply") }
        guard offset + 2 <= limit else { throw SignedDataError("the file ends inside an element") }
        let tag = bytes[offset]
        guard tag & 0x1F != 0x1F else { throw SignedDataError("high tag numbers do not occur in PKCS#7") }
        let lengthByte = bytes[offset + 1]
        var cursor = offset + 2
        if lengthByte == 0x80 {
            // Indefinite length (X.690 §8.1.3.6): children up to the end-of-contents octets 00 00.
            guard tag & 0x20 != 0 else { throw SignedDataError("a primitive element cannot have an indefinite length") }
            while true {
                guard cursor + 2 <= limit else { throw SignedDataError("missing end-of-contents octets") }
                if bytes[cursor] == 0 && bytes[cursor + 1] == 0 {
                    return Element(
                        tag: tag, start: offset, contentStart: offset + 2, contentEnd: cursor, end: cursor + 2)
                }
                cursor = try element(at: cursor, within: limit, depth: depth + 1).end
            }
        }
        var length = Int(lengthByte)
        if lengthByte & 0x80 != 0 {
            let count = Int(lengthByte & 0x7F)
            guard count <= 4, cursor + count <= limit else {
                throw SignedDataError("invalid length at byte \(offset + 1)")
            }
            length = bytes[cursor..<(cursor + count)].reduce(0) { $0 << 8 | Int($1) }
            cursor += count
        }
        guard length <= limit - cursor else { throw SignedDataError("an element is longer than the file") }
        return Element(tag: tag, start: offset, contentStart: cursor, contentEnd: cursor + length, end: cursor + length)
    }
}
