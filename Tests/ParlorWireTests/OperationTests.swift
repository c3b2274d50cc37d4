import ParlorWire
import Testing

@Suite struct OperationTests {
    @Test func equalityNeedsTheSameNameAndEqualArguments() {
        #expect(Operation.observeRoom(CodeArguments(code: "A1B2C3")) == Operation(Operation.observeRoom.name, CodeArguments(code: "A1B2C3")))
        #expect(Operation.observeRoom(CodeArguments(code: "A1B2C3")) != .getRoom(CodeArguments(code: "A1B2C3")))
        #expect(Operation.observeRoom(CodeArguments(code: "A1B2C3")) != .observeRoom(CodeArguments(code: "Z9Z9Z9")))
        #expect(Operation(Operation.leaveLobby.name, LobbyIdArguments(lobbyId: "L1")) != Operation(Operation.leaveLobby.name, RoomCodeArguments(roomCode: "L1")))
    }

    @Test func argumentsAreReadBackAsTheirType() {
        let operation = Operation.startLobbyGame(StartLobbyGameArguments(lobbyId: "L1"))
        #expect(operation.arguments(as: StartLobbyGameArguments.self) == StartLobbyGameArguments(lobbyId: "L1", gameId: nil))
        #expect(operation.arguments(as: LobbyIdArguments.self) == nil)
        #expect(operation.arguments(as: RoomCodeArguments.self) == nil)
    }

    @Test func requestFramesAreWrittenWithSortedArguments() throws {
        let create = Request(id: .number(7), operation: .createRoom(CreateRoomArguments(pointLimit: 200, pointValue: 25, playerCount: 4, playerName: "Bo")))
        #expect(text(try create.encoded()) == #"{"id":7,"op":"createRoom","args":{"playerCount":4,"playerName":"Bo","pointLimit":200,"pointValue":25}}"#)
        let start = Request(id: .string("s"), operation: .startLobbyGame(StartLobbyGameArguments(lobbyId: "L1")))
        #expect(text(try start.encoded()) == #"{"id":"s","op":"startGame","args":{"lobbyId":"L1"}}"#)
        let observe = Request(id: .null, operation: .observeCatalog(EmptyArguments()))
        #expect(text(try observe.encoded()) == #"{"id":null,"op":"observeCatalog","args":{}}"#)
    }

    /// A name is declared once, or by games whose forms claim it by distinct arguments (`startGame`:
    /// `roomCode` for rummy, `lobbyId` for word lobbies) — the envelope could not tell them apart otherwise.
    @Test func eachNameIsDeclaredOnceOrClaimedByDistinctArguments() {
        let byName = Dictionary(grouping: WireVocabulary.operations, by: \.name)
        for (name, declarations) in byName where declarations.count > 1 {
            let keys = declarations.compactMap(\.claim?.key)
            #expect(keys.count == declarations.count && Set(keys).count == keys.count, "\(name) is declared \(declarations.count) times")
        }
        #expect(byName[OperationName("startGame")]?.compactMap(\.claim?.label) == ["rummy", "word lobby"])
        #expect(Set(OperationName.allCases).count == OperationName.allCases.count)
        #expect(OperationName.allCases.count == byName.count)
    }

    /// Every error code is declared once, whichever game's folder declares it.
    @Test func eachErrorCodeIsDeclaredOnce() {
        #expect(Set(ErrorCode.all.map(\.rawValue)).count == ErrorCode.all.count)
    }
}
