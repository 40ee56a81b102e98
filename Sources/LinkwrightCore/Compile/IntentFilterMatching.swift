/// How Android matches a URL against a compiled intent filter: its hosts (`HostPattern`), then
/// its path scopes (`PathScope.matches`).
extension IntentFilter {
    /// The index of the first scope accepting `url`, or `nil`. A URL with a host must be on one
    /// of the filter's hosts; a path-only URL is checked on its path alone.
    public func matchingScope(for url: LinkURL) -> Int? {
        if let host = url.host, !hosts.contains(where: { HostPattern.androidFilter($0.name, matches: host) }) {
            return nil
        }
        return scopes.firstIndex { $0.matches(url) }
    }
}
