import LinkwrightCore
import Testing

/// The app ID most cases use; swcutil captures in blazingly-aasa use the same one.
let exampleApp = "ABCDE12345.com.example.app"

/// Reads an AASA file from JSON text; the test fails on any error diagnostic.
func readAASA(_ json: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> AASADocument {
    let result = AASAReader().read(Array(json.utf8), file: "test.json")
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "unexpected errors: \(errors)", sourceLocation: sourceLocation)
    return result.document ?? AASADocument()
}

/// The decision of a whole AASA file for `url` and `app`.
func appleDecision(_ json: String, _ url: String, app: String = exampleApp) -> LinkDecision {
    CompiledAASA(readAASA(json)).decision(for: LinkURL(url)!, appID: app)
}

/// What `swcutil match -u URL -j COMPONENT` answers: one component in one entry.
func componentMatches(_ component: String, _ url: String) -> Bool {
    let json = #"{"applinks":{"details":[{"appIDs":["\#(exampleApp)"],"components":[\#(component)]}]}}"#
    return appleDecision(json, url).outcome == .match
}

/// A valid signing-certificate fingerprint (Google's statements page example).
let goodFingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

let handleAllURLs = "delegate_permission/common.handle_all_urls"

/// A `handle_all_urls` statement for an Android app, with `dynamic_app_link_components` when
/// `rules` (a JSON array) is given.
func androidStatement(package: String = "com.example.app", fingerprint: String = goodFingerprint, rules: String? = nil)
    -> String
{
    let target =
        ##"{"namespace": "android_app", "package_name": "\##(package)", "##
        + ##""sha256_cert_fingerprints": ["\##(fingerprint)"]}"##
    let extensions = rules.map {
        ##", "relation_extensions": {"\##(handleAllURLs)": {"dynamic_app_link_components": \##($0)}}"##
    }
    return ##"{"relation": ["\##(handleAllURLs)"], "target": \##(target)\##(extensions ?? "")}"##
}
