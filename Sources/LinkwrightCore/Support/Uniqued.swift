extension Sequence where Element: Hashable {
    /// Each element once, where it first appears: de-duplication in linear time, for lists an
    /// untrusted file can make as long as it likes (searched as an array, quadratic).
    public func uniqued() -> [Element] {
        var kept: [Element] = []
        var elements = makeIterator()
        // The first few distinct elements are searched in place: most lists (a witness's apps,
        // a rule's scopes) hold a handful, and a set costs more to build than those searches.
        while kept.count <= uniquedInPlace, let element = elements.next() {
            if !kept.contains(element) { kept.append(element) }
        }
        guard kept.count > uniquedInPlace else { return kept }
        // Sized for the whole sequence where it tells its length: grown insertion by insertion,
        // the set hashed every element again per doubling.
        var seen = Set<Element>(minimumCapacity: underestimatedCount)
        for element in kept { seen.insert(element) }
        while let element = elements.next() {
            if seen.insert(element).inserted { kept.append(element) }
        }
        return kept
    }
}

/// How many distinct elements `uniqued` searches in place before it keeps a set.
let uniquedInPlace = 16
