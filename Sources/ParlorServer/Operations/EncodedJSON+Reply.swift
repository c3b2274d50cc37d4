import ParlorRules
import ParlorWire

extension EncodedJSON {
    /// A reply's value, encoded; our own values always encode, so a failure is the server's.
    static func encoding(_ value: some Encodable) throws(WireError) -> EncodedJSON {
        do {
            return try EncodedJSON(value)
        } catch {
            throw WireError.internalError("The reply could not be encoded.")
        }
    }
}

extension EncodedJSON {
    /// `{"currentUserId": …, "<key>": …}` around a view already encoded: the reply that tells a player
    /// who joined or created a game which seat is theirs.
    static func seat(_ view: EncodedJSON, as key: StaticString, caller: UserID) -> EncodedJSON {
        var json = JSONWriter(capacity: view.bytes.count + 64)
        json.beginObject()
        json.field("currentUserId", caller.rawValue)
        json.key(key)
        json.raw(view)
        json.endObject()
        return json.encoded
    }
}
