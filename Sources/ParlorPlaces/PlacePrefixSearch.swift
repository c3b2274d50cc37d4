/// Places whose name starts with what a player has typed so far, for suggestions while typing a guess
/// (`par` → Paris, Parma, …). Names compare as `PlaceSearch` compares them: without case or accents.
///
/// Built once: the folded names sorted (a prefix is a contiguous run of them, found by binary search),
/// and each place's rank in the order suggestions are given. A query then only picks the best few ranks
/// in its run, so a one-letter query over tens of thousands of names sorts nothing.
public struct PlacePrefixSearch: Sendable {
    private let places: [Place]
    /// Every place's folded name, sorted.
    private let keys: [String]
    /// For each sorted position: the place it names, and that place's rank (0 the best).
    private let placeOf: [Int32]
    private let rankOf: [Int32]

    public init(_ places: [Place]) {
        let folded = places.map { PlaceSearch.fold($0.name) }
        let order = folded.indices.sorted { folded[$0] < folded[$1] }
        // The most populous first (when the data says), then the shortest name, then alphabetically.
        let ranking = folded.indices.sorted { lhs, rhs in
            let (lhsPopulation, rhsPopulation) = (places[lhs].population ?? 0, places[rhs].population ?? 0)
            if lhsPopulation != rhsPopulation { return lhsPopulation > rhsPopulation }
            if folded[lhs].count != folded[rhs].count { return folded[lhs].count < folded[rhs].count }
            if folded[lhs] != folded[rhs] { return folded[lhs] < folded[rhs] }
            return places[lhs].label < places[rhs].label
        }
        var rank = [Int32](repeating: 0, count: places.count)
        for (position, index) in ranking.enumerated() { rank[index] = Int32(position) }
        self.places = places
        keys = order.map { folded[$0] }
        placeOf = order.map { Int32($0) }
        rankOf = order.map { rank[$0] }
    }

    /// At most `limit` places whose name starts with `prefix`: a place named exactly that first, then the
    /// most populous (when the data says), then the shortest name, then alphabetically.
    public func places(startingWith prefix: String, limit: Int) -> [Place] {
        let key = PlaceSearch.fold(prefix)
        guard !key.isEmpty, limit > 0 else { return [] }
        let lower = firstPosition { $0 >= key }
        let exactEnd = firstPosition { $0 > key }
        let upper = firstPosition(from: exactEnd) { !$0.hasPrefix(key) }
        var chosen = best(limit, in: lower..<exactEnd)
        if chosen.count < limit { chosen += best(limit - chosen.count, in: exactEnd..<upper) }
        return chosen.map { places[Int(placeOf[$0])] }
    }

    /// The sorted positions in `range` with the `count` best ranks, best first.
    private func best(_ count: Int, in range: Range<Int>) -> [Int] {
        var chosen: [(rank: Int32, position: Int)] = []
        chosen.reserveCapacity(count + 1)
        for position in range {
            let rank = rankOf[position]
            if chosen.count == count, let last = chosen.last, rank >= last.rank { continue }
            let slot = chosen.firstIndex { $0.rank > rank } ?? chosen.count
            chosen.insert((rank, position), at: slot)
            if chosen.count > count { chosen.removeLast() }
        }
        return chosen.map(\.position)
    }

    /// The first position at or after `start` whose key satisfies `isPast`, which must be false up to
    /// some position and true from it on.
    private func firstPosition(from start: Int = 0, _ isPast: (String) -> Bool) -> Int {
        var (low, high) = (start, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if isPast(keys[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
