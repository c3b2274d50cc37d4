import NIOConcurrencyHelpers
import ParlorRules

/// Who is online and which live game each user is playing: game expiry asks whether anyone in a game is
/// still connected, and friends are told when someone comes, goes, or sits down to play.
///
/// Connections are counted as they open and close (`connected`, `disconnected`); games report who is
/// playing them (`setPlayers`). What others are told is settled, not raw: changes are gathered and
/// announced at most once per `settle` interval, and a user whose last connection closed still counts as
/// online for `offlineGrace`, so a phone that drops and reconnects (a lift, a tunnel, a flaky cell)
/// tells its friends nothing at all. Listeners (`onChange`) receive only users whose settled status
/// differs from what was last announced.
public final class Presence: Sendable {
    /// A live game someone is playing, as friends can find it: its kind's name and its code.
    public struct Place: Sendable, Hashable {
        public let kind: String
        public let code: String

        public init(kind: String, code: String) {
            self.kind = kind
            self.code = code
        }
    }

    /// What others are told about a user.
    public struct Status: Sendable, Equatable {
        public var online: Bool
        /// The live game they most recently sat down in, among those they still play.
        public var playing: Place?

        public init(online: Bool = false, playing: Place? = nil) {
            self.online = online
            self.playing = playing
        }

        public static let away = Status()
    }

    private struct Game {
        var place: Place
        var players: [UserID]
    }

    private struct State {
        var connections: [UserID: Int] = [:]
        /// When each user without a connection lost their last one, during their grace.
        var wentOffline: [UserID: Instant] = [:]
        /// Live games with players, by kind and id.
        var games: [String: Game] = [:]
        /// The games each user plays, in the order they sat down.
        var playing: [UserID: [String]] = [:]
        /// Users whose status may have changed since it was last announced.
        var unsettled: Set<UserID> = []
        /// Every status announced that is not `away`.
        var announced: [UserID: Status] = [:]
        var settleArmed = false
        var listeners: [@Sendable ([UserID: Status]) -> Void] = []
        var settleListeners: [@Sendable ([UserID]) -> Void] = []
    }

    private let state = NIOLockedValueBox(State())
    private let clock: any ParlorClock
    private let timers: GameTimers
    private let settleMilliseconds: Int64
    private let graceMilliseconds: Int64

    /// One second to settle and five of grace by default: a change reaches friends within a second or
    /// two, and a reconnect within five seconds is never seen.
    init(clock: any ParlorClock, timers: GameTimers, settleSeconds: Double = 1, offlineGraceSeconds: Double = 5) {
        self.clock = clock
        self.timers = timers
        settleMilliseconds = Int64(settleSeconds * 1000)
        graceMilliseconds = Int64(offlineGraceSeconds * 1000)
    }

    // MARK: Connections

    public func connected(_ user: UserID) {
        update(user) { state in
            state.connections[user, default: 0] += 1
            state.wentOffline.removeValue(forKey: user)
        }
    }

    public func disconnected(_ user: UserID) {
        let now = clock.now
        update(user) { state in
            guard let count = state.connections[user] else { return }
            if count > 1 {
                state.connections[user] = count - 1
            } else {
                state.connections.removeValue(forKey: user)
                state.wentOffline[user] = now
            }
        }
    }

    /// Whether the user has an open connection right now (not settled: expiry must not wait).
    public func isConnected(_ user: UserID) -> Bool {
        state.withLockedValue { $0.connections[user] != nil }
    }

    /// Whether each of `users` is shown online in the games they play: connected, or within the grace
    /// since their last connection closed — so a reconnect within the grace is never seen, and a user
    /// who just sat down is there at once. Games look again after each settle (`onSettle`).
    func shownOnline(_ users: [UserID]) -> [Bool] {
        state.withLockedValue { state in
            users.map { state.connections[$0] != nil || state.wentOffline[$0] != nil }
        }
    }

    public var connectedUsers: Int { state.withLockedValue { $0.connections.count } }

    /// The users with an open connection right now.
    var connectedUserIDs: [UserID] { state.withLockedValue { Array($0.connections.keys) } }

    // MARK: Games

