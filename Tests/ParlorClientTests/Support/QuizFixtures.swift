import Foundation
import ParlorPlaces
import ParlorRules
@testable import ParlorTerminal
import ParlorWire

/// Photo quiz views for the terminal's tests, read from the JSON the server sends: Ann (host), Bo and Cy;
/// Ann's photo of Paris, played first of two.
enum QuizFixtures {
    static let ann = RoomFixtures.ann
    static let bo = UserID("00000000-0000-4000-8000-00000000000b")!
    static let cy = UserID("00000000-0000-4000-8000-00000000000c")!
    static let code = "QWERT"
    /// The server's clock when the views were sent; the photo started 3 s before.
    static let serverTime = "2026-06-14T09:30:03.000Z"

    /// Two tiles' previews, 2 × 2 pixels each: tile 0 red, tile 7 green.
    static let previews = [
        "0": Data([200, 20, 20, 200, 20, 20, 200, 20, 20, 200, 20, 20]).base64EncodedString(),
        "7": Data([20, 180, 20, 20, 180, 20, 20, 180, 20, 20, 180, 20]).base64EncodedString(),
    ]

    static func view(_ phase: String, version: Int = 5, guessed: Bool = false) throws -> QuizView {
        let player = { (id: UserID, name: String, score: Int, hasGuessed: Bool, photos: Int) -> [String: Any] in
            ["id": id.description, "name": name, "score": score, "hasGuessed": hasGuessed, "photoCount": photos]
        }
        let started = phase != "waiting"
        let revealed = phase == "revealed" || phase == "complete"
        var json: [String: Any] = [
            "id": "quiz-1", "code": code, "phase": phase, "hostId": ann.description,
            "settings": ["revealSpeed": "slow", "timerDuration": 20, "sessionLength": "5", "albums": [String]()],
            "players": [
                player(ann, "Ann", 0, false, 1), player(bo, "Bo", revealed ? 3972 : 0, guessed || revealed, 1),
                player(cy, "Cy", revealed ? 5000 : 0, revealed, 0),
            ],
            "uploadCount": 2, "albums": [["name": "Photos", "photoCount": 2]], "photoCount": 2,
            "photoIndex": started && phase != "complete" ? 0 as Any : NSNull() as Any,
            "currentPhoto": NSNull(), "answer": NSNull(), "guesses": NSNull(), "standings": NSNull(),
            "createdAt": "2026-06-14T09:00:00.000Z", "finishedAt": NSNull(), "version": version, "serverTime": serverTime,
        ]
        if phase == "revealing" || phase == "revealed" {
            json["currentPhoto"] = [
                "photoId": "photo-1", "uploadedBy": ann.description, "revealedTiles": phase == "revealed" ? Array(0..<36) : [7, 0],
                "previews": phase == "revealed" ? Dictionary(uniqueKeysWithValues: (0..<36).map { (String($0), previews[$0 % 2 == 0 ? "0" : "7"] ?? "") }) : previews,
                "previewWidth": 2, "previewHeight": 2, "startedAt": "2026-06-14T09:30:00.000Z",
                "revealEndsAt": "2026-06-14T09:30:15.000Z", "guessDeadline": "2026-06-14T09:30:20.000Z",
            ]
        }
        if phase == "revealed" {
            json["answer"] = [
                "coordinate": ["latitude": 48.8566, "longitude": 2.3522], "city": "Paris", "country": "France",
                "displayDate": "Jun 14, 2024", "takenAt": "2024-06-14T09:30:00+02:00", "isOffline": false,
            ]
            json["guesses"] = [
                ["playerId": cy.description, "latitude": 48.8566, "longitude": 2.3522, "distanceKm": 0.0, "points": 5000],
                ["playerId": bo.description, "latitude": 51.5074, "longitude": -0.1278, "distanceKm": 343.5565, "points": 3972],
            ]
        }
        if phase == "complete" {
            json["standings"] = [
                ["rank": 1, "playerId": cy.description, "name": "Cy", "score": 5000],
                ["rank": 2, "playerId": bo.description, "name": "Bo", "score": 3972],
                ["rank": 3, "playerId": ann.description, "name": "Ann", "score": 0],
            ]
        }
        return try JSONDecoder().decode(QuizView.self, from: JSONSerialization.data(withJSONObject: json))
    }

    /// Lyon, Paris (twice: France and Texas) and Kyoto, to look typed names up in.
    static let places = PlaceLookup(Places([
        Place(name: "Lyon", admin1: "Auvergne-Rhone-Alpes", countryCode: "FR", latitude: 45.74846, longitude: 4.84671),
        Place(name: "Paris", admin1: "Ile-de-France", countryCode: "FR", latitude: 48.85341, longitude: 2.3488),
        Place(name: "Paris", admin1: "Texas", countryCode: "US", latitude: 33.66094, longitude: -95.55551),
        Place(name: "Kyoto", admin1: "Kyoto", countryCode: "JP", latitude: 35.02107, longitude: 135.75385),
    ]))

    /// The screen as `me` sees `view`, on a device 2 s ahead of the server, a second after reading it (16 s left to guess).
    static func screen(_ view: QuizView, me: UserID = bo) -> QuizScreenState {
        let received = Instant(iso8601: "2026-06-14T09:30:05.000Z") ?? .epoch  // this device is 2 s ahead
        var state = QuizScreenState(server: "ws://localhost:8080/ws", code: code, me: me, places: places, now: received)
        _ = state.receive(view, at: received)
        state.now = received.adding(milliseconds: 1000)
        state.connection = .connected(userId: me)
        return state
    }
}
