import Foundation
import ParlorRules
import ParlorWire

/// What happens to one room life, drawn from the run's seed when it begins.
struct SoakPlan: Sendable {
    var fate: SoakFate
    /// Rounds played before an abandoned room is left (a finished one plays until the rules end it).
    var roundsBeforeAbandoning: Int
    /// Per round (from 1): the member that drops its connection before the round's scores and comes
    /// back (`hello {token}`, observes again) before the round closes.
    var drops: [Int: Int]
    /// Per round: the spectator (or player) that unsubscribes before the round's scores and observes
    /// again before the round closes.
    var unsubscribes: [Int: Int]
    /// The score of each submission, drawn in turn.
    var scores: SplitMix64

    /// The most rounds a rummy game has.
    static let maxRounds = 6

    init(parameters: SoakParameters, random: inout SplitMix64) {
        let draw = Double(random.next() >> 11) / Double(1 << 53)
        if draw >= parameters.abandonShare {
            fate = .finished
        } else {
            fate = draw < parameters.abandonShare / 2 ? .left : .disconnected
        }
        roundsBeforeAbandoning = Int(random.next() % 3) + 1
        var drops: [Int: Int] = [:]
        var unsubscribes: [Int: Int] = [:]
        let others = Array(1..<parameters.membersPerRoom)
        let spectators = Array(parameters.players..<parameters.membersPerRoom)
        for round in 1...Self.maxRounds {
            if !others.isEmpty, Self.chance(parameters.dropChance, &random) {
                drops[round] = others[Int(random.next() % UInt64(others.count))]
            }
            let listeners = (spectators.isEmpty ? others : spectators).filter { $0 != drops[round] }
            if !listeners.isEmpty, Self.chance(parameters.unsubscribeChance, &random) {
                unsubscribes[round] = listeners[Int(random.next() % UInt64(listeners.count))]
            }
        }
        self.drops = drops
        self.unsubscribes = unsubscribes
        scores = SplitMix64(seed: random.next())
    }

    /// Whether `member`'s connection opened in `round` (0: set-up) ends abruptly: it drops later in
    /// the life, or every connection drops at its end.
    func dropsAbruptly(_ member: Int, after round: Int) -> Bool {
        fate == .disconnected || drops.contains { $0.key > round && $0.value == member }
    }

    mutating func nextScore() -> Int {
        // Rummy rounds of 0…40 points: a game against a 100-point limit lasts about five rounds.
        Int(scores.next() % 41)
    }

    private static func chance(_ probability: Double, _ random: inout SplitMix64) -> Bool {
        Double(random.next() >> 11) / Double(1 << 53) < probability
    }
}

/// One life of a room, run by its coordinator: set up (created, joined, readied, observed, started),
/// played round by round with members dropping and coming back and spectators unsubscribing and
/// observing again, checked (every member still in the room holds its final version), and ended as
/// its plan says. Requests are paced `--interval` apart and awaited one at a time.
struct SoakLife {
    let run: SoakRun
    let slot: Int
    let number: Int
    /// Where the coordinator hands the connections it opens, for the slot's task group to serve.
    let opener: AsyncStream<MemberLink>.Continuation
    var plan: SoakPlan
    var pace: SplitMix64

    private let tracker: FanOutTracker
    private let members: [SoakMember]
    private var code = ""

    init(run: SoakRun, slot: Int, number: Int, opener: AsyncStream<MemberLink>.Continuation, random: inout SplitMix64) {
        self.run = run
        self.slot = slot
        self.number = number
        self.opener = opener
        plan = SoakPlan(parameters: run.parameters, random: &random)
        pace = SplitMix64(seed: random.next())
        let tracker = FanOutTracker(memberCount: run.parameters.membersPerRoom, fanOut: run.fanOutLatency)
        self.tracker = tracker
        members = (0..<run.parameters.membersPerRoom).map {
            SoakMember(run: run, index: $0, room: "\(slot).\(number)", tracker: tracker)
        }
    }

    private var players: ArraySlice<SoakMember> { members[..<run.parameters.players] }
    private var host: SoakMember { members[0] }

    /// Runs the life to its end; a failure is counted and the life's connections are closed. Returns
    /// whether it went as planned.
    @discardableResult
    mutating func run() async -> Bool {
        run.livesStarted.add()
        var failed = false
        do {
            try await setUp()
            let finished = try await play()
            await check()
            let fate = finished ? SoakFate.finished : plan.fate == .finished ? .left : plan.fate
            try await end(fate)
            run.fates.add(fate.rawValue)
        } catch {
            run.livesFailed.add()
            run.failures.add(FailureReason.of(error))
            failed = true
        }
        for member in members { await member.disconnect() }
        run.checks.withLock { $0.nonIncreasingEvents += tracker.outcome.nonIncreasing }
        return !failed
    }