    /// The players of the live game `key` (its kind and id) are now `players` (none when it is over or
    /// gone); `place` says how friends find it.
    func setPlayers(of key: String, at place: Place, to players: [UserID]) {
        let changed = state.withLockedValue { state -> [UserID] in
            let before = state.games[key]?.players ?? []
            guard before != players else { return [] }
            if players.isEmpty {
                state.games.removeValue(forKey: key)
            } else {
                state.games[key] = Game(place: place, players: players)
            }
            let left = before.filter { !players.contains($0) }
            let joined = players.filter { !before.contains($0) }
            for user in left {
                state.playing[user]?.removeAll { $0 == key }
                if state.playing[user]?.isEmpty == true { state.playing.removeValue(forKey: user) }
            }
            for user in joined { state.playing[user, default: []].append(key) }
            return left + joined
        }
        guard !changed.isEmpty else { return }
        unsettle(changed)
    }

    // MARK: What others are told

    /// The status last announced for `user`.
    public func status(of user: UserID) -> Status {
        state.withLockedValue { $0.announced[user] ?? .away }
    }

    /// Calls `listener` with the users whose announced status changed, and their new status, after each
    /// settle. Called on a timer's task: it must return quickly.
    public func onChange(_ listener: @escaping @Sendable ([UserID: Status]) -> Void) {
        state.withLockedValue { $0.listeners.append(listener) }
    }

    /// Calls `listener` after each settle with every user it settled (their grace over, if they had
    /// one), whether or not what friends are told changed: what `shownOnline` says of them may have.
    /// Called on a timer's task: it must return quickly.
    func onSettle(_ listener: @escaping @Sendable ([UserID]) -> Void) {
        state.withLockedValue { $0.settleListeners.append(listener) }
    }

    private func update(_ user: UserID, _ change: (inout State) -> Void) {
        state.withLockedValue { change(&$0) }
        unsettle([user])
    }

    /// Marks users to be looked at in the next settle, arming it if none is pending.
    private func unsettle(_ users: [UserID]) {
        let arm = state.withLockedValue { state -> Bool in
            state.unsettled.formUnion(users)
            guard !state.settleArmed else { return false }
            state.settleArmed = true
            return true
        }
        if arm { armSettle(in: settleMilliseconds) }
    }

    private func armSettle(in milliseconds: Int64) {
        timers.arm(at: clock.now.adding(milliseconds: milliseconds)) { [self] in settle() }
    }

    /// Announces every unsettled user whose status now differs from the last announced one. A user
    /// still within their offline grace stays unsettled until it ends.
    func settle() {
        let now = clock.now
        let (changes, settled, rearm) = state.withLockedValue { state -> ([UserID: Status], [UserID], Int64?) in
            var changes: [UserID: Status] = [:]
            var settled: [UserID] = []
            var waiting: Set<UserID> = []
            var nextGraceEnd: Int64?
            for user in state.unsettled {
                let graceEnd = state.wentOffline[user].map { $0.millisecondsSinceEpoch + graceMilliseconds }
                if let graceEnd, graceEnd > now.millisecondsSinceEpoch {
                    waiting.insert(user)
                    nextGraceEnd = min(nextGraceEnd ?? graceEnd, graceEnd)
                    continue
                }
                state.wentOffline.removeValue(forKey: user)
                settled.append(user)
                let current = Status(
                    online: state.connections[user] != nil,
                    playing: state.playing[user]?.last.flatMap { state.games[$0]?.place })
                guard current != state.announced[user] ?? .away else { continue }
                changes[user] = current
                state.announced[user] = current == .away ? nil : current
            }
            state.unsettled = waiting
            let rearm = nextGraceEnd.map { max($0 - now.millisecondsSinceEpoch, settleMilliseconds) }
            state.settleArmed = rearm != nil
            return (changes, settled, rearm)
        }
        if let rearm { armSettle(in: rearm) }
        let (listeners, settleListeners) = state.withLockedValue { ($0.listeners, $0.settleListeners) }
        if !settled.isEmpty {
            for listener in settleListeners { listener(settled) }
        }
        guard !changes.isEmpty else { return }
        for listener in listeners { listener(changes) }
    }
}
