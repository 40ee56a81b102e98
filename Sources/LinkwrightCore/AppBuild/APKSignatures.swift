/// The certificates an APK is signed with, by scheme, as SHA-256 fingerprints of each signer's
/// X.509 certificate (the value `apksigner verify --print-certs` prints and assetlinks.json
/// lists). The signatures are not verified: Android's installer does that; what a link needs to
/// know is which key the build carries.
///
/// - v2 and v3 (https://source.android.com/docs/security/features/apksigning/v2 and /v3): the
///   APK Signing Block sits just before the ZIP central directory and ends with its size and
///   the magic `APK Sig Block 42`; its ID-value pairs hold the v2 (0x7109871a) and v3
///   (0xf05368c0) blocks: length-prefixed signers, each with signed data whose second field is
///   the length-prefixed certificates, the signer's own first.
/// - v1 (JAR signing): `META-INF/*.RSA|DSA|EC` is a PKCS#7 SignedData (RFC 2315) whose
///   certificates include the signer's; the signer's is the one whose issuer and serial number
///   its SignerInfo names.
public enum APKSignatures {
    public enum Scheme: String, Sendable, CaseIterable, Comparable {
        case v1, v2, v3

        public static func < (lhs: Scheme, rhs: Scheme) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    static let v2BlockID = 0x7109_871A
    static let v3BlockID = 0xF053_68C0
    /// The largest signing block read: real ones are a few kilobytes (more with key rotation).
    static let maximumBlockSize = 16 << 20

    /// The DER certificates of every v2 and v3 signer, from the archive whose central directory
    /// starts at `directoryOffset`; empty when there is no signing block.
    static func blockCertificates(_ bytes: some BuildBytes, directoryOffset: Int) throws(BuildDefect)
        -> [(Scheme, [UInt8])]
    {
        guard directoryOffset >= 32 else { return [] }
        let footer = ByteFields(
            bytes: try bytes.read((directoryOffset - 24)..<directoryOffset), what: "the APK Signing Block")
        guard footer.bytes[8...].elementsEqual(Array("APK Sig Block 42".utf8)) else { return [] }
        let size = try footer.uint64(0)
        guard size <= maximumBlockSize, size >= 24, size + 8 <= directoryOffset else {
            throw BuildDefect("the APK Signing Block declares an impossible size (\(size) bytes)")
        }
        let block = ByteFields(
            bytes: try bytes.read((directoryOffset - size - 8)..<directoryOffset), what: "the APK Signing Block")
        guard try block.uint64(0) == size else { throw BuildDefect("the APK Signing Block's two sizes differ") }
        var certificates: [(Scheme, [UInt8])] = []
        var cursor = 8
        while cursor < block.bytes.count - 24 {
            let length = try block.uint64(cursor)
            guard length >= 4, length <= block.bytes.count - 24 - cursor - 8 else {
                throw BuildDefect("an APK Signing Block entry runs past the block")
            }
            let id = try block.uint32(cursor + 8)
            if id == v2BlockID || id == v3BlockID {
                let value = try block.slice(cursor + 12, count: length - 4)
                let scheme: Scheme = id == v2BlockID ? .v2 : .v3
                for certificate in try signerCertificates(value, scheme: scheme) {
                    certificates.append((scheme, certificate))
                }
            }
            cursor += 8 + length
        }
        return certificates
    }

    /// The first certificate of each signer in a v2 or v3 block value.
    private static func signerCertificates(_ value: [UInt8], scheme: Scheme) throws(BuildDefect) -> [[UInt8]] {
        let what = "the \(scheme.rawValue) signature block"
        let signers = try lengthPrefixedItems(ByteFields(bytes: value, what: what), what: what)
        guard let sequence = signers.first, signers.count == 1 else {
            throw BuildDefect("\(what) is not one sequence of signers")
        }
        var certificates: [[UInt8]] = []
        for signer in try lengthPrefixedItems(ByteFields(bytes: sequence, what: what), what: what) {
            let fields = ByteFields(bytes: signer, what: what)
            let signedData = try fields.slice(4, count: try fields.uint32(0))
            let signed = ByteFields(bytes: signedData, what: what)
            let digestsLength = try signed.uint32(0)
            let certificatesLength = try signed.uint32(4 + digestsLength)
            let list = try signed.slice(8 + digestsLength, count: certificatesLength)
            guard let first = try lengthPrefixedItems(ByteFields(bytes: list, what: what), what: what).first
            else {
                throw BuildDefect("a \(scheme.rawValue) signer has no certificate")
            }
            certificates.append(first)
        }
        return certificates
    }

