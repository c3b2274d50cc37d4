@testable import ParlorRules

// The rules of a game that exists only to show what a game is on Parlor's kernel (docs/ARCHITECTURE.md,
// "Adding a game"): a shared counter. Players press it; each sees only their own presses (a private
// view); anyone may set a bell that rings later on the server's clock and survives a restart (a
// scheduled action); closing it files it in its players' history (archive); the last one out deletes
// it. In a real game this file lives in `Sources/ParlorRules/<Game>/`.

/// A counter's code: 5 digits.
struct CounterCode: ShortCode {
    static let space = CodeSpace(alphabet: "0123456789", length: 5)
    static let kindName = "Counter code"
    let rawValue: String

    init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }
}

enum CounterError: Error, Equatable {
    case notMember
    case invalid(String)
    case closed
}

enum CounterAction: Sendable, Codable, Equatable {
    case join
    case press(times: Int)
    /// Ring the bell `seconds` from now (replacing a bell already set).
    case setBell(seconds: Int)
    case cancelBell
    /// Scheduled by `setBell`; only the clock rings it.
    case ring
    case close
    case leave
    /// The first player takes another's place away (`Kickable`); nothing here ends their streams: the
    /// kernel does, as the rules no longer let them watch.
    case remove(UserID)
}

enum CounterEvent: Sendable, Equatable {
    case joined(UserID), pressed(UserID, Int), bellSet(Instant), bellCancelled, rang, closed, left(UserID)
}

struct Counter: GameRules, Codable, Equatable {
    typealias Action = CounterAction
    typealias Failure = CounterError
    typealias Event = CounterEvent

    let id: String
    let code: CounterCode
    let createdAt: Instant
    private(set) var players: [UserID]
    private(set) var count = 0
    private(set) var rings = 0
    private(set) var bell: Instant?
    private(set) var isClosed = false
    /// Each player's own presses: private.
    private(set) var presses: [UserID: Int] = [:]
    private(set) var version = 1

    static let bellSchedule = "bell"

    static func create(id: String, code: CounterCode, by user: UserID, at now: Instant) -> Counter {
        Counter(id: id, code: code, createdAt: now, players: [user])
    }

    var members: [UserID] { players }

    /// Waiting until someone presses, finished once closed.
    var stage: GameStage { isClosed ? .finished : count > 0 ? .playing : .waiting }

    func checkObserver(_ user: UserID?) throws(CounterError) {
        guard let user, players.contains(user) else { throw .notMember }
    }

    mutating func apply(_ action: CounterAction, by caller: Caller, at now: Instant, in _: Void) throws(CounterError) -> GameOutcome<Counter> {
        if action == .ring {
            guard caller == .clock else { throw .invalid("Only the clock rings the bell.") }
            rings += 1
            bell = nil
            version += 1
            return GameOutcome(events: [.rang])
        }
        guard let user = caller.user else { throw .invalid("The clock only rings.") }
        if action == .join {
            guard !players.contains(user) else { return GameOutcome() }
            guard !isClosed else { throw .closed }
            players.append(user)
            version += 1
            return GameOutcome(events: [.joined(user)])
        }
        guard players.contains(user) else { throw .notMember }
        switch action {
        case .press(let times):
            guard !isClosed else { throw .closed }
            guard (1...100).contains(times) else { throw .invalid("times must be between 1 and 100.") }
            count += times
            presses[user, default: 0] += times
            version += 1
            return GameOutcome(events: [.pressed(user, times)])
        case .setBell(let seconds):
            guard (1...3600).contains(seconds) else { throw .invalid("seconds must be between 1 and 3600.") }
            let due = now.adding(seconds: seconds)
            bell = due
            version += 1
            return GameOutcome(events: [.bellSet(due)], effects: [.schedule(key: Self.bellSchedule, at: due, .ring)])
        case .cancelBell:
            guard bell != nil else { return GameOutcome() }
            bell = nil
            version += 1
            return GameOutcome(events: [.bellCancelled], effects: [.cancelSchedule(key: Self.bellSchedule)])
        case .close:
            guard !isClosed else { return GameOutcome() }
            isClosed = true
            version += 1
            return GameOutcome(
                events: [.closed],
                effects: [.archive(GameArchive(key: "\(id)@\(createdAt.millisecondsSinceEpoch)", players: players, finishedAt: now))])
        case .leave:
            players.removeAll { $0 == user }
            presses[user] = nil
            version += 1
            return GameOutcome(events: [.left(user)], effects: players.isEmpty ? [.delete] : [.revokeView(user)])
        case .remove(let player):
            guard user == players.first else { throw .invalid("Only the first player removes.") }
            guard player != user, players.contains(player) else { throw .invalid("No such other player.") }
            players.removeAll { $0 == player }
            presses[player] = nil
            version += 1
            return GameOutcome(events: [.left(player)])
        case .join, .ring:
            return GameOutcome()  // Handled above.
        }
    }

    struct PublicView: Sendable, Codable {
        let id: String
        let code: String
        let count: Int
        let rings: Int
        let bell: Instant?
        let players: Int
        let isClosed: Bool
        let version: Int
    }

    var publicView: PublicView {
        PublicView(id: id, code: code.rawValue, count: count, rings: rings, bell: bell, players: players.count, isClosed: isClosed, version: version)
    }

    struct PrivateView: Sendable, Codable {
        let userId: UserID
        let presses: Int
        let version: Int
    }

    func privateView(for user: UserID) -> PrivateView {
        PrivateView(userId: user, presses: presses[user] ?? 0, version: version)
    }
}

extension Counter: Kickable {
    static func kick(_ player: UserID) -> CounterAction { .remove(player) }
}