    // MARK: Set-up

    private mutating func setUp() async throws {
        for member in members { try await connect(member, inRound: 0) }
        for member in members {
            let hello = try await call(member, .hello(HelloArguments()), as: HelloResult.self)
            member.signedIn(hello)
        }
        let created = try await call(
            host,
            .createRoom(
                CreateRoomArguments(
                    pointLimit: 100, pointValue: 1, playerCount: run.parameters.players, playerName: host.name)),
            as: RoomServiceResult.self)
        code = created.room.id.rawValue
        tracker.setCode(code)
        for player in players.dropFirst() {
            _ = try await call(player, .joinRoom(JoinRoomArguments(code: code, playerName: player.name)), as: RoomServiceResult.self)
            _ = try await send(player, .setReady(SetReadyArguments(roomCode: code, playerId: try userID(player), ready: true)))
        }
        for member in members { try await observe(member) }
        let started = try await call(host, .startRoomGame(RoomCodeArguments(roomCode: code)), as: GameRoom.self)
        tracker.setBaseline(started.version)
        guard await tracker.caughtUp.wait(timeout: run.parameters.requestTimeout) == true else {
            throw LoadFailure.timeout("set-up (every member holding the started game)")
        }
    }

    // MARK: Play

    /// Plays rounds until the rules finish the game or the plan abandons it; true when it finished.
    private mutating func play() async throws -> Bool {
        var round = 1
        while round <= SoakPlan.maxRounds {
            if plan.fate != .finished && round > plan.roundsBeforeAbandoning { return false }
            // The run is over: every room is left as it stands, so the server ends without them.
            if run.stop.isOpen {
                plan.fate = .left
                return false
            }
            let dropped = plan.drops[round].map { members[$0] }
            let unsubscribed = plan.unsubscribes[round].map { members[$0] }
            if let dropped { await drop(dropped) }
            if let unsubscribed { try await unsubscribe(unsubscribed) }
            for player in players {
                // A player away from the table has its score entered by the moderator, as at a real table.
                let enterer = player === dropped ? host : player
                let score = plan.nextScore()
                try await act(
                    enterer,
                    .submitScore(SubmitScoreArguments(roomCode: code, playerId: try userID(player), round: round, score: score)))
            }
            if let dropped { try await resume(dropped, inRound: round) }
            if let unsubscribed {
                try await observe(unsubscribed)
                run.resubscribes.add()
            }
            let closed = try await act(host, .nextRound(RoomCodeArguments(roomCode: code)), decoding: true)
            if closed?.isFinished == true { return true }
            round += 1
        }
        throw LoadFailure.unreadableReply("nextRound (round \(SoakPlan.maxRounds) closed without finishing the game)")
    }

    /// One paced change: sends it, records the reply's latency and version for the fan-out check.
    @discardableResult
    private mutating func act(_ member: SoakMember, _ operation: ParlorWire.Operation, decoding: Bool = false) async throws -> GameRoom? {
        await pauseBetweenActions()
        let sent = ContinuousClock.now
        let reply = try await send(member, operation)
        guard case .reply(_, let version?, nil) = reply.frame else {
            throw LoadFailure.unreadableReply("\(operation.name.rawValue) (no room version in the reply)")
        }
        tracker.replied(version: version, scheduled: sent)
        guard decoding else { return nil }
        let decoded = try? JSONDecoder().decode(ServerFrame.Reply<GameRoom>.self, from: Data(reply.data.readableBytesView))
        guard let room = decoded?.result else { throw LoadFailure.unreadableReply(operation.name.rawValue) }
        return room
    }

    /// `--interval` apart, give or take a fifth, so rooms do not fall into step.
    private mutating func pauseBetweenActions() async {
        let jitter = 0.8 + 0.4 * Double(pace.next() >> 11) / Double(1 << 53)
        try? await Task.sleep(for: run.parameters.interval * jitter)
    }

    // MARK: Members coming and going

    /// Drops `member`'s connection abruptly (it was opened to drop): versions stop waiting for it.
    private func drop(_ member: SoakMember) async {
        tracker.memberLost(member.index)
        await member.disconnect()
        run.drops.add()
    }

