/// The frames that answer a request: `{"id":7,"result":…}` or `{"id":7,"error":{…}}`.
///
/// The envelope is written by hand around already-encoded JSON, so a result encoded once (a room's
/// view) is reused as is, and an error frame can always be written (it never throws).
public enum Reply {
    /// `{"id":…,"result":<result>}`.
    public static func result(id: RequestID, _ result: EncodedJSON) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(result.bytes.count + 32)
        WireJSON.append(#"{"id":"#, to: &out)
        id.append(to: &out)
        WireJSON.append(#","result":"#, to: &out)
        out += result.bytes
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Encodes `value` and wraps it.
    public static func result(id: RequestID, _ value: some Encodable) throws -> [UInt8] {
        result(id: id, try EncodedJSON(value))
    }

    /// `{"id":…,"result":null}`: success with no data (`startGame`, `leaveRoom`, …).
    public static func success(id: RequestID) -> [UInt8] {
        result(id: id, EncodedJSON.null)
    }

    /// `{"id":…,"error":{"code":…,"message":…,"status":…}}`.
    public static func error(id: RequestID, _ error: WireError) -> [UInt8] {
        var out: [UInt8] = []
        WireJSON.append(#"{"id":"#, to: &out)
        id.append(to: &out)
        WireJSON.append(#","error":"#, to: &out)
        error.append(to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The answer to a frame that could not be decoded.
    public static func error(_ badRequest: BadRequest) -> [UInt8] {
        error(id: badRequest.id, badRequest.wireError)
    }
}
