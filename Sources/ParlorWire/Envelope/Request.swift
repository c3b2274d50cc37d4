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
        RequestEnvelope.decode(frame) { name in Operation.choice(for: OperationName(name)) }
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
        out += try WireJSON.encode(operation.arguments)
        out.append(UInt8(ascii: "}"))
        return out
    }
}

extension Operation {
    /// How the arguments of the operation `name` are read.
    static func choice(for name: OperationName) -> ArgumentsChoice<Operation>? {
        switch name {
        case .hello: .one(.reading(HelloArguments.self, Operation.hello))
        case .createRoom: .one(.reading(CreateRoomArguments.self, Operation.createRoom))
        case .joinRoom: .one(.reading(JoinRoomArguments.self, Operation.joinRoom))
        case .setReady: .one(.reading(SetReadyArguments.self, Operation.setReady))
        case .startGame: .one(.reading(StartGameArguments.self, Operation.startGame))
        case .leaveRoom: .one(.reading(LeaveRoomArguments.self, Operation.leaveRoom))
        case .observeRoom: .one(.reading(CodeArguments.self, Operation.observeRoom))
        case .unsubscribe: .one(.reading(UnsubscribeArguments.self, Operation.unsubscribe))
        case .submitScore: .one(.reading(SubmitScoreArguments.self, Operation.submitScore))
        case .nextRound: .one(.reading(RoomCodeArguments.self, Operation.nextRound))
        case .getRoom: .one(.reading(CodeArguments.self, Operation.getRoom))
        case .listGames: .one(.reading(ListGamesArguments.self, Operation.listGames))
        case .createLobby: .one(.reading(CreateLobbyArguments.self, Operation.createLobby))
        case .joinLobby: .one(.reading(JoinLobbyArguments.self, Operation.joinLobby))
        case .submitWord: .one(.reading(SubmitWordArguments.self, Operation.submitWord))
        case .leaveLobby: .one(.reading(LobbyIdArguments.self, Operation.leaveLobby))
        case .observeLobby: .one(.reading(LobbyIdArguments.self, Operation.observeLobby))
        case .getCatalog: .one(.reading(GetCatalogArguments.self, Operation.getCatalog))
        case .observeCatalog: .one(.reading(EmptyArguments.self, Operation.observeCatalog))
        default: nil
        }
    }
}
