import LinkwrightCore
import Testing

/// One `swcutil match -u URL -j COMPONENT` capture: the component dictionary, the URL, and
/// whether swcutil printed "Matched by pattern".
struct SwcutilProbe: Sendable, CustomTestStringConvertible {
    var name: String
    var component: String
    var url: String
    var matches: Bool

    var testDescription: String { name }
}

/// Every capture of blazingly-aasa `conformance/oracle/swcutil-probes.tsv` (67 probes, commit
/// 67ad654), re-expressed as cases: the file's group/name is each case's name. These are the
/// strongest evidence available without a Mac (aasa-semantics.md §1.2–1.4).
let swcutilProbes: [SwcutilProbe] = [
    .init(
        name: "trailing-star/buy-star-vs-no-slash", component: ##"{"/":"/buy/*"}"##, url: "https://example.com/buy",
        matches: true),
    .init(
        name: "trailing-star/buy-star-vs-slash", component: ##"{"/":"/buy/*"}"##, url: "https://example.com/buy/",
        matches: true),
    .init(
        name: "trailing-star/buy-star-vs-child", component: ##"{"/":"/buy/*"}"##, url: "https://example.com/buy/42",
        matches: true),
    .init(
        name: "trailing-star/buy-star-vs-sibling", component: ##"{"/":"/buy/*"}"##, url: "https://example.com/buyer",
        matches: false),
    .init(
        name: "trailing-star/buy-star-vs-prefix", component: ##"{"/":"/buy/*"}"##, url: "https://example.com/bu",
        matches: false),
    .init(
        name: "trailing-star/deep-star-vs-no-slash", component: ##"{"/":"/a/b/*"}"##, url: "https://example.com/a/b",
        matches: true),
    .init(
        name: "trailing-star/star-no-slash-vs-plain", component: ##"{"/":"/buy*"}"##, url: "https://example.com/buy",
        matches: true),
    .init(
        name: "trailing-star/mid-star-vs-no-slash", component: ##"{"/":"/a/*/c"}"##, url: "https://example.com/a/c",
        matches: false),
    .init(
        name: "trailing-star/exact-no-star", component: ##"{"/":"/buy"}"##, url: "https://example.com/buy",
        matches: true),
    .init(
        name: "trailing-star/exact-vs-trailing-slash", component: ##"{"/":"/buy"}"##, url: "https://example.com/buy/",
        matches: true),
    .init(
        name: "leading-slash/bare-abc-vs-slash-abc", component: ##"{"/":"abc"}"##, url: "https://example.com/abc",
        matches: true),
    .init(
        name: "leading-slash/apple-doc-example", component: ##"{"/":"abc","?":"def","#":"*"}"##,
        url: "https://example.com/abc?def", matches: true),
    .init(
        name: "leading-slash/bare-buy-star", component: ##"{"/":"buy/*"}"##, url: "https://example.com/buy/42",
        matches: true),
    .init(
        name: "query-missing/star-on-absent-item", component: ##"{"?":{"b":"*"}}"##, url: "https://example.com/x?a=1",
        matches: true),
    .init(
        name: "query-missing/question-star-on-absent", component: ##"{"?":{"b":"?*"}}"##,
        url: "https://example.com/x?a=1",
        matches: false),
    .init(
        name: "query-missing/empty-pattern-on-absent", component: ##"{"?":{"b":""}}"##,
        url: "https://example.com/x?a=1",
        matches: true),
    .init(
        name: "query-missing/literal-on-absent", component: ##"{"?":{"b":"1"}}"##, url: "https://example.com/x?a=1",
        matches: false),
    .init(
        name: "query-missing/star-on-empty-query", component: ##"{"?":{"b":"*"}}"##, url: "https://example.com/x",
        matches: true),
    .init(
        name: "query-missing/two-items-one-absent", component: ##"{"?":{"a":"1","b":"*"}}"##,
        url: "https://example.com/x?a=1",
        matches: true),
    .init(
        name: "query-repeat/target-is-first", component: ##"{"?":{"id":"42"}}"##,
        url: "https://example.com/x?id=42&id=7",
        matches: false),
    .init(
        name: "query-repeat/target-is-last", component: ##"{"?":{"id":"42"}}"##,
        url: "https://example.com/x?id=7&id=42",
        matches: false),
    .init(
        name: "query-repeat/target-is-middle", component: ##"{"?":{"id":"42"}}"##,
        url: "https://example.com/x?id=7&id=42&id=9",
        matches: false),
    .init(
        name: "query-nonstring/bool-true-value-present", component: ##"{"?":{"flag":true}}"##,
        url: "https://example.com/x?flag=1",
        matches: true),
    .init(
        name: "query-nonstring/bool-true-item-absent", component: ##"{"?":{"flag":true}}"##,
        url: "https://example.com/x?other=1",
        matches: true),
    .init(
        name: "query-nonstring/bool-false-value-present", component: ##"{"?":{"flag":false}}"##,
        url: "https://example.com/x?flag=1", matches: true),
    .init(
        name: "query-nonstring/number-predicate", component: ##"{"?":{"n":5}}"##, url: "https://example.com/x?n=5",
        matches: true),
    .init(
        name: "query-nonstring/null-predicate", component: ##"{"?":{"n":null}}"##, url: "https://example.com/x?n=5",
        matches: true),
    .init(
        name: "percent/default-encoded-space", component: ##"{"/":"/a%20b"}"##, url: "https://example.com/a%20b",
        matches: true),
    .init(
        name: "percent/default-literal-space", component: ##"{"/":"/a b"}"##, url: "https://example.com/a%20b",
        matches: false),
    .init(
        name: "percent/false-literal-space", component: ##"{"/":"/a b","percentEncoded":false}"##,
        url: "https://example.com/a%20b", matches: true),
    .init(
        name: "percent/false-encoded-pattern", component: ##"{"/":"/a%20b","percentEncoded":false}"##,
        url: "https://example.com/a%20b", matches: false),
    .init(
        name: "percent/encoded-slash-default", component: ##"{"/":"/a/b"}"##, url: "https://example.com/a%2Fb",
        matches: false),
    .init(
        name: "percent/encoded-slash-decoded", component: ##"{"/":"/a/b","percentEncoded":false}"##,
        url: "https://example.com/a%2Fb", matches: true),
    .init(
        name: "percent/hex-case-default", component: ##"{"/":"/caf%C3%A9"}"##, url: "https://example.com/caf%c3%a9",
        matches: false),
    .init(
        name: "percent/unicode-literal-false", component: ##"{"/":"/caf\u00e9","percentEncoded":false}"##,
        url: "https://example.com/caf%C3%A9", matches: true),
    .init(
        name: "percent/unicode-literal-default", component: ##"{"/":"/caf\u00e9"}"##,
        url: "https://example.com/caf%C3%A9",
        matches: false),
    .init(
        name: "fragment/star-on-absent-fragment", component: ##"{"#":"*"}"##, url: "https://example.com/x",
        matches: true),
    .init(
        name: "fragment/question-star-on-absent", component: ##"{"#":"?*"}"##, url: "https://example.com/x",
        matches: false),
    .init(name: "fragment/empty-on-absent", component: ##"{"#":""}"##, url: "https://example.com/x", matches: true),
    .init(
        name: "query-whole/whole-exact", component: ##"{"?":"a=1"}"##, url: "https://example.com/x?a=1", matches: true),
    .init(
        name: "query-whole/whole-rejects-extra", component: ##"{"?":"a=1"}"##, url: "https://example.com/x?a=1&b=2",
        matches: false),
    .init(
        name: "query-whole/whole-star-on-empty", component: ##"{"?":"*"}"##, url: "https://example.com/x", matches: true
    ),
    .init(
        name: "query-whole/whole-question-star-on-empty", component: ##"{"?":"?*"}"##, url: "https://example.com/x",
        matches: false),
    .init(name: "lead/bare-abc-vs-abcd", component: ##"{"/":"abc"}"##, url: "https://example.com/abcd", matches: false),
    .init(name: "lead/bare-abc-vs-xabc", component: ##"{"/":"abc"}"##, url: "https://example.com/xabc", matches: false),
    .init(name: "lead/bare-abc-star", component: ##"{"/":"abc/*"}"##, url: "https://example.com/abc", matches: true),
    .init(name: "lead/bare-star-abc", component: ##"{"/":"*abc"}"##, url: "https://example.com/xabc", matches: true),
    .init(
        name: "lead/double-slash-pattern", component: ##"{"/":"//abc"}"##, url: "https://example.com/abc", matches: true
    ),
    .init(name: "lead/bare-deep", component: ##"{"/":"a/b"}"##, url: "https://example.com/a/b", matches: true),
    .init(
        name: "trail/pattern-trailing-slash", component: ##"{"/":"/buy/"}"##, url: "https://example.com/buy",
        matches: true),
    .init(
        name: "trail/deep-pattern-trailing", component: ##"{"/":"/a/b/"}"##, url: "https://example.com/a/b",
        matches: true),
    .init(
        name: "trail/double-trailing-url", component: ##"{"/":"/buy/*"}"##, url: "https://example.com/buy//",
        matches: true),
    .init(
        name: "trail/star-vs-double-slash", component: ##"{"/":"/buy/"}"##, url: "https://example.com/buy//",
        matches: true),
    .init(name: "trail/root-pattern", component: ##"{"/":"/"}"##, url: "https://example.com/", matches: true),
    .init(name: "trail/root-pattern-vs-empty", component: ##"{"/":"/"}"##, url: "https://example.com", matches: true),
    .init(
        name: "dup/star-on-duplicate", component: ##"{"?":{"id":"*"}}"##, url: "https://example.com/x?id=7&id=42",
        matches: true),
    .init(
        name: "dup/joined-forward", component: ##"{"?":{"id":"7,42"}}"##, url: "https://example.com/x?id=7&id=42",
        matches: false),
    .init(
        name: "dup/joined-reverse", component: ##"{"?":{"id":"42,7"}}"##, url: "https://example.com/x?id=42&id=7",
        matches: false),
    .init(
        name: "dup/empty-on-duplicate", component: ##"{"?":{"id":""}}"##, url: "https://example.com/x?id=7&id=42",
        matches: false),
    .init(
        name: "dup/question-star-on-dup", component: ##"{"?":{"id":"?*"}}"##, url: "https://example.com/x?id=7&id=42",
        matches: true),
    .init(
        name: "dup/identical-duplicates", component: ##"{"?":{"id":"7"}}"##, url: "https://example.com/x?id=7&id=7",
        matches: true),
    .init(
        name: "nonstr/string-still-applies", component: ##"{"?":{"a":"1","flag":true}}"##,
        url: "https://example.com/x?a=2",
        matches: true),
    .init(
        name: "nonstr/string-passes-with-bool", component: ##"{"?":{"a":"1","flag":true}}"##,
        url: "https://example.com/x?a=1",
        matches: true),
    .init(
        name: "nonstr/array-predicate", component: ##"{"?":{"a":["1"]}}"##, url: "https://example.com/x?a=2",
        matches: true),
    .init(
        name: "nonstr/object-predicate", component: ##"{"?":{"a":{"b":"1"}}}"##, url: "https://example.com/x?a=2",
        matches: true),
    .init(name: "whole/empty-pattern-no-query", component: ##"{"?":""}"##, url: "https://example.com/x", matches: true),
    .init(
        name: "whole/literal-vs-no-query", component: ##"{"?":"a=1"}"##, url: "https://example.com/x", matches: false),
]

/// The component cases of blazingly-aasa `conformance/oracle/swcutil-gap-probes.tsv` (unknown-key
/// group): unknown keys are ignored, even `{}` matches everything, a misspelled key does nothing.
let swcutilGapProbes: [SwcutilProbe] = [
    .init(
        name: "unknown-key/control-plain", component: ##"{"/":"/foo/*"}"##, url: "https://example.com/foo/1",
        matches: true),
    .init(
        name: "unknown-key/unknown-alongside-path", component: ##"{"/":"/foo/*","totallyUnknownKey":"x"}"##,
        url: "https://example.com/foo/1", matches: true),
    .init(
        name: "unknown-key/unknown-nonmatching", component: ##"{"/":"/foo/*","totallyUnknownKey":"x"}"##,
        url: "https://example.com/bar", matches: false),
    .init(
        name: "unknown-key/unknown-alone", component: ##"{"totallyUnknownKey":"x"}"##,
        url: "https://example.com/anything", matches: true),
    .init(name: "unknown-key/control-empty", component: "{}", url: "https://example.com/anything", matches: true),
    .init(
        name: "unknown-key/misspelled-known", component: ##"{"/":"/foo/*","casesensitive":true}"##,
        url: "https://example.com/FOO/1", matches: false),
    .init(
        name: "unknown-key/nested-unknown-object", component: ##"{"/":"/foo/*","future":{"a":"b"}}"##,
        url: "https://example.com/foo/1", matches: true),
]

@Suite("swcutil match probes")
struct AppleSwcutilProbeTests {
    @Test(arguments: swcutilProbes)
    func probe(_ probe: SwcutilProbe) {
        #expect(componentMatches(probe.component, probe.url) == probe.matches)
    }

    @Test(arguments: swcutilGapProbes)
    func gapProbe(_ probe: SwcutilProbe) {
        #expect(componentMatches(probe.component, probe.url) == probe.matches)
    }
}
