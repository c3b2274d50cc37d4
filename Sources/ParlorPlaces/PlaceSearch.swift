import Foundation

/// Places by name, for a player who types where they think a photo was taken: `Lyon`, `Kyoto, JP`,
/// `Paris, Texas`, `Sydney, Australia`. Names compare without case or accents; each part after the
/// first comma must match the country code, the country's name or the first-order division.
public struct PlaceSearch: Sendable {
    /// What a query found.
    public enum Result: Sendable, Equatable {
        case found(Place)
        /// Several places fit equally well: the first few, to tell the player how to say which.
        case ambiguous([Place])
        case notFound
    }

    private let places: [Place]
    /// Places by folded name.
    private let byName: [String: [Int32]]

    /// How many candidates an ambiguous answer lists.
    public static let maxCandidates = 6

    public init(_ places: [Place]) {
        self.places = places
        var byName: [String: [Int32]] = [:]
        for (index, place) in places.enumerated() { byName[Self.fold(place.name), default: []].append(Int32(index)) }
        self.byName = byName
    }

    public func find(_ query: String) -> Result {
        let parts = query.split(separator: ",").map { Self.fold(String($0)) }.filter { !$0.isEmpty }
        guard let name = parts.first, let named = byName[name] else { return .notFound }
        let qualifiers = parts.dropFirst()
        let matches = named.map { places[Int($0)] }.filter { place in
            qualifiers.allSatisfy { qualifier in
                qualifier == Self.fold(place.countryCode) || qualifier == Self.fold(place.admin1)
                    || place.country.map { Self.fold($0) == qualifier } ?? false
            }
        }
        guard let first = matches.first else { return .notFound }
        if matches.count == 1 { return .found(first) }
        // With populations (GeoNames' own dump) the largest place of the name is the one meant, as
        // long as it is clearly the largest.
        let ranked = matches.sorted { ($0.population ?? 0) > ($1.population ?? 0) }
        if let top = ranked[0].population, top >= 2 * (ranked[1].population ?? 0), top > 0 { return .found(ranked[0]) }
        return .ambiguous(Array(ranked.prefix(Self.maxCandidates)))
    }

    /// Lower case, without accents or surrounding spaces.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(in: .whitespaces)
    }
}
