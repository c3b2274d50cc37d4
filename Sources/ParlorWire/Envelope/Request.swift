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
        do {
            return try JSONDecoder().decode(Frame.self, from: Data(frame)).outcome
        } catch let error as DecodingError {
            return .failure(BadRequest(id: .null, error))
        } catch {
            return .failure(BadRequest(id: .null, field: nil, message: "The frame is not valid JSON."))
        }
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
        out += try WireJSON.encode(operation.arguments)
        out.append(UInt8(ascii: "}"))
        return out
    }
}

private enum FrameKey: String, CodingKey { case id, op, args }

/// The decoding pass. It never throws for a bad request it can describe, so that the id read so far
/// travels with the failure.
private struct Frame: Decodable {
    let outcome: Result<Request, BadRequest>

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: FrameKey.self) else {
            outcome = .failure(BadRequest(id: .null, field: nil, message: "A request must be a JSON object."))
            return
        }
        let id: RequestID
        do {
            id = try container.decodeIfPresent(RequestID.self, forKey: .id) ?? .null
        } catch let error as DecodingError {
            outcome = .failure(BadRequest(id: .null, error))
            return
        } catch {
            outcome = .failure(BadRequest(id: .null, field: "id", message: "id must be an integer or a string."))
            return
        }
        do {
            let opText = try container.decode(String.self, forKey: .op)
            guard let name = OperationName(rawValue: opText) else {
                let shown = opText.count <= 40 ? opText : String(opText.prefix(40)) + "…"
                outcome = .failure(BadRequest(id: id, field: "op", message: "op \"\(shown)\" is not a known operation."))
                return
            }
            outcome = .success(Request(id: id, operation: try Self.operation(name, in: container)))
        } catch {
            outcome = .failure(Self.describe(error, id: id, container: container))
        }
    }

    /// Foundation reports a fractional or out-of-range number given for an `Int` as an internal
    /// error (or as corrupt data with no coding path), so those are located with `NumberProbe`.
    private static func describe(_ error: any Error, id: RequestID, container: KeyedDecodingContainer<FrameKey>) -> BadRequest {
        if let error = error as? DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                // Fall through to the probe.
            } else {
                return BadRequest(id: id, error)
            }
        }
        if let path = (try? container.decode(NumberProbe.self, forKey: .args))?.firstNonInteger(prefix: "args") {
            return BadRequest(id: id, field: path, message: "\(path) must be an integer.")
        }
        return BadRequest(id: id, field: "args", message: "args could not be read.")
    }

    private static func operation(_ name: OperationName, in c: KeyedDecodingContainer<FrameKey>) throws -> Operation {
        switch name {
        case .hello: .hello(try optionalArgs(c))
        case .createRoom: .createRoom(try args(c))
        case .joinRoom: .joinRoom(try args(c))
        case .setReady: .setReady(try args(c))
        case .startGame: .startGame(try args(c))
        case .leaveRoom: .leaveRoom(try args(c))
        case .observeRoom: .observeRoom(try args(c))
        case .unsubscribe: .unsubscribe(try args(c))
        case .submitScore: .submitScore(try args(c))
        case .nextRound: .nextRound(try args(c))
        case .getRoom: .getRoom(try args(c))
        case .listGames: .listGames(try optionalArgs(c))
        case .createLobby: .createLobby(try args(c))
        case .joinLobby: .joinLobby(try args(c))
        case .submitWord: .submitWord(try args(c))
        case .leaveLobby: .leaveLobby(try args(c))
        case .observeLobby: .observeLobby(try args(c))
        case .getCatalog: .getCatalog(try optionalArgs(c))
        case .observeCatalog: .observeCatalog(try optionalArgs(c))
        }
    }

    private static func args<T: Decodable>(_ c: KeyedDecodingContainer<FrameKey>) throws -> T {
        try c.decode(T.self, forKey: .args)
    }

    private static func optionalArgs<T: Decodable & DefaultArguments>(_ c: KeyedDecodingContainer<FrameKey>) throws -> T {
        try c.decodeIfPresent(T.self, forKey: .args) ?? T()
    }
}
