/// One instance of each distinct association file compiled by the snapshots of one
/// `PolicySnapshot.Reuse`. Consecutive revisions of a fleet's contract serve the same files for
/// every domain they did not change; compiled again, each revision's copy had storage of its
/// own, and every later comparison of the two (the behaviour diff asking which hosts' files
/// changed, the evaluators looking up what they compiled before) walked both rule by rule: a
/// quarter of a fleet changelog's time. Copies of one instance compare at once.
struct SharedDocuments {
    private var aasa: Set<HashedKey<AASADocument>> = []
    private var assetLinks: Set<HashedKey<AssetLinksDocument>> = []

    /// Replaces each site's files in `compiled` with the instance kept in `shared` when an
    /// equal one is kept, and keeps the others. The files are hashed outside the lock, once per
    /// domain and environment: every site of a domain carries the same files in an environment
    /// (`CompiledSite.domain`).
    static func share(_ compiled: inout CompiledConfiguration, with shared: LockedValue<SharedDocuments>) {
        for environmentIndex in compiled.environments.indices {
            var firstSiteOfDomain: [String: Int] = [:]
            for (index, site) in compiled.environments[environmentIndex].sites.enumerated()
            where firstSiteOfDomain[site.domain] == nil {
                firstSiteOfDomain[site.domain] = index
            }
            let sites = compiled.environments[environmentIndex].sites
            let keys = firstSiteOfDomain.mapValues { index in
                (aasa: sites[index].aasa.map(HashedKey.init), assetLinks: sites[index].assetLinks.map(HashedKey.init))
            }
            let kept = shared.withLock { documents in
                keys.mapValues { key in
                    (
                        aasa: key.aasa.map { documents.aasa.insert($0).memberAfterInsert.value },
                        assetLinks: key.assetLinks.map { documents.assetLinks.insert($0).memberAfterInsert.value }
                    )
                }
            }
            for index in sites.indices {
                let files = kept[sites[index].domain]!
                compiled.environments[environmentIndex].sites[index].aasa = files.aasa
                compiled.environments[environmentIndex].sites[index].assetLinks = files.assetLinks
            }
        }
    }
}
