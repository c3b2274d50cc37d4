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
