import LinkwrightCore

/// libFuzzer entry point for the configuration loader, compiler and `lint`'s rule analysis: any
/// bytes, as an environment, a domain or a policy file, must give diagnostics and never crash or
/// hang, and load alike with domains read from libyaml's events and from the node tree. Built by `scripts/fuzz.sh`; this file is not main.swift because libFuzzer supplies
/// main(). The analysis runs on a budget of a fraction of a second even in this
/// instrumented build, so work it does not count stands out against the per-input timeout.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let folders = ["environments/fuzz.yaml", "domains/fuzz.yaml", "policies/fuzz.yaml"]
    let path = folders[Int(bytes.first ?? 0) % folders.count]
    var files = [SourceFile(path: path, bytes: Array(bytes.dropFirst()))]
    if path != "environments/fuzz.yaml" {
        files.append(
            SourceFile(path: "environments/fuzz.yaml", bytes: Array("tier: production\napps: {}\nhosts: {}\n".utf8)))
    }
    var loader = ConfigLoader()
    let (configuration, diagnostics) = loader.load(files)
    // A domain read from libyaml's events must read as the node tree reads it.
    loader.readsDomainsFromEvents = false
    let reference = loader.load(files)
    if configuration?.domains != reference.configuration?.domains || diagnostics != reference.diagnostics {
        fatalError("a domain reads differently from events and from the node tree")
    }
    if let configuration {
        let (compiled, _) = Compiler().compile(configuration)
        _ = ArtifactRenderer.render(compiled)
        let analysis = RuleAnalysis(workLimit: 5_000, fileWorkLimit: 25_000)
        _ = ConfigurationRuleAnalysis(analysis: analysis, totalWorkLimit: 50_000).diagnostics(in: compiled)
    }
    return 0
}
