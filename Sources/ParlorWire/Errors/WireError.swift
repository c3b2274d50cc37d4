/// The `error` of a reply: `{"code": "ROOM_NOT_FOUND", "status": "not-found", "message": "…"}`.
/// Over HTTP the same body goes with `code.httpStatus`.
public struct WireError: Error, Sendable, Equatable, Codable {
    public let code: ErrorCode
    public let status: ErrorStatus
    public let message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.status = code.status
        self.message = message
    }

    public var httpStatus: Int { code.httpStatus }

    func append(to out: inout [UInt8]) {
        WireJSON.append(#"{"code":"#, to: &out)
        WireJSON.appendString(code.rawValue, to: &out)
        WireJSON.append(#","message":"#, to: &out)
        WireJSON.appendString(message, to: &out)
        WireJSON.append(#","status":"#, to: &out)
        WireJSON.appendString(status.rawValue, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}
