/// What an APK or an Android App Bundle carries that decides its links: the manifest's intent
/// filters and the keys it is signed with. Read from the archive's bytes; nothing is extracted.
public struct AndroidBuild: Sendable, Equatable {
    public struct Certificate: Sendable, Equatable {
        public var fingerprint: Fingerprint
        /// The signature schemes whose signers use this certificate, in order.
        public var schemes: [APKSignatures.Scheme]
    }

    public var manifest: AndroidManifestFacts
    /// Each distinct signer certificate, in the order v3, v2, v1 first name it.
    public var certificates: [Certificate]
    /// An .aab: its JAR signature is the upload key's, which Play replaces with its own.
    public var isBundle = false
    /// Where the manifest is in the archive.
    public var manifestPath: String { isBundle ? Self.bundleManifest : "AndroidManifest.xml" }
    static let bundleManifest = "base/manifest/AndroidManifest.xml"

    /// The manifest is kilobytes; a megabyte is far beyond any real one.
    static let maximumManifestSize = 4 << 20
    static let maximumSignatureFileSize = 1 << 20

    /// Reads an .apk (binary XML manifest; v1, v2 and v3 signatures).
    public static func apk(_ bytes: some BuildBytes, inflater: some Inflating) throws(BuildDefect) -> AndroidBuild {
        try read(bytes, inflater: inflater, bundle: false)
    }

    /// Reads an .aab (protobuf manifest under base/manifest/; the JAR signature of the upload key).
    public static func aab(_ bytes: some BuildBytes, inflater: some Inflating) throws(BuildDefect) -> AndroidBuild {
        try read(bytes, inflater: inflater, bundle: true)
    }

    private static func read(_ bytes: some BuildBytes, inflater: some Inflating, bundle: Bool) throws(BuildDefect)
        -> AndroidBuild
    {
        let archive = try ZipDirectory(bytes)
        let path = bundle ? bundleManifest : "AndroidManifest.xml"
        guard let manifestEntry = archive.entry(named: path) else {
            throw BuildDefect("the archive has no \(path): not an \(bundle ? "Android App Bundle" : "APK")")
        }
        let manifestBytes = try archive.contents(
            of: manifestEntry, in: bytes, inflater: inflater, maximumSize: maximumManifestSize)
        let manifest: AndroidManifestFacts
        do throws(BuildDefect) {
            manifest = try AndroidManifestFacts(bundle ? ProtoXML.parse(manifestBytes) : BinaryXML.parse(manifestBytes))
        } catch {
            throw error.placed(in: path)
        }
        var signed =
            bundle ? [] : try APKSignatures.blockCertificates(bytes, directoryOffset: archive.directoryOffset)
        for entry in archive.entries where APKSignatures.isJarSignatureFile(entry.name) {
            let file = try archive.contents(
                of: entry, in: bytes, inflater: inflater, maximumSize: maximumSignatureFileSize)
            do throws(BuildDefect) {
                signed += try APKSignatures.jarCertificates(file).map { (.v1, $0) }
            } catch {
                throw error.placed(in: entry.name)
            }
        }
        var certificates: [Certificate] = []
        for (scheme, der) in signed.sorted(by: { $0.0 > $1.0 }) {
            let fingerprint = Fingerprint.ofCertificate(der)
            if let index = certificates.firstIndex(where: { $0.fingerprint == fingerprint }) {
                if !certificates[index].schemes.contains(scheme) { certificates[index].schemes.append(scheme) }
            } else {
                certificates.append(Certificate(fingerprint: fingerprint, schemes: [scheme]))
            }
        }
        for index in certificates.indices { certificates[index].schemes.sort() }
        return AndroidBuild(manifest: manifest, certificates: certificates, isBundle: bundle)
    }
}