    /// `member` comes back on a new connection: `hello {token}` must resume its user, a player asks for
    /// its seat again (it is still there), and it observes the room again.
    private func resume(_ member: SoakMember, inRound round: Int) async throws {
        try await connect(member, inRound: round)
        let hello = try await call(member, .hello(HelloArguments(token: member.token)), as: HelloResult.self)
        if !hello.resumed || hello.userId != member.userID { run.notResumed.add() }
        if member.isPlayer {
            let seat = try await call(member, .joinRoom(JoinRoomArguments(code: code, playerName: member.name)), as: RoomServiceResult.self)
            if seat.currentUserId != member.userID { run.errors.add("SEAT_LOST (generator: a resumed player was seated as someone else)") }
        }
        try await observe(member)
        run.resumes.add()
    }

    /// Ends `member`'s subscription: its stream's `end` must come before the reply.
    private func unsubscribe(_ member: SoakMember) async throws {
        guard let subscription = member.subscription else { return }
        member.expectEnd()
        _ = try await send(member, .unsubscribe(UnsubscribeArguments(subscription: subscription)))
        if !member.sawEnd { run.checks.withLock { $0.endsAfterReply += 1 } }
        tracker.memberLost(member.index)
        member.subscribed(nil)
        run.unsubscribes.add()
    }

    /// Observes the room; a member that was lost counts again from its first event.
    private func observe(_ member: SoakMember) async throws {
        let returning = member.subscription == nil && tracker.outcome.startVersion > 0
        if returning { tracker.memberReturned(member.index) }
        let subscribed = try await call(member, .observeRoom(CodeArguments(code: code)), as: Subscribed.self)
        member.subscribed(subscribed.subscription)
    }

    // MARK: The end

    /// Every member still in the room must come to hold its final version.
    private func check() async {
        let deadline = ContinuousClock.now + run.parameters.requestTimeout
        var outcome = tracker.outcome
        while (outcome.behind > 0 || outcome.incomplete > 0) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            outcome = tracker.outcome
        }
        run.checks.withLock { $0.add(outcome) }
    }

    /// Leaves (the last player out deletes the room, which every observer must see) or drops every
    /// connection (the room waits for the server's expiry).
    private func end(_ fate: SoakFate) async throws {
        for member in members {
            member.tearDown()
            tracker.memberLost(member.index)
        }
        guard fate != .disconnected else { return }
        // In seat order: the moderator leaves first and the seat passes on, until the last one out
        // deletes the room.
        for player in players {
            await pauseBeforeLeaving()
            _ = try await send(player, .leaveRoom(LeaveRoomArguments(roomCode: code, playerId: try userID(player))))
        }
        run.roomsDeleted.add()
        let deadline = ContinuousClock.now + run.parameters.requestTimeout
        while members.contains(where: { !$0.sawDeletion }) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let missed = members.count { !$0.sawDeletion }
        if missed > 0 { run.checks.withLock { $0.deletionsMissed += missed } }
    }

    private func pauseBeforeLeaving() async {
        try? await Task.sleep(for: run.parameters.interval / 4)
    }

    // MARK: Requests

    /// Opens a connection for `member` and waits until it is up.
    private func connect(_ member: SoakMember, inRound round: Int) async throws {
        let link = MemberLink(member: member, abrupt: plan.dropsAbruptly(member.index, after: round))
        opener.yield(link)
        switch await link.opened.wait() {
        case .success(let connection)?:
            member.connected(link, connection)
        case .failure(let error)?:
            throw error
        case nil:
            throw CancellationError()
        }
    }

    private func send(_ member: SoakMember, _ operation: ParlorWire.Operation) async throws -> ReceivingConnection.Reply {
        guard let connection = member.connection else { throw LoadFailure.roomFailed }
        run.requests.add()
        let sent = ContinuousClock.now
        let reply = try await connection.send(operation, timeout: run.parameters.requestTimeout)
        run.replyLatency.record(.now - sent)
        run.replies.add()
        if case .reply(_, _, let code?) = reply.frame {
            run.errors.add(code)
            throw LoadFailure.reply(code: code)
        }
        return reply
    }

    private func call<Result: Decodable & Sendable>(_ member: SoakMember, _ operation: ParlorWire.Operation, as _: Result.Type) async throws -> Result {
        let reply = try await send(member, operation)
        let decoded = try? JSONDecoder().decode(ServerFrame.Reply<Result>.self, from: Data(reply.data.readableBytesView))
        guard let result = decoded?.result else { throw LoadFailure.unreadableReply(operation.name.rawValue) }
        return result
    }

    private func userID(_ member: SoakMember) throws -> UserID {
        guard let user = member.userID else { throw LoadFailure.unreadableReply("hello (no user id)") }
        return user
    }
}
