import NIOCore
import ParlorRules
import ParlorWire
import WebSocketCore

/// One connection of a `rooms` or `darts` run: the host (member 0) creates and later starts the game,
/// the other players join (and, in rummy, get ready), spectators only watch; every member observes the
/// room or match. After set-up it reads until the run ends, and players act on their timetable
/// meanwhile: rummy players each submit scores on their own, darts players throw in turn.
struct RoomMember: Sendable {
    let run: RoomsRun
    let room: RoomPlan
    /// 0 is the host; players are 0..<players; spectators follow.
    let member: Int
    /// The connection's number in the whole run (its source address and timetable phase).
    let connection: Int

    var isHost: Bool { member == 0 }
    var isPlayer: Bool { member < run.parameters.players }

    /// Sets the member up — connecting, signing in, entering the game, moving to its node — in a task of
    /// its own, then hands the connection to a receiver on its event loop and returns: from then on the
    /// member costs its connection and no task (`listen`). `run.running` counts it until its connection
    /// has closed.
    func run() async {
        run.running.add()
        var listening = false
        defer { if !listening { run.running.subtract() } }
        var isSetUp = false
        let began = ContinuousClock.now
        do {
            // A member of a game another node of a cluster serves moves there once, during set-up,
            // as every Parlor client does: it connects again asking the front for that node.
            var entered: Entered?
            var asking: String?
            while true {
                let url = NodeRoute.url(run.parameters.url, asking: asking)
                let webSocket = try await WebSocketClient.open(to: url, configuration: run.configuration(forConnection: connection))
                run.connectionsOpen.add()
                let outcome: SetUpOutcome
                do {
                    // Set-up prefers the connection's event loop, so a reply resumes it without crossing threads.
                    outcome = try await withTaskExecutorPreference(EventLoopTaskExecutor.for(webSocket.connection.eventLoop)) {
                        var connection = LoadConnection(webSocket)
                        let watch = VersionWatch()
                        let outcome = try await setUp(&connection, began: began, watch: watch, entered: entered, asking: asking)
                        if case .ready(let plan, let leave) = outcome {
                            isSetUp = true
                            await listen(webSocket, plan: plan, leave: leave, watch: watch)
                        }
                        return outcome
                    }
                } catch {
                    await webSocket.close(code: .internalError)
                    run.connectionsOpen.subtract()
                    throw error
                }
                guard case .moving(let node, let seat) = outcome else {
                    listening = true
                    return
                }
                await webSocket.close()
                run.connectionsOpen.subtract()
                run.moves.add()
                (entered, asking) = (seat, node)
            }
        } catch {
            let reason = FailureReason.of(error)
            if !isSetUp {
                if case LoadFailure.roomFailed = error {
                    // Counted once, where the room failed.
                } else {
                    run.failures.add("set-up: " + reason)
                    room.fail(reason)
                }
            } else if !run.finish.isOpen {
                run.failures.add("run: " + reason)
                memberLost()
            }
        }
    }

    // MARK: Set-up

    /// What a player sends on its timetable.
    enum Plan: Sendable {
        case scores(SubmitScoreFrames)
        /// A darts player's visits: its frames, its seat, and the version before the first visit.
        case visits(VisitFrames, seat: Int, baseline: Gate<Int>)
    }

    /// A member of a game: who it is (to sign in again as the same user after a move), the game's
    /// code, whether it took its seat yet, and what it sends.
    struct Entered: Sendable {
        var user: UserID
        var token: String
        var code: String
        var plan: Plan?
        var joined: Bool
    }

    enum SetUpOutcome: Sendable {
        /// Set up on this connection: what to send, and the request that leaves the game at the end.
        case ready(Plan?, leave: ByteBuffer?)
        /// The game is served by another node: connect again, asking for it.
        case moving(to: String, Entered)
    }

