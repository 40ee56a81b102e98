// Regenerates Sources/LinkwrightCore/Matching/ISOCodes.swift, the value lists of Apple's predefined
// substitution variables $(region) and $(lang). Apple defines them as "all ISO regions in
// isoRegionCodes" and "all ISO languages in isoLanguageCodes"
// (https://developer.apple.com/documentation/bundleresources/applinks/substitutionvariables-swift.dictionary),
// so the lists are dumped from Foundation's `Locale` once and committed: matching must not depend
// on the build host's Foundation or ICU version.
//
// Usage: swift scripts/generate-iso-codes.swift > Sources/LinkwrightCore/Matching/ISOCodes.swift
import Foundation

func swiftArray(_ codes: [String]) -> String {
    var lines: [String] = []
    var line = "       "
    for code in codes.sorted() {
        let item = " \"\(code)\","
        if line.count + item.count > 116 {
            lines.append(line)
            line = "       "
        }
        line += item
    }
    lines.append(line)
    return lines.joined(separator: "\n")
}

#if os(Linux)
let platform = "Linux"
#else
let platform = "Darwin"
#endif

let regions = Locale.isoRegionCodes
let languages = Locale.isoLanguageCodes
print("""
    // GENERATED FILE. DO NOT EDIT! Run `swift scripts/generate-iso-codes.swift` to regenerate.
    //
    // Foundation's `Locale.isoRegionCodes` (\(regions.count) codes) and `Locale.isoLanguageCodes`
    // (\(languages.count) codes), dumped on \(platform) with the Foundation of the Swift toolchain that ran the
    // script, sorted. Apple devices read these lists from their own Foundation, so they differ
    // slightly between OS releases; swcutil confirms the ISO spelling (GB matches, UK does not:
    // blazingly-aasa conformance/oracle/swcutil-corpus.txt, substitution/region-rejects-uk).

    /// The values of Apple's predefined `$(region)` and `$(lang)` substitution variables.
    enum ISOCodes {
        /// `$(region)`: every code of `Locale.isoRegionCodes`.
        static let regions: [String] = [
    \(swiftArray(regions))
        ]

        /// `$(lang)`: every code of `Locale.isoLanguageCodes`.
        static let languages: [String] = [
    \(swiftArray(languages))
        ]
    }
    """)
