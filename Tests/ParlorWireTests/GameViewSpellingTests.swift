import Foundation
import ParlorRules
import ParlorWire
import Testing

/// The word lobby's and the photo quiz's views are the rules' own views on the wire: read from the JSON
/// a server sends, they hold the rules' typed values, and written again they are that same JSON (times
/// ISO-8601, codes and phases as text, a guess flat, `winners` only once the match is over).
@Suite struct GameViewSpellingTests {
    static let revealedQuiz = """
        {"albums":[{"name":"Photos","photoCount":2}],
         "answer":{"city":"Paris","coordinate":{"latitude":48.8566,"longitude":2.3522},"country":"France",
                   "displayDate":"Jun 14, 2024","isOffline":false,"takenAt":"2024-06-14T09:30:00+02:00"},
         "code":"QWERT","createdAt":"2026-06-14T09:00:00.000Z",
         "currentPhoto":{"guessDeadline":"2026-06-14T09:30:20.000Z","photoId":"photo-1","previewHeight":1,"previewWidth":1,
                         "previews":{"0":"yBQU","7":"FLQU","12":"FBS0"},"revealEndsAt":"2026-06-14T09:30:15.000Z",
                         "revealedTiles":[7,0,12],"startedAt":"2026-06-14T09:30:00.000Z","uploadedBy":"\(user(1).rawValue)"},
         "finishedAt":null,
         "guesses":[{"distanceKm":0.5,"latitude":48.85,"longitude":2.35,"playerId":"\(user(3).rawValue)","points":4998},
                    {"distanceKm":343.25,"latitude":51.5,"longitude":-0.125,"playerId":"\(user(2).rawValue)","points":3972}],
         "hostId":"\(user(1).rawValue)","id":"quiz-1","phase":"revealed","photoCount":2,"photoIndex":0,
         "players":[{"hasGuessed":false,"id":"\(user(1).rawValue)","name":"Ann","photoCount":2,"score":0},
                    {"hasGuessed":true,"id":"\(user(2).rawValue)","name":"Bo","photoCount":0,"score":3972},
                    {"hasGuessed":true,"id":"\(user(3).rawValue)","name":"Cy","photoCount":0,"score":4998}],
         "rematch":null,"serverTime":"2026-06-14T09:30:21.000Z",
         "settings":{"albums":[],"revealSpeed":"slow","sessionLength":"5","timerDuration":20},
         "standings":null,"uploadCount":2,"version":9}
        """

    static let finishedLobby = """
        {"capacity":8,"creator":"\(user(1).rawValue)","finishedAt":"2026-01-30T12:35:56.789Z",
         "lastRound":{"endedAt":"2026-01-30T12:35:56.789Z","gameId":"start-b","gameName":"Starts with B","number":1,
                      "players":[{"points":2,"total":2,"userId":"\(user(1).rawValue)","username":"Ann",
                                  "words":[{"accepted":true,"points":2,"word":"banana"},
                                           {"accepted":false,"points":0,"reason":"Not a word.","word":"bxx"}]},
                                 {"points":0,"total":0,"userId":"\(user(2).rawValue)","username":"Bo","words":[]}]},
         "lobbyCode":"AXDF","lobbyId":"L1",
         "players":[{"colorNumber":1,"emojiNumber":2,"isCreator":true,"score":2,"userId":"\(user(1).rawValue)","username":"Ann"},
                    {"colorNumber":3,"emojiNumber":4,"isCreator":false,"score":0,"userId":"\(user(2).rawValue)","username":"Bo"}],
         "rematch":"QRST","rounds":1,"serverTime":"2026-01-30T12:35:57.000Z","status":"FINISHED","version":7,
         "winners":["\(user(1).rawValue)"]}
        """

    /// `text` and `bytes` as the same JSON value (keys, nulls, numbers).
    static func sameJSON(_ bytes: [UInt8], _ text: String) throws -> Bool {
        let written = try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
        let expected = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        return written != nil && written == expected
    }