    /// Signs in; the host creates the game, everyone else follows it first and — when it is served by
    /// another node than this connection's, which it did not ask for already — moves there; then
    /// joins, subscribes (again, after a move), and the host starts the game once everyone else is in.
    /// Returns what the player sends (nil for spectators) and the request that takes the player out of
    /// the game when the run ends (nil for spectators), or where to move.
    private func setUp(
        _ connection: inout LoadConnection, began: ContinuousClock.Instant, watch: VersionWatch, entered: Entered?, asking: String?
    ) async throws -> SetUpOutcome {
        let hello = try await connection.call(.hello(HelloArguments(token: entered?.token)), as: HelloResult.self)
        if entered == nil { run.connectLatency.record(.now - began) }
        let handle: (ScannedFrame) -> Void = { self.handle($0, clock: nil, watch: watch) }
        // The host creates the game where it is (that node serves it); everyone else first follows
        // it — as a player opens its screen before taking a seat — and, told it is served by another
        // node, moves there before joining, so that the game's changes are all made on its node.
        if !isHost, entered == nil {
            let code = try await sharedCode()
            try await observe(code, on: &connection, onEvent: handle)
            if let here = hello.node {
                let served = try await connection.servingNode(onEvent: handle)
                if served != here, served != asking {
                    room.tracker.memberMoving(member)
                    return .moving(to: served, Entered(user: hello.userId, token: hello.token, code: code, plan: nil, joined: false))
                }
            }
        }
        let seat: Entered
        if let entered, entered.joined {
            seat = entered
        } else {
            let (code, plan): (String, Plan?)
            switch run.parameters.game {
            case .rummy: (code, plan) = try await enterRoom(&connection, user: hello.userId, onEvent: handle)
            case .darts: (code, plan) = try await enterMatch(&connection, user: hello.userId, onEvent: handle)
            }
            seat = Entered(user: hello.userId, token: hello.token, code: code, plan: plan, joined: true)
        }
        if isHost || entered != nil {
            try await observe(seat.code, on: &connection, onEvent: handle)
        }
        let code = seat.code
        try await startOrReport(code, on: &connection) { connection in
            switch run.parameters.game {
            case .rummy: try await connection.call(.startRoomGame(RoomCodeArguments(roomCode: code)), as: GameRoom.self, onEvent: handle).version
            case .darts: try await connection.call(.startMatch(MatchCodeArguments(code: code)), as: MatchView.self, onEvent: handle).version
            }
        }
        guard isPlayer else { return .ready(seat.plan, leave: nil) }
        let leave: ParlorWire.Operation
        switch run.parameters.game {
        case .rummy: leave = .leaveRoom(LeaveRoomArguments(roomCode: code, playerId: seat.user))
        case .darts: leave = .leaveMatch(MatchCodeArguments(code: code))
        }
        return .ready(seat.plan, leave: ByteBuffer(bytes: try Request(id: .number(RoomMember.leaveID), operation: leave).encoded()))
    }

    /// Subscribes to the game's stream.
    private func observe(_ code: String, on connection: inout LoadConnection, onEvent handle: (ScannedFrame) -> Void) async throws {
        switch run.parameters.game {
        case .rummy: _ = try await connection.call(.observeRoom(CodeArguments(code: code)), as: Subscribed.self, onEvent: handle)
        case .darts: _ = try await connection.call(.observeMatch(MatchCodeArguments(code: code)), as: Subscribed.self, onEvent: handle)
        }
    }

    /// The id of the request that leaves the game at the end (below the submissions' ids).
    static let leaveID: Int64 = 1_000

    /// Creates the room (the host) or joins it and gets ready (a player); its code, and the player's
    /// scores (round 1 stays open: nobody calls nextRound, so the game never ends).
    private func enterRoom(
        _ connection: inout LoadConnection, user: UserID, onEvent handle: (ScannedFrame) -> Void
    ) async throws -> (String, Plan?) {
        let code: String
        if isHost {
            let created = try await connection.call(
                .createRoom(
                    CreateRoomArguments(
                        pointLimit: 350, pointValue: 1, playerCount: run.parameters.players, playerName: "Host \(room.index)")),
                as: RoomServiceResult.self)
            code = created.room.id.rawValue
            room.tracker.setCode(code)
        } else {
            code = try await sharedCode()
            if isPlayer {
                _ = try await connection.call(
                    .joinRoom(JoinRoomArguments(code: code, playerName: "Player \(room.index)-\(member)")), as: RoomServiceResult.self,
                    onEvent: handle)
                _ = try await connection.call(
                    .setReady(SetReadyArguments(roomCode: code, playerId: user, ready: true)), as: IgnoredResult.self,
                    onEvent: handle)
            }
        }
        return (code, isPlayer ? .scores(try SubmitScoreFrames(roomCode: code, playerId: user, round: 1)) : nil)
    }

