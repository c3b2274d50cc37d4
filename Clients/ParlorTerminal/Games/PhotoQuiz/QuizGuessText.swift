import ParlorPlaces

/// Where a typed guess points: `lat, lon` in degrees (north and east positive), or the name of a place
/// found in GeoNames' places — the same data the server names its answers from.
public enum QuizGuessText {
    public struct Resolved: Sendable, Equatable {
        public let latitude: Double
        public let longitude: Double
        /// The place a name was found as ("Lyon, Auvergne-Rhone-Alpes, FR"); nil for a position.
        public let place: String?
    }

    /// The guess, or a sentence saying why it points nowhere. `places` is nil while they are loading (or
    /// when there are none): then only a position can be read.
    public static func resolve(_ text: String, places: Places?, placesState: String) -> Result<Resolved, ScriptCommandError> {
        if let position = position(text) { return position }
        guard let places else {
            return .failure(ScriptCommandError("\(placesState) — type the position instead, e.g. 48.85, 2.35."))
        }
        switch places.search.find(text) {
        case .found(let place):
            return .success(Resolved(latitude: place.latitude, longitude: place.longitude, place: place.label))
        case .ambiguous(let candidates):
            let names = candidates.map(\.label).joined(separator: "; ")
            return .failure(ScriptCommandError("Which \(text.trimmedLine)? Add the country or region: \(names)."))
        case .notFound:
            return .failure(ScriptCommandError("No place called \(text.trimmedLine) is known; try \"Name, CC\" or a position like 48.85, 2.35."))
        }
    }

    /// `48.85, 2.35` or `48.85 2.35`; a number out of range is a sentence, text that is not two numbers
    /// is nil (it may be a name).
    static func position(_ text: String) -> Result<Resolved, ScriptCommandError>? {
        let parts = text.split(whereSeparator: { $0 == "," || $0.isWhitespace })
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            return .failure(ScriptCommandError("A latitude is between -90 and 90 (got \(parts[0]))."))
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            return .failure(ScriptCommandError("A longitude is between -180 and 180 (got \(parts[1]))."))
        }
        return .success(Resolved(latitude: latitude, longitude: longitude, place: nil))
    }
}
