/// Places whose name starts with what a player has typed so far, for suggestions while typing a guess
/// (`par` → Paris, Parma, …). Names compare as `PlaceSearch` compares them: without case or accents.
public struct PlacePrefixSearch: Sendable {
    private let places: [Place]
    /// Every place's folded name, sorted, beside the place it names: a prefix is a contiguous run.
    private let keys: [String]
    private let placeOf: [Int32]

    public init(_ places: [Place]) {
        let folded = places.map { PlaceSearch.fold($0.name) }
        let order = folded.indices.sorted { folded[$0] < folded[$1] }
        self.places = places
        keys = order.map { folded[$0] }
        placeOf = order.map { Int32($0) }
    }

    /// At most `limit` places whose name starts with `prefix`: a place named exactly that first, then the
    /// most populous (when the data says), then the shortest name, then alphabetically.
    public func places(startingWith prefix: String, limit: Int) -> [Place] {
        let key = PlaceSearch.fold(prefix)
        guard !key.isEmpty, limit > 0 else { return [] }
        var index = lowerBound(key)
        var found: [(place: Place, key: String)] = []
        while index < keys.count, keys[index].hasPrefix(key) {
            found.append((places[Int(placeOf[index])], keys[index]))
            index += 1
        }
        found.sort { lhs, rhs in
            let (lhsExact, rhsExact) = (lhs.key == key, rhs.key == key)
            if lhsExact != rhsExact { return lhsExact }
            let (lhsPopulation, rhsPopulation) = (lhs.place.population ?? 0, rhs.place.population ?? 0)
            if lhsPopulation != rhsPopulation { return lhsPopulation > rhsPopulation }
            if lhs.key.count != rhs.key.count { return lhs.key.count < rhs.key.count }
            if lhs.key != rhs.key { return lhs.key < rhs.key }
            return lhs.place.label < rhs.place.label
        }
        return found.prefix(limit).map(\.place)
    }

    /// The first position whose key is not less than `key`.
    private func lowerBound(_ key: String) -> Int {
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
