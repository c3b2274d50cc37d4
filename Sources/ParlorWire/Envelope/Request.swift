import Foundation

/// One client request: `{"id": 7, "op": "joinRoom", "args": {"code": "A1B2C3", "playerName": "Bo"}}`.
///
/// Decoded once, straight into typed arguments: the frame is parsed a single time and `args` is
/// decoded as the type its `op` names. Unknown extra fields are ignored. Operations whose arguments
/// are all optional (`hello`, `listGames`, `getCatalog`, `observeCatalog`) may leave `args` out.
public struct Request: Sendable, Equatable {
    public var id: RequestID
    public var operation: Operation

    public init(id: RequestID, operation: Operation) {
        self.id = id
        self.operation = operation
    }

    /// Decodes a text frame's bytes.
    public static func decode(_ frame: some Sequence<UInt8>) -> Result<Request, BadRequest> {
        RequestEnvelope.decode(frame) { name in Operation.registry[OperationName(name)] }
            .map { Request(id: $0.id, operation: $0.call) }
    }

    public static func decode(_ frame: String) -> Result<Request, BadRequest> {
        decode(frame.utf8)
    }

    /// The frame a client sends.
    public func encoded() throws -> [UInt8] {
        var out: [UInt8] = Array(#"{"id":"#.utf8)
        id.append(to: &out)
        WireJSON.append(#","op":"#, to: &out)
        WireJSON.appendString(operation.name.rawValue, to: &out)
        WireJSON.append(#","args":"#, to: &out)
        // Through a local: read straight off `operation`, beside the method `arguments(as:)`, the
        // existential is not opened for `some Encodable` and the call does not compile.
        let arguments = operation.arguments
        out += try WireJSON.encode(arguments)
        out.append(UInt8(ascii: "}"))
        return out
    }
}