    /// A 501 match that cannot finish during the run (`DartsScript`): created by the host, joined by the
    /// players, each player's seat where it joined, which the script's turns are counted from.
    private func enterMatch(
        _ connection: inout LoadConnection, user: UserID, onEvent handle: (ScannedFrame) -> Void
    ) async throws -> (String, Plan?) {
        let code: String
        var seat = 0
        if isHost {
            let created = try await connection.call(
                .createMatch(CreateMatchArguments(
                    gameType: "501", legs: DartsScript.legs, sets: DartsScript.sets, capacity: run.parameters.players,
                    playerName: "Host \(room.index)")),
                as: MatchSeatResult.self)
            code = created.match.id
            room.tracker.setCode(code)
        } else {
            code = try await sharedCode()
            if isPlayer {
                let joined = try await connection.call(
                    .joinMatch(JoinMatchArguments(code: code, playerName: "Player \(room.index)-\(member)")), as: MatchSeatResult.self,
                    onEvent: handle)
                guard let index = joined.match.players.firstIndex(where: { $0.id == user }) else {
                    throw LoadFailure.unreadableReply("joinMatch (no seat)")
                }
                seat = index
            }
        }
        return (code, isPlayer ? .visits(try VisitFrames(code: code, playerId: user), seat: seat, baseline: room.baseline) : nil)
    }

    /// The code the host shares once it created the game.
    private func sharedCode() async throws -> String {
        guard let shared = await room.code.wait(), let shared else { throw LoadFailure.roomFailed }
        return shared
    }

    /// The host shares the code, waits for everyone else, starts the game and records the version it
    /// started at; everyone else reports being set up.
    private func startOrReport(
        _ code: String, on connection: inout LoadConnection, start: (inout LoadConnection) async throws -> Int
    ) async throws {
        guard isHost else {
            room.memberSetUp()
            return
        }
        room.code.open(code)
        guard await room.membersSetUp.wait() == true else { throw LoadFailure.roomFailed }
        let version = try await start(&connection)
        room.baseline.open(version)
        room.tracker.setBaseline(version)
    }

    // MARK: Measurement

    /// From here every frame is read by a receiver on the connection's event loop, and a player's
    /// actions are left with that loop's `LoopTimetable`, writing straight into the connection; the
    /// run's start and end reach the member as closures left with their gates. Neither costs a task: the generator
    /// shares the machine with the server, so every microsecond and kilobyte it spends per member is one
    /// the server does not get.
    ///
    /// When the run ends, a player leaves its game before closing (waiting at most 5 s for the reply),
    /// so the server does not keep rooms that nobody will come back to (the last player out deletes
    /// it); nothing after the end is measured. The member stops counting as running once its
    /// connection has closed.
    private func listen(_ webSocket: WebSocket, plan: Plan?, leave: ByteBuffer?, watch: VersionWatch) async {
        let connection = webSocket.connection
        // A darts match has one timetable, shared by its players: the host's.
        let timetable = run.parameters.game == .darts ? room.index * run.parameters.membersPerRoom : self.connection
        let phase = run.phase(forConnection: timetable)
        let sender = plan.map { ActionSender(member: self, connection: connection, plan: $0, phase: phase, watch: watch) }
        let ending = LeaveThenClose(connection, leave: leave)
        let receiver = MemberReceiver(member: self, clock: ReplyClock(run: run, phase: phase), watch: watch, sender: sender, ending: ending)
        await webSocket.handOver(to: receiver)
        if let sender {
            run.start.onOpen { start in
                if case .visits(_, _, let baseline) = plan {
                    baseline.onOpen { version in sender.start(at: start, baseline: version) }
                } else {
                    sender.start(at: start, baseline: 0)
                }
            }
            run.finish.onOpen { _ in sender.stop() }
        }
        ending.whenOpen(run.finish)
    }

