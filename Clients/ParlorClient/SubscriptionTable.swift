import ParlorWire

/// The client's subscriptions: for each target the streams its callers hold, the server's subscription
/// id on the current connection, and the newest version delivered.
///
/// A plain value, driven under the client's lock; what must happen to streams comes back as
/// ``Effect``s for the client to carry out once the lock is released (finishing a stream runs its
/// termination handler, which comes back to the client).
///
/// The streams outlive connections: on a new connection the client subscribes every target again and
/// the new server id is bound to the same entry. Versions make that seamless: a snapshot whose version
/// is not newer than the last one delivered is dropped, so a re-subscription that repeats the current
/// room (or an event that overtakes another) never shows an older state.
struct SubscriptionTable: Sendable {
    enum Sink: Sendable {
        case room(AsyncStream<GameRoom?>.Continuation)
        case lobby(AsyncStream<LobbyUpdate>.Continuation)
        case match(AsyncStream<MatchView?>.Continuation)
        case quiz(AsyncStream<QuizView?>.Continuation)
    }

    enum Effect: Sendable {
        case room([AsyncStream<GameRoom?>.Continuation], GameRoom?)
        case lobby([AsyncStream<LobbyUpdate>.Continuation], LobbyUpdate)
        case match([AsyncStream<MatchView?>.Continuation], MatchView?)
        case quiz([AsyncStream<QuizView?>.Continuation], QuizView?)
        /// Who of a followed game's players is connected (beside its views, without a version).
        case presence(PresenceView)
        /// The operator closed a followed game, for this reason (its `null` and `end` follow).
        case closed(String)
        case finish([Sink])
        /// The server ended a subscription nobody asked to end, the target still existing: subscribe
        /// again on this connection.
        case resubscribe(SubscriptionTarget)
        /// An event that could not be read.
        case malformed(String)
    }

    struct Entry: Sendable {
        let target: SubscriptionTarget
        var sinks: [Int: Sink] = [:]
        var serverID: Int?
        /// The newest version delivered (room, match or public lobby view).
        var version: Int?
        var privateVersion: Int?
        var deleted = false
        var lastRoom: GameRoom?
        var lastLobby: LobbyView?
        var lastMatch: MatchView?
        var lastQuiz: QuizView?
        var lastPlayerWords: PlayerWordsView?
        /// The connection on which an unexpected `end` was last answered by subscribing again.
        var resubscribedOnGeneration: Int?
    }

    private(set) var entries: [SubscriptionTarget: Entry] = [:]
    private var targetsByServerID: [Int: SubscriptionTarget] = [:]
    private var nextSinkID = 0

    var targets: [SubscriptionTarget] { entries.keys.sorted { $0.description < $1.description } }

    func serverID(of target: SubscriptionTarget) -> Int? { entries[target]?.serverID }

    /// Adds a stream for `target`. A stream joining a target that already has a state is primed with it.
    mutating func addSink(_ sink: Sink, for target: SubscriptionTarget) -> (id: Int, prime: Effect?) {
        nextSinkID += 1
        let id = nextSinkID
        var entry = entries[target] ?? Entry(target: target)
        entry.sinks[id] = sink
        entries[target] = entry
        var prime: Effect?
        switch sink {
        case .room(let continuation):
            if let room = entry.lastRoom { prime = .room([continuation], room) }
        case .lobby(let continuation):
            if let lobby = entry.lastLobby { prime = .lobby([continuation], .lobby(lobby)) }
        case .match(let continuation):
            if let match = entry.lastMatch { prime = .match([continuation], match) }
        case .quiz(let continuation):
            if let quiz = entry.lastQuiz { prime = .quiz([continuation], quiz) }
        }
        return (id, prime)
    }

    /// Removes a stream. When it was the target's last, the target is forgotten, and its server id is
    /// returned for the client to unsubscribe.
    mutating func removeSink(_ id: Int, from target: SubscriptionTarget) -> Int? {
        guard var entry = entries[target], entry.sinks.removeValue(forKey: id) != nil else { return nil }
        guard entry.sinks.isEmpty else {
            entries[target] = entry
            return nil
        }
        entries[target] = nil
        guard let serverID = entry.serverID else { return nil }
        targetsByServerID[serverID] = nil
        return serverID
    }

    /// The server answered a subscribe request for `target` with `serverID`.
    mutating func bind(_ target: SubscriptionTarget, to serverID: Int) {
        guard var entry = entries[target] else { return }
        if let old = entry.serverID, old != serverID { targetsByServerID[old] = nil }
        entry.serverID = serverID
        entries[target] = entry
        targetsByServerID[serverID] = target
    }

    /// The connection is gone, and with it every server subscription id.
    mutating func unbindAll() {
        targetsByServerID = [:]
        for target in entries.keys { entries[target]?.serverID = nil }
    }

    /// The target no longer exists: tell its streams (nil / `.deleted`) and end them.
    mutating func targetGone(_ target: SubscriptionTarget) -> [Effect] {
        guard let entry = entries.removeValue(forKey: target) else { return [] }
        if let serverID = entry.serverID { targetsByServerID[serverID] = nil }
        return (entry.deleted ? [] : Self.deletion(of: entry)) + [.finish(Array(entry.sinks.values))]
    }

    /// The target exists but no longer lets us watch it (a lobby we were removed from): tell its streams
    /// (`.removed`) and end them.
    mutating func targetRevoked(_ target: SubscriptionTarget) -> [Effect] {
        guard let entry = entries.removeValue(forKey: target) else { return [] }
        if let serverID = entry.serverID { targetsByServerID[serverID] = nil }
        return [.lobby(entry.lobbySinks, .removed), .finish(Array(entry.sinks.values))]
    }

