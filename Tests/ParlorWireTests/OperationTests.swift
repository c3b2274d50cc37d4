import ParlorWire
import Testing

@Suite struct OperationTests {
    @Test func equalityNeedsTheSameNameAndEqualArguments() {
        #expect(Operation.observeRoom(CodeArguments(code: "A1B2C3")) == Operation(.observeRoom, CodeArguments(code: "A1B2C3")))
        #expect(Operation.observeRoom(CodeArguments(code: "A1B2C3")) != .getRoom(CodeArguments(code: "A1B2C3")))
        #expect(Operation.observeRoom(CodeArguments(code: "A1B2C3")) != .observeRoom(CodeArguments(code: "Z9Z9Z9")))
        #expect(Operation(.leaveLobby, LobbyIdArguments(lobbyId: "L1")) != Operation(.leaveLobby, RoomCodeArguments(roomCode: "L1")))
    }

    @Test func argumentsAreReadBackAsTheirType() {
        let operation = Operation.startGame(.lobby(lobbyId: "L1", gameId: nil))
        #expect(operation.arguments(as: StartGameArguments.self) == .lobby(lobbyId: "L1", gameId: nil))
        #expect(operation.arguments(as: LobbyIdArguments.self) == nil)
    }

    @Test func requestFramesAreWrittenWithSortedArguments() throws {
        let create = Request(id: .number(7), operation: .createRoom(CreateRoomArguments(pointLimit: 200, pointValue: 25, playerCount: 4, playerName: "Bo")))
        #expect(text(try create.encoded()) == #"{"id":7,"op":"createRoom","args":{"playerCount":4,"playerName":"Bo","pointLimit":200,"pointValue":25}}"#)
        let start = Request(id: .string("s"), operation: .startGame(.lobby(lobbyId: "L1", gameId: nil)))
        #expect(text(try start.encoded()) == #"{"id":"s","op":"startGame","args":{"lobbyId":"L1"}}"#)
        let observe = Request(id: .null, operation: .observeCatalog(EmptyArguments()))
        #expect(text(try observe.encoded()) == #"{"id":null,"op":"observeCatalog","args":{}}"#)
    }

    @Test func eachNameIsRegisteredOnce() {
        #expect(Set(OperationName.allCases).count == OperationName.allCases.count)
    }
}
