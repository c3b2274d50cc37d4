import Foundation
import ParlorRules

/// One action a game's rules scheduled: apply `action` (by the clock) once the clock reaches `due`.
struct ScheduledAction<Action: Sendable & Codable & Equatable>: Sendable, Codable, Equatable {
    /// The rules' name for it; scheduling the same key again replaces it.
    var key: String
    var due: Instant
    var action: Action
}

/// A game's scheduled actions, kept and stored with its state: `[{"key":…,"due":ms,"action":{…}}]`.
struct GameSchedule<Action: Sendable & Codable & Equatable>: Sendable, Equatable {
    private(set) var entries: [ScheduledAction<Action>] = []

    init() {}

    /// Reads a stored schedule.
    init(json: String) throws {
        if json == StoredGame.emptySchedule { return }
        entries = try JSONDecoder().decode([ScheduledAction<Action>].self, from: Data(json.utf8))
    }

    var isEmpty: Bool { entries.isEmpty }

    subscript(key: String) -> ScheduledAction<Action>? { entries.first { $0.key == key } }

    /// Carries out a `schedule` or `cancelSchedule` effect; other effects are not the schedule's.
    /// Returns the action scheduled, if this scheduled one.
    @discardableResult
    mutating func apply(_ effect: GameEffect<Action>) -> ScheduledAction<Action>? {
        switch effect {
        case .schedule(let key, let due, let action):
            let scheduled = ScheduledAction(key: key, due: due, action: action)
            if let index = entries.firstIndex(where: { $0.key == key }) {
                entries[index] = scheduled
            } else {
                entries.append(scheduled)
            }
            return scheduled
        case .cancelSchedule(let key):
            remove(key)
            return nil
        case .delete, .archive, .revokeView:
            return nil
        }
    }

    mutating func remove(_ key: String) {
        entries.removeAll { $0.key == key }
    }

    /// The stored form.
    func json() throws(StoreError) -> String {
        if entries.isEmpty { return StoredGame.emptySchedule }
        return try StoredJSON.encode(entries, what: "a schedule")
    }
}
