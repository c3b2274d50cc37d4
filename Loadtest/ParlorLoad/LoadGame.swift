/// Which game a `rooms`-shaped run drives: rummy rooms (`parlor-load rooms`) or darts matches
/// (`parlor-load darts`). The run — set-up pace, open-loop timetable, fan-out tracking, checks, report —
/// is the same; what differs is named here and in `RoomMember`'s set-up and sending.
enum LoadGame: String, Codable, Sendable {
    case rummy
    case darts

    /// The report's `scenario`.
    var scenario: String {
        switch self {
        case .rummy: "rooms"
        case .darts: "darts"
        }
    }

    /// The event that carries the game's view.
    var event: String {
        switch self {
        case .rummy: "room"
        case .darts: "match"
        }
    }

    /// The measured operation, as the server's histograms label it.
    var operation: String {
        switch self {
        case .rummy: "submitScore"
        case .darts: "recordVisit"
        }
    }

    /// How sentences name one game and many.
    var noun: String {
        switch self {
        case .rummy: "room"
        case .darts: "match"
        }
    }

    var plural: String {
        switch self {
        case .rummy: "rooms"
        case .darts: "matches"
        }
    }

    /// What the actions are called in the report's table.
    var actions: String {
        switch self {
        case .rummy: "submissions"
        case .darts: "visits"
        }
    }

    /// What a player does on the timetable.
    var action: String {
        switch self {
        case .rummy: "a score"
        case .darts: "a visit"
        }
    }
}