    fileprivate func memberLost() {
        run.lostMembers.add()
        room.tracker.memberLost(member)
    }

    // MARK: Frames

    fileprivate func handle(_ frame: ScannedFrame, clock: ReplyClock?, watch: VersionWatch) {
        let now = ContinuousClock.now
        let event = run.parameters.game.event
        switch frame {
        case .event(_, let name, let version?) where name == event:
            run.events.add()
            room.tracker.memberSaw(member, version: version, at: now)
            watch.saw(version)
        case .event(_, let name, nil) where name == event:
            run.errors.add("\(run.parameters.game.noun.uppercased())_DELETED (generator: the \(run.parameters.game.noun)'s stream said it was deleted)")
        case .event(_, "end", _):
            run.errors.add("SUBSCRIPTION_ENDED (generator: the \(run.parameters.game.noun)'s stream ended)")
        case .event(_, "presence", _), .event(_, "node", _):
            break  // Who is connected, which node serves the game: beside the versions, not measured.
        case .event(_, let name, _):
            run.errors.add("UNEXPECTED_EVENT \(name)")
        case .reply(let id, let version, let error):
            guard id >= RoomsRun.submitIDBase, let scheduled = clock?.scheduled(id: id) else {
                run.errors.add("UNEXPECTED_REPLY (generator: a reply to no request in flight)")
                return
            }
            if let error {
                run.errorReplies.add()
                run.errors.add(error)
                return
            }
            run.replies.add()
            run.replyLatency.record(now - scheduled)
            if let version { room.tracker.replied(version: version, scheduled: scheduled) }
        case .unreadable:
            run.errors.add("UNREADABLE_FRAME (generator: a frame it could not read)")
        }
    }
}

/// A member's inbound side while it measures: every frame scanned on the connection's event loop.
private final class MemberReceiver: WebSocketReceiver {
    let member: RoomMember
    let clock: ReplyClock
    let watch: VersionWatch
    let sender: ActionSender?
    let ending: LeaveThenClose

    init(member: RoomMember, clock: ReplyClock, watch: VersionWatch, sender: ActionSender?, ending: LeaveThenClose) {
        self.member = member
        self.clock = clock
        self.watch = watch
        self.sender = sender
        self.ending = ending
    }

    func received(_ message: WebSocketMessage) -> WebSocketReadDemand {
        // After the run's end: players leaving (the game's last versions, its deletion) are not measured.
        guard !member.run.finish.isOpen else {
            ending.received(message)
            return .more
        }
        member.handle(ScannedFrame(message.data), clock: clock, watch: watch)
        sender?.sawVersion()
        return .more
    }

    func receivedProtocolViolation() {
        // The server broke the protocol; the connection fails (and `closed` reports it) at once.
    }

    func writabilityChanged(isWritable: Bool) {}
    func serverShuttingDown() {}

    func closed(_ status: WebSocketCloseStatus) {
        ending.closed()
        let run = member.run
        if !run.finish.isOpen {
            run.failures.add("run: " + LoadFailure.closed(status).description)
            member.memberLost()
        }
        sender?.stop()
        run.connectionsOpen.subtract()
        run.running.subtract()
    }
}

