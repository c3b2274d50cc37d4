import Foundation
import ParlorRules

/// One action a game's rules scheduled: apply `action` (by the clock) once the clock reaches `due`.
struct ScheduledAction<Action: Sendable & Codable & Equatable>: Sendable, Codable, Equatable {
    /// The rules' name for it; scheduling the same key again replaces it.
    var key: String
    var due: Instant
    var action: Action
}

/// What the kernel keeps and stores with a game's state besides the rules: its scheduled actions
/// (`[{"key":…,"due":ms,"action":{…}}]`) and, when they are not the defaults, its access settings — an
/// element of their own, `{"access":{…}}`, first in the same array. The array is the stored form every
/// store already keeps and saves with the state in one write (PostgreSQL reads each element's `due`
/// for `due_at`; the access element has none), so access settings need no column of their own.
struct GameSchedule<Action: Sendable & Codable & Equatable>: Sendable, Equatable {
    private(set) var entries: [ScheduledAction<Action>] = []
    /// Who may join and watch the game.
    var access = GameAccess()

    init(access: GameAccess = GameAccess()) {
        self.access = access
    }

    /// Reads a stored schedule.
    init(json: String) throws {
        if json == StoredGame.emptySchedule { return }
        for element in try JSONDecoder().decode([StoredElement].self, from: Data(json.utf8)) {
            switch element {
            case .action(let entry): entries.append(entry)
            case .access(let access): self.access = access
            }
        }
    }

    /// One element of the stored array.
    private enum StoredElement: Codable {
        case action(ScheduledAction<Action>)
        case access(GameAccess)

        enum CodingKeys: String, CodingKey { case access }

        init(from decoder: any Decoder) throws {
            if let access = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(GameAccess.self, forKey: .access) {
                self = .access(access)
            } else {
                self = .action(try ScheduledAction(from: decoder))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .action(let entry): try entry.encode(to: encoder)
            case .access(let access):
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(access, forKey: .access)
            }
        }
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
        if access.isDefault {
            if entries.isEmpty { return StoredGame.emptySchedule }
            return try StoredJSON.encode(entries, what: "a schedule")
        }
        return try StoredJSON.encode([StoredElement.access(access)] + entries.map(StoredElement.action), what: "a schedule")
    }
}