    @Test func aQuizViewIsTheRulesViewAndWritesTheJSONItWasReadFrom() throws {
        let view = try WireJSON.decode(QuizView.self, from: Array(Self.revealedQuiz.utf8))
        #expect(view.code == QuizCode(uncheckedRawValue: "QWERT") && view.phase == .revealed && view.rematch == nil)
        #expect(view.createdAt == Instant(iso8601: "2026-06-14T09:00:00.000Z") && view.finishedAt == nil)
        #expect(view.serverTime == Instant(iso8601: "2026-06-14T09:30:21.000Z"))
        let photo = try #require(view.currentPhoto)
        #expect(photo.previews[12] == "FBS0" && photo.guessDeadline == Instant(iso8601: "2026-06-14T09:30:20.000Z"))
        #expect(view.answer?.takenAt == PhotoDate(year: 2024, month: 6, day: 14, hour: 9, minute: 30, second: 0, utcOffsetMinutes: 120))
        #expect(view.guesses?.map(\.coordinate.latitude) == [48.85, 51.5] && view.guesses?.first?.points == 4998)

        let written = try WireJSON.encode(view)
        #expect(try Self.sameJSON(written, Self.revealedQuiz), "\(text(written))")
        #expect(try WireJSON.decode(QuizView.self, from: written) == view)
        // Built from the rules' view alone, it has no `serverTime` until the server adds one.
        let bare = text(try WireJSON.encode(QuizView(view.quiz)))
        #expect(!bare.contains("serverTime") && bare.contains(#""rematch":null"#))
    }

    @Test func aPhotoDateThatIsNoDateIsRefused() {
        let impossible = Self.revealedQuiz.replacingOccurrences(of: "2024-06-14T09:30:00+02:00", with: "2024-02-30T09:30:00")
        #expect(throws: DecodingError.self) { try WireJSON.decode(QuizView.self, from: Array(impossible.utf8)) }
    }

    @Test func aLobbyViewIsTheRulesViewAndWritesTheJSONItWasReadFrom() throws {
        let view = try WireJSON.decode(LobbyView.self, from: Array(Self.finishedLobby.utf8))
        #expect(view.lobbyCode == LobbyCode(uncheckedRawValue: "AXDF") && view.status == .finished)
        #expect(view.rematch == LobbyCode(uncheckedRawValue: "QRST") && view.finishedAt == Instant(iso8601: "2026-01-30T12:35:56.789Z"))
        #expect(view.winners == [user(1)] && view.lastRound?.endedAt == Instant(iso8601: "2026-01-30T12:35:56.789Z"))
        let written = try WireJSON.encode(view)
        #expect(try Self.sameJSON(written, Self.finishedLobby), "\(text(written))")
        #expect(try WireJSON.decode(LobbyView.self, from: written) == view)
    }

    @Test func aRunningLobbyLeavesOutWhatItHasNot() throws {
        var lobby = try WordLobby.create(lobbyId: "L1", code: LobbyCode(parsing: "AXDF"), creator: user(1),
                                         profile: LobbyProfile(username: "Ann", colorNumber: 1, emojiNumber: 2), at: t0)
        _ = try lobby.startGame(.game(ViewTests.game), by: user(1), at: t0)
        let view = LobbyView(lobby, serverTime: t0.adding(seconds: 1))
        let written = try WireJSON.encode(view)
        let json = try parse(written)
        #expect(json["winners"] == nil && json["finishedAt"] == nil && json["rematch"] == nil && json["lastRound"] == nil)
        #expect(json["status"] as? String == "GAME" && json["serverTime"] as? String == "2026-01-30T12:34:57.789Z")
        #expect((json["round"] as? [String: Any])?["startedAt"] as? String == "2026-01-30T12:34:56.789Z")
        #expect(view.winners == nil && view.lobby.winners == [])
        #expect(try WireJSON.decode(LobbyView.self, from: written) == view)
    }
}