    /// A sequence of items, each a 32-bit little-endian length and that many bytes.
    private static func lengthPrefixedItems(_ fields: ByteFields, what: String) throws(BuildDefect)
        -> [[UInt8]]
    {
        var items: [[UInt8]] = []
        var cursor = 0
        while cursor < fields.bytes.count {
            let length = try fields.uint32(cursor)
            items.append(try fields.slice(cursor + 4, count: length))
            cursor += 4 + length
        }
        return items
    }

    /// The signers' certificates in a v1 signature file (`META-INF/CERT.RSA`).
    static func jarCertificates(_ signatureFile: [UInt8]) throws(BuildDefect) -> [[UInt8]] {
        do {
            return try PKCS7Certificates.signers(signatureFile)
        } catch {
            throw BuildDefect("the JAR signature is not a PKCS#7 SignedData: \(error.reason)")
        }
    }

    /// `META-INF/NAME.RSA`, `.DSA` or `.EC`: where JAR signing keeps each signer's PKCS#7 block.
    static func isJarSignatureFile(_ name: String) -> Bool {
        let parts = name.split(separator: "/")
        guard parts.count == 2, parts[0] == "META-INF" else { return false }
        return [".RSA", ".DSA", ".EC"].contains { parts[1].uppercased().hasSuffix($0) }
    }
}

/// Certificates out of a PKCS#7 / CMS SignedData (RFC 5652 §5.1), with the BER reader the
/// signed-AASA reader uses: `certificates [0] IMPLICIT` after the encapsulated content, and the
/// SignerInfos, whose `issuerAndSerialNumber` says which certificate signed.
enum PKCS7Certificates {
    static func signers(_ bytes: [UInt8]) throws(SignedDataError) -> [[UInt8]] {
        let reader = BERReader(bytes: bytes)
        do {
            let contentInfo = try reader.element(at: 0, within: bytes.count)
            try contentInfo.expect(tag: BERReader.sequence)
            var children = try reader.children(of: contentInfo)
            try children.next().expect(tag: BERReader.objectIdentifier)
            let signedData = try reader.firstChild(of: try children.next())
            var fields = try reader.children(of: signedData)
            try fields.next().expect(tag: BERReader.integer)
            try fields.next().expect(tag: BERReader.set)
            try fields.next().expect(tag: BERReader.sequence)
            var next = try fields.next()
            var certificates: [BERReader.Element] = []
            if next.tag == BERReader.contextZeroConstructed {
                var list = try reader.children(of: next)
                while let certificate = try list.nextIfPresent() { certificates.append(certificate) }
                next = try fields.next()
            }
            if next.tag == 0xA1 { next = try fields.next() }  // crls [1]
            try next.expect(tag: BERReader.set)
            var signerInfos = try reader.children(of: next)
            var signers: [[UInt8]] = []
            while let signerInfo = try signerInfos.nextIfPresent() {
                var signerFields = try reader.children(of: signerInfo)
                try signerFields.next().expect(tag: BERReader.integer)
                let identifier = try signerFields.next()
                try identifier.expect(tag: BERReader.sequence)
                // issuerAndSerialNumber, the same bytes as the certificate's issuer and serial.
                var issuerAndSerial = try reader.children(of: identifier)
                let issuer = try issuerAndSerial.next()
                let serial = try issuerAndSerial.next()
                let match = try certificates.first { certificate in
                    let (certificateIssuer, certificateSerial) = try issuerAndSerialNumber(of: certificate, reader)
                    return reader.whole(certificateIssuer).elementsEqual(reader.whole(issuer))
                        && reader.whole(certificateSerial).elementsEqual(reader.whole(serial))
                }
                guard let match else { throw SignedDataError("no certificate matches a signer") }
                signers.append(Array(reader.whole(match)))
            }
            return signers
        } catch let error as SignedDataError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    /// Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
    /// signature, issuer, … } … } (RFC 5280 §4.1).
    private static func issuerAndSerialNumber(of certificate: BERReader.Element, _ reader: BERReader) throws -> (
        BERReader.Element, BERReader.Element
    ) {
        let tbs = try reader.firstChild(of: certificate)
        var fields = try reader.children(of: tbs)
        var serial = try fields.next()
        if serial.tag == BERReader.contextZeroConstructed { serial = try fields.next() }
        try serial.expect(tag: BERReader.integer)
        _ = try fields.next()
        return (try fields.next(), serial)
    }
}

extension BERReader {
    /// The element with its tag and length, as it is in the file.
    func whole(_ element: Element) -> ArraySlice<UInt8> { bytes[element.start..<element.end] }
}
