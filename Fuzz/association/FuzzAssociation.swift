import LinkwrightCore

/// libFuzzer entry point for the association-file readers, the matcher and the rule analysis: any
/// bytes, read as an apple-app-site-association or an assetlinks.json file (first byte decides),
/// must give diagnostics and decisions, never a crash or a hang. Built by `scripts/fuzz.sh
/// association`. The analysis runs on a budget of a fraction of a second even in this
/// instrumented build, so work it does not count stands out against the per-input timeout.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAssociationOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let urls = ["https://example.com/", "https://example.com/a/b?c=d#e", "/%E2%82%AC/x?id=1&id=2", "/ABC/def"]
    if (bytes.first ?? 0) & 1 == 0 {
        guard let document = AASAReader().read(Array(bytes.dropFirst()), file: "fuzz").document else { return 0 }
        _ = RuleAnalysis(workLimit: 5_000, fileWorkLimit: 25_000).findings(in: document)
        let compiled = CompiledAASA(document)
        for url in urls.compactMap(LinkURL.init) {
            for app in compiled.appIDs.prefix(4) { _ = compiled.decision(for: url, appID: app, tracing: true) }
        }
    } else {
        guard let document = AssetLinksReader().read(Array(bytes.dropFirst()), file: "fuzz").document else { return 0 }
        let compiled = CompiledAssetLinks(document)
        for url in urls.compactMap(LinkURL.init) {
            for package in compiled.packages.prefix(4) {
                _ = compiled.decision(for: url, package: package, tracing: true)
            }
        }
    }
    return 0
}