/// A player's actions on the run's open-loop timetable, left with its event loop's `LoopTimetable`:
/// action k is due at start + phase + k × interval whatever happened to the ones before it. A rummy
/// player sends every one of its own (a score, each different from the last); a darts player sends
/// its seat's visits of the match's shared script, each only once its view holds the visit before
/// (the server refuses a visit out of turn). A late send is counted as generator lag, waiting for the
/// turn included; the latency of its reply still runs from the time it was due.
///
/// `@unchecked Sendable`: everything that changes is touched only on the connection's event loop.
private final class ActionSender: @unchecked Sendable {
    let member: RoomMember
    let connection: WebSocketConnection
    let plan: RoomMember.Plan
    let phase: Duration
    let watch: VersionWatch
    private let script: DartsScript
    private let timetable: LoopTimetable
    private var slot: Int32?
    private var start: ContinuousClock.Instant?
    private var baseline = 0
    private var number: Int64 = 0
    /// When the action left with the timetable (action `number`) is due.
    private var pendingDue: ContinuousClock.Instant?
    /// The action whose time has come, waiting for the member's view to reach its turn.
    private var waiting: (number: Int64, due: ContinuousClock.Instant, version: Int)?
    private var stopped = false

    init(member: RoomMember, connection: WebSocketConnection, plan: RoomMember.Plan, phase: Duration, watch: VersionWatch) {
        self.member = member
        self.connection = connection
        self.plan = plan
        self.phase = phase
        self.watch = watch
        script = DartsScript(players: member.run.parameters.players)
        timetable = member.run.timetables.timetable(for: connection.eventLoop)
    }

    func start(at start: ContinuousClock.Instant, baseline: Int) {
        connection.eventLoop.execute {
            guard !self.stopped else { return }
            self.start = start
            self.baseline = baseline
            self.slot = self.timetable.register { due in self.cameDue(due) }
            self.scheduleNext()
        }
    }

    func stop() {
        connection.eventLoop.execute {
            self.stopped = true
            if let slot = self.slot { self.timetable.release(slot) }
            self.slot = nil
            self.pendingDue = nil
            self.waiting = nil
        }
    }

    /// On the loop: the member's view moved; an action waiting for its turn may go now.
    func sawVersion() {
        guard let waiting, watch.seen >= waiting.version else { return }
        self.waiting = nil
        send(waiting.number, due: waiting.due)
    }

    /// The next action of this player at or after `from`, nil when it has none left.
    private func next(from: Int64) -> Int64? {
        switch plan {
        case .scores: return from
        case .visits(_, let seat, _):
            var number = Int(from)
            while script.seat(ofVisit: number) != seat { number += 1 }
            return number < script.visitsBeforeAnyWin ? Int64(number) : nil
        }
    }

    private func scheduleNext() {
        guard !stopped, let start, let slot, let mine = next(from: number) else { return }
        let run = member.run
        number = mine
        let due = run.scheduled(number: number, phase: phase, start: start)
        guard due < start + run.parameters.duration, !member.room.failed else { return }
        pendingDue = due
        timetable.schedule(slot, at: due)
    }

    /// The timetable's call: the pending action is due.
    private func cameDue(_ due: ContinuousClock.Instant) {
        guard !stopped, pendingDue == due else { return }
        pendingDue = nil
        guard !member.run.stopSending.isOpen else { return }
        if case .visits = plan, watch.seen < baseline + Int(number) {
            waiting = (number, due, baseline + Int(number))
            return
        }
        send(number, due: due)
    }

    private func send(_ action: Int64, due: ContinuousClock.Instant) {
        let run = member.run
        guard !stopped, !run.stopSending.isOpen, connection.isActive else { return }
        run.generatorLag.record(.now - due)
        let id = RoomsRun.submitIDBase + action
        let frame: ByteBuffer
        switch plan {
        // Scores 1…1000 in turn: each differs from the one before, so every submission is a change.
        case .scores(let frames): frame = frames.frame(id: id, score: Int(action % 1000) + 1)
        case .visits(let frames, _, _): frame = frames.frame(id: id, visit: script.visit(Int(action)))
        }
        connection.send(WebSocketMessage(kind: .text, data: frame))
        run.actionsSent.add()
        number = action + 1
        scheduleNext()
    }
}

/// Maps a submission's reply id back to the time the submission was due.
private struct ReplyClock {
    let run: RoomsRun
    let phase: Duration

    func scheduled(id: Int64) -> ContinuousClock.Instant? {
        guard let start = run.start.value else { return nil }
        return run.scheduled(number: id - RoomsRun.submitIDBase, phase: phase, start: start)
    }
}
