import Foundation
import Testing
@testable import ParlorRules

@Suite struct CodeTests {
    @Test func userIDsAreCanonicalLowercase() throws {
        let id = try #require(UserID("0F8FAD5B-D9CB-469F-A165-70867728950E"))
        #expect(id.rawValue == "0f8fad5b-d9cb-469f-a165-70867728950e")
        #expect(id == UserID("0f8fad5b-d9cb-469f-a165-70867728950e"))
        #expect(UserID("not-a-uuid") == nil)
        #expect(UserID(" 0f8fad5b-d9cb-469f-a165-70867728950e") == nil)
        #expect(UserID("0f8fad5b-d9cb-469f-a165-70867728950g") == nil)  // not hex
        #expect(UserID("0f8fad5bd-9cb-469f-a165-70867728950e") == nil)  // hyphen misplaced
        #expect(UserID("0f8fad5b-d9cb-469f-a165_70867728950e") == nil)
        #expect(UserID("0f8fad5b-d9cb-469f-a165-70867728950") == nil)  // 35 characters
        #expect(UserID("0f8fad5b-d9cb-469f-a165-70867728950é") == nil)  // 36 characters, 37 bytes
        #expect(UserID("{0f8fad5b-d9cb-469f-a165-70867728950e}") == nil)
        // Whatever Foundation prints, we read back as the same user.
        for _ in 0..<100 {
            let uuid = UUID()
            #expect(UserID(uuid.uuidString) == UserID(uuid))
            #expect(UserID(uuid.uuidString)?.rawValue == uuid.uuidString.lowercased())
        }
    }

    @Test func randomUserIDsAreVersion4AndSeeded() {
        var a = SeededGenerator(seed: 7)
        var b = SeededGenerator(seed: 7)
        let first = UserID.random(using: &a)
        #expect(first == UserID.random(using: &b))
        #expect(Array(first.rawValue)[14] == "4")
        #expect(UserID(first.rawValue) == first)
    }

    @Test func roomCodesNormaliseCaseAndWhitespace() throws {
        #expect(try RoomCode(parsing: "A1B2C3").rawValue == "A1B2C3")
        #expect(try RoomCode(parsing: "  a1b2c3\n").rawValue == "A1B2C3")
    }

    @Test func roomCodeProblemsAreNamed() {
        #expect(throws: CodeFormatError(kind: "Room code", problem: .wrongLength(expected: 6, got: 5))) {
            try RoomCode(parsing: "A1B2C")
        }
        #expect(throws: CodeFormatError(kind: "Room code", problem: .invalidCharacter("-"))) {
            try RoomCode(parsing: "A1-2C3")
        }
        #expect(throws: CodeFormatError.self) { try RoomCode(parsing: "") }
        #expect(throws: CodeFormatError.self) { try RoomCode(parsing: "ÄBCDEF") }
        let error = CodeFormatError(kind: "Room code", problem: .wrongLength(expected: 6, got: 5))
        #expect(error.message == "Room code must be exactly 6 characters (got 5).")
    }

    @Test func lobbyCodesAreFourLetters() throws {
        #expect(try LobbyCode(parsing: "axdf").rawValue == "AXDF")
        #expect(throws: CodeFormatError.self) { try LobbyCode(parsing: "AX1F") }
        #expect(throws: CodeFormatError.self) { try LobbyCode(parsing: "AXDFG") }
    }

    @Test func requestCodesFailAsTheOperationsReportThem() throws {
        #expect(try RoomCode(validating: "a1b2c3").rawValue == "A1B2C3")
        let room = roomError { _ = try RoomCode(validating: "A1B2") }
        #expect(room?.kind == .invalidRoomCode)
        #expect(room?.message == "Room code must be exactly 6 characters (got 4).")
        #expect(try LobbyCode(validating: " axdf").rawValue == "AXDF")
        #expect(lobbyError { _ = try LobbyCode(validating: "AX") }
                == .invalidArgument(field: "lobbyCode", reason: "Lobby code must be exactly 4 characters (got 2)."))
    }

    @Test func codesDecodeOnlyWhenValid() throws {
        let decoded = try JSONDecoder().decode([RoomCode].self, from: Data(#"["a1b2c3"]"#.utf8))
        #expect(decoded.first?.rawValue == "A1B2C3")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([RoomCode].self, from: Data(#"["A1"]"#.utf8)) }
    }

    @Test func generationIsSeededAndAvoidsTakenCodes() throws {
        var a = SeededGenerator(seed: 42)
        var b = SeededGenerator(seed: 42)
        let first = try RoomCode.generate(using: &a) { _ in false }
        let again = try RoomCode.generate(using: &b) { _ in false }
        #expect(first == again)
        #expect(try RoomCode(parsing: first.rawValue) == first)
        var c = SeededGenerator(seed: 42)
        let other = try RoomCode.generate(using: &c) { $0 == first }
        #expect(other != first)
        var d = SeededGenerator(seed: 1)
        #expect(try LobbyCode.generate(using: &d) { _ in false }.rawValue.count == 4)
    }

    @Test func tinySpaceFindsTheLastFreeCodeThenIsExhausted() throws {
        let tiny = CodeSpace(alphabet: "AB", length: 4)  // 16 codes
        var generator = SeededGenerator(seed: 3)
        var taken: Set<LobbyCode> = []
        for _ in 0..<16 {
            let code = try LobbyCode.generate(in: tiny, using: &generator) { taken.contains($0) }
            taken.insert(code)
        }
        #expect(taken.count == 16)
        #expect(throws: CodeSpaceExhausted(attempts: 16)) {
            try LobbyCode.generate(in: tiny, using: &generator) { taken.contains($0) }
        }
    }

    @Test func largeSpaceGivesUpAfterMaxAttempts() {
        var generator = SeededGenerator(seed: 9)
        var asked = 0
        #expect(throws: CodeSpaceExhausted(attempts: 10)) {
            try RoomCode.generate(using: &generator, maxAttempts: 10) { _ in asked += 1; return true }
        }
        #expect(asked == 10)
    }

    @Test func invalidCandidatesFromAForeignSpaceCountAsTaken() {
        var generator = SeededGenerator(seed: 5)
        #expect(throws: CodeSpaceExhausted.self) {
            try LobbyCode.generate(in: CodeSpace(alphabet: "12", length: 4), using: &generator) { _ in false }
        }
    }
}
