import Foundation
import ParlorClient
import ParlorRules

/// What `parlor watch CODE` watches, told by the code's shape: 6 characters a room, 4 letters a word
/// lobby, 5 a darts match or a photo quiz. Their alphabets overlap (a quiz code is also a valid match
/// code), so a 5-character code without a digit is asked of the server as a match first.
enum WatchedCode: Equatable, Sendable {
    case room(String)
    case lobby(String)
    case match(String)
    case quiz(String)
    /// Valid as both: the server decides (`resolve`).
    case matchOrQuiz(String)

    /// The code as the server reads it, or a sentence that says which shapes a code may have.
    static func parse(_ text: String) throws(WatchedCodeError) -> WatchedCode {
        if let room = try? RoomCode(parsing: text) { return .room(room.rawValue) }
        if let lobby = try? LobbyCode(parsing: text) { return .lobby(lobby.rawValue) }
        let match = try? MatchCode(parsing: text)
        let quiz = try? QuizCode(parsing: text)
        switch (match, quiz) {
        case (let match?, _?): return .matchOrQuiz(match.rawValue)
        case (let match?, nil): return .match(match.rawValue)
        case (nil, let quiz?): return .quiz(quiz.rawValue)
        case (nil, nil): throw WatchedCodeError(code: text)
        }
    }

    /// A match if the server has one with this code, else a quiz; unchanged when already decided.
    /// Asking fails only when the server cannot be reached.
    func resolve(with client: ParlorClient) async throws(ParlorClientError) -> WatchedCode {
        guard case .matchOrQuiz(let code) = self else { return self }
        do throws(ParlorClientError) {
            _ = try await client.getMatch(code: code)
            return .match(code)
        } catch {
            guard error.serverCode == .matchNotFound else { throw error }
            return .quiz(code)
        }
    }
}

/// A code of no game's shape.
struct WatchedCodeError: Error, CustomStringConvertible {
    let code: String

    var description: String {
        "\"\(code.trimmingCharacters(in: .whitespaces))\" is not a game code: a room's has 6 characters (A1B2C3), a word lobby's 4 letters (GDTS), "
            + "a darts match's or a photo quiz's 5 (K7QX4)."
    }
}
