import Foundation

/// JSON as the store keeps it (game states, schedules, catalogs), and the errors when it does not
/// round-trip.
enum StoredJSON {
    static func encode(_ value: some Encodable, what: String) throws(StoreError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            // Our own values always encode; this would be a bug in a Codable conformance.
            throw StoreError(.failed, "Could not encode \(what) as JSON: \(error)")
        }
    }

    /// `what` names the row ("rummy game A1B2C3") and `location` where it is ("/data/parlor.sqlite, table
    /// games"), so the operator can find it with the `sqlite3` shell.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from payload: String, what: String, location: String
    ) throws(StoreError) -> Value {
        try decode(json: payload, as: { try JSONDecoder().decode(type, from: Data($0.utf8)) }, what: what, location: location)
    }

    /// Reads `json` with `decode` (a game's own stored form), failing as `decode(_:from:what:location:)` does.
    static func decode<Value>(
        json: String, as decode: (String) throws -> Value, what: String, location: String
    ) throws(StoreError) -> Value {
        do {
            return try decode(json)
        } catch {
            throw StoreError(
                .corrupt,
                "The stored \(what) in \(location) cannot be read: \(describe(error)). Parlor will not skip it silently: delete or repair that row with the sqlite3 shell (the server stopped), or restore a backup.")
        }
    }

    /// The field and the problem, without the full `DecodingError` dump.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let (path, detail): ([any CodingKey], String)
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            (path, detail) = (context.codingPath, context.debugDescription)
        case .keyNotFound(let key, let context):
            (path, detail) = (context.codingPath + [key], "the field is missing")
        @unknown default:
            return "\(error)"
        }
        let field = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        // Foundation's sentences end with a period; ours go on.
        let sentence = detail.hasSuffix(".") ? String(detail.dropLast()) : detail
        return field.isEmpty ? sentence : "at \(field): \(sentence)"
    }
}
