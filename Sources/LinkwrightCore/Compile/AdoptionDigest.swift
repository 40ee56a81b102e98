/// What an adoption records of a build (`adopted` in policies/): the digest of a compiled site.
extension PolicyAdoption {
    /// The SHA-256 of what `build` writes for `site`: its AASA, a line break, its assetlinks.json.
    public static func digest(of site: CompiledSite) -> String {
        let text = (site.aasa?.json.rendered() ?? "") + "\n" + (site.assetLinks?.json.rendered() ?? "")
        return SHA256.hex(Array(text.utf8))
    }
}