    /// Ends every stream (the client was closed).
    mutating func finishAll() -> [Effect] {
        let sinks = entries.values.flatMap { $0.sinks.values }
        entries = [:]
        targetsByServerID = [:]
        return sinks.isEmpty ? [] : [.finish(sinks)]
    }

    /// An event frame for server subscription `sub` (`frame` is the whole frame).
    mutating func receive(sub: Int, event: EventName?, frame: [UInt8], generation: Int) -> [Effect] {
        guard let target = targetsByServerID[sub], var entry = entries[target] else { return [] }
        switch event {
        case .end?:
            targetsByServerID[sub] = nil
            entry.serverID = nil
            if entry.deleted {
                entries[target] = nil
                return [.finish(Array(entry.sinks.values))]
            }
            guard entry.resubscribedOnGeneration != generation else {
                entries[target] = entry
                return []
            }
            entry.resubscribedOnGeneration = generation
            entries[target] = entry
            return [.resubscribe(target)]
        case .room?:
            guard case .room = target else { return [] }
            return deliver(GameRoom.self, frame, to: &entry, keep: { $0.lastRoom = $1 }) { .room($0.roomSinks, $1) }
        case .lobby?:
            guard target.isLobby else { return [] }
            return deliver(LobbyView.self, frame, to: &entry, keep: { $0.lastLobby = $1 }) { .lobby($0.lobbySinks, .lobby($1)) }
        case .match?:
            guard case .match = target else { return [] }
            return deliver(MatchView.self, frame, to: &entry, keep: { $0.lastMatch = $1 }) { .match($0.matchSinks, $1) }
        case .quiz?:
            guard case .quiz = target else { return [] }
            return deliver(QuizView.self, frame, to: &entry, keep: { $0.lastQuiz = $1 }) { .quiz($0.quizSinks, $1) }
        case .lobbyPrivate?:
            guard target.isLobby else { return [] }
            do {
                guard let words = try WireJSON.decode(ServerFrame.Event<PlayerWordsView>.self, from: frame).data else { return [] }
                return deliver(playerWords: words, to: &entry)
            } catch {
                return [.malformed("a private lobby event for \(target) could not be read (\(error))")]
            }
        case .closed?:
            do {
                guard let closed = try WireJSON.decode(ServerFrame.Event<ClosedReason>.self, from: frame).data else { return [] }
                return [.closed(closed.reason)]
            } catch {
                return [.malformed("a closed event for \(target) could not be read (\(error))")]
            }
        case .presence?:
            do {
                guard let presence = try WireJSON.decode(ServerFrame.Event<PresenceView>.self, from: frame).data else { return [] }
                return [.presence(presence)]
            } catch {
                return [.malformed("a presence event for \(target) could not be read (\(error))")]
            }
        default:
            return []
        }
    }

    /// A public view's event (a room, a lobby, a match, a quiz): null means the target was deleted; a version
    /// not newer than the last delivered is dropped; otherwise `keep` remembers it (to prime later
    /// streams) and `effect` delivers it.
    private mutating func deliver<View: Decodable & Sendable & VersionedView>(
        _ type: View.Type, _ frame: [UInt8], to entry: inout Entry,
        keep: (inout Entry, View) -> Void, effect: (Entry, View) -> Effect
    ) -> [Effect] {
        defer { entries[entry.target] = entry }
        let data: View?
        do {
            data = try WireJSON.decode(ServerFrame.Event<View>.self, from: frame).data
        } catch {
            return [.malformed("an event for \(entry.target) could not be read (\(error))")]
        }
        guard let view = data else {
            guard !entry.deleted else { return [] }
            entry.deleted = true
            return Self.deletion(of: entry)
        }
        if let version = entry.version, view.version <= version { return [] }
        entry.version = view.version
        keep(&entry, view)
        entry.deleted = false
        return [effect(entry, view)]
    }

    private mutating func deliver(playerWords: PlayerWordsView, to entry: inout Entry) -> [Effect] {
        defer { entries[entry.target] = entry }
        if let version = entry.privateVersion, playerWords.version <= version { return [] }
        entry.privateVersion = playerWords.version
        entry.lastPlayerWords = playerWords
        return [.lobby(entry.lobbySinks, .playerWords(playerWords))]
    }

    private static func deletion(of entry: Entry) -> [Effect] {
        switch entry.target {
        case .room: [.room(entry.roomSinks, nil)]
        case .lobby, .watchedLobby: [.lobby(entry.lobbySinks, .deleted)]
        case .match: [.match(entry.matchSinks, nil)]
        case .quiz: [.quiz(entry.quizSinks, nil)]
        }
    }
}

extension SubscriptionTable.Entry {
    var roomSinks: [AsyncStream<GameRoom?>.Continuation] {
        sinks.keys.sorted().compactMap { if case .room(let c) = sinks[$0] { c } else { nil } }
    }

    var lobbySinks: [AsyncStream<LobbyUpdate>.Continuation] {
        sinks.keys.sorted().compactMap { if case .lobby(let c) = sinks[$0] { c } else { nil } }
    }

    var matchSinks: [AsyncStream<MatchView?>.Continuation] {
        sinks.keys.sorted().compactMap { if case .match(let c) = sinks[$0] { c } else { nil } }
    }

    var quizSinks: [AsyncStream<QuizView?>.Continuation] {
        sinks.keys.sorted().compactMap { if case .quiz(let c) = sinks[$0] { c } else { nil } }
    }
}

/// A public view a subscription delivers whole, each with its version.
protocol VersionedView {
    var version: Int { get }
}

extension GameRoom: VersionedView {}
extension LobbyView: VersionedView {}
extension MatchView: VersionedView {}
extension QuizView: VersionedView {}

/// A `closed` event's data: why the operator closed the game.
struct ClosedReason: Decodable, Sendable {
    let reason: String
}
