import NIOCore
import ParlorRules
import ParlorWire
import WebSocketCore

/// One connection of a `rooms` run: the host (member 0) creates and later starts the game, the other
/// players join and get ready, spectators only watch; every member observes the room. After set-up it
/// reads until the run ends, and players submit scores on their timetable meanwhile.
struct RoomMember: Sendable {
    let run: RoomsRun
    let room: RoomPlan
    /// 0 is the host; players are 0..<players; spectators follow.
    let member: Int
    /// The connection's number in the whole run (its source address and timetable phase).
    let connection: Int

    var isHost: Bool { member == 0 }
    var isPlayer: Bool { member < run.parameters.players }

    func run() async {
        run.running.add()
        defer { run.running.subtract() }
        var isSetUp = false
        let began = ContinuousClock.now
        do {
            try await WebSocketClient.connect(to: run.parameters.url, configuration: run.configuration(forConnection: connection)) {
                webSocket in
                run.connectionsOpen.add()
                defer { run.connectionsOpen.subtract() }
                var connection = LoadConnection(webSocket)
                let frames = try await setUp(&connection, began: began)
                isSetUp = true
                await measure(&connection, frames: frames)
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
                run.lostMembers.add()
                room.tracker.memberLost(member)
            }
        }
    }

    // MARK: Set-up

    /// Signs in, creates or joins the room, gets ready, subscribes; the host then starts the game once
    /// everyone else is in. Returns the player's score frames (nil for spectators).
    private func setUp(_ connection: inout LoadConnection, began: ContinuousClock.Instant) async throws -> SubmitScoreFrames? {
        let hello = try await connection.call(.hello(HelloArguments()), as: HelloResult.self)
        run.connectLatency.record(.now - began)
        let code: String
        if isHost {
            let created = try await connection.call(
                .createRoom(
                    CreateRoomArguments(
                        pointLimit: 350, pointValue: 1, playerCount: run.parameters.players, playerName: "Host \(room.index)")),
                as: RoomServiceResult.self)
            code = created.room.id
            room.tracker.setCode(code)
        } else {
            guard let shared = await room.code.wait(), let shared else { throw LoadFailure.roomFailed }
            code = shared
            if isPlayer {
                _ = try await connection.call(
                    .joinRoom(JoinRoomArguments(code: code, playerName: "Player \(room.index)-\(member)")), as: RoomServiceResult.self,
                    onEvent: handle)
                _ = try await connection.call(
                    .setReady(SetReadyArguments(roomCode: code, playerId: hello.userId, ready: true)), as: IgnoredResult.self,
                    onEvent: handle)
            }
        }
        _ = try await connection.call(.observeRoom(CodeArguments(code: code)), as: Subscribed.self, onEvent: handle)
        if isHost {
            room.code.open(code)
            guard await room.membersSetUp.wait() == true else { throw LoadFailure.roomFailed }
            let started = try await connection.call(.startGame(.room(roomCode: code)), as: GameRoom.self, onEvent: handle)
            room.tracker.setBaseline(started.version)
        } else {
            room.memberSetUp()
        }
        // Scores go to round 1, which stays open: nobody calls nextRound, so the game never ends.
        return isPlayer ? try SubmitScoreFrames(roomCode: code, playerId: hello.userId, round: 1) : nil
    }

    // MARK: Measurement

    /// Reads every frame until the run's end closes the connection; a player's timetable runs beside.
    ///
    /// Neither costs a task per message: frames are scanned by a receiver on the connection's event
    /// loop, and submissions are timers on that loop writing straight into the connection. The generator
    /// shares the machine with the server, so every microsecond it spends per frame is one the server
    /// does not get.
    private func measure(_ connection: inout LoadConnection, frames: SubmitScoreFrames?) async {
        let webSocket = connection.webSocket
        let phase = run.phase(forConnection: self.connection)
        let ended = Gate<MemberEnd>()
        let receiver = MemberReceiver(member: self, clock: ReplyClock(run: run, phase: phase), ended: ended)
        await webSocket.handOver(to: receiver)
        let sender = frames.map { ScoreSender(member: self, connection: webSocket.connection, frames: $0, phase: phase) }
        await withDiscardingTaskGroup { group in
            group.addTask {
                guard let start = await run.start.wait() else { return }
                sender?.start(at: start)
            }
            group.addTask {
                _ = await run.finish.wait()
                ended.open(.finished)
            }
            if case .closed(let status) = await ended.wait(), !run.finish.isOpen {
                run.failures.add("run: " + LoadFailure.closed(status).description)
                memberLost()
            }
            group.cancelAll()
        }
        sender?.stop()
        await webSocket.close()
    }

    private func memberLost() {
        run.lostMembers.add()
        room.tracker.memberLost(member)
    }

    // MARK: Frames

    /// Set-up frames (events only: set-up replies are awaited by `call`).
    private func handle(_ frame: ScannedFrame) {
        handle(frame, clock: nil)
    }

    fileprivate func handle(_ frame: ScannedFrame, clock: ReplyClock?) {
        let now = ContinuousClock.now
        switch frame {
        case .event(_, "room", let version?):
            run.events.add()
            room.tracker.memberSaw(member, version: version, at: now)
        case .event(_, "room", nil):
            run.errors.add("ROOM_DELETED (generator: the room's stream said it was deleted)")
        case .event(_, "end", _):
            run.errors.add("SUBSCRIPTION_ENDED (generator: the room's stream ended)")
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

/// How a member's measurement ended.
private enum MemberEnd: Sendable {
    case finished
    case closed(WebSocketCloseStatus)
}

/// A member's inbound side while it measures: every frame scanned on the connection's event loop.
private final class MemberReceiver: WebSocketReceiver {
    let member: RoomMember
    let clock: ReplyClock
    let ended: Gate<MemberEnd>

    init(member: RoomMember, clock: ReplyClock, ended: Gate<MemberEnd>) {
        self.member = member
        self.clock = clock
        self.ended = ended
    }

    func received(_ message: WebSocketMessage) -> WebSocketReadDemand {
        member.handle(ScannedFrame(message.data), clock: clock)
        return .more
    }

    func receivedProtocolViolation() {
        // The server broke the protocol; the connection fails (and `closed` reports it) at once.
    }

    func writabilityChanged(isWritable: Bool) {}
    func serverShuttingDown() {}

    func closed(_ status: WebSocketCloseStatus) {
        ended.open(.closed(status))
    }
}

/// A player's open-loop timetable as timers on its connection's event loop: submission k is due at
/// start + phase + k × interval whatever happened to the ones before it. A late send is counted as
/// generator lag; the latency of its reply still runs from the time it was due.
///
/// `@unchecked Sendable`: `number` and `next` are touched only on the connection's event loop.
private final class ScoreSender: @unchecked Sendable {
    let member: RoomMember
    let connection: WebSocketConnection
    let frames: SubmitScoreFrames
    let phase: Duration
    private var start: ContinuousClock.Instant?
    private var number: Int64 = 0
    private var next: Scheduled<Void>?
    private var stopped = false

    init(member: RoomMember, connection: WebSocketConnection, frames: SubmitScoreFrames, phase: Duration) {
        self.member = member
        self.connection = connection
        self.frames = frames
        self.phase = phase
    }

    func start(at start: ContinuousClock.Instant) {
        connection.eventLoop.execute {
            self.start = start
            self.scheduleNext()
        }
    }

    func stop() {
        connection.eventLoop.execute {
            self.stopped = true
            self.next?.cancel()
            self.next = nil
        }
    }

    private func scheduleNext() {
        guard !stopped, let start else { return }
        let run = member.run
        let due = run.scheduled(number: number, phase: phase, start: start)
        guard due < start + run.parameters.duration, !member.room.failed else { return }
        let wait = ContinuousClock.now.duration(to: due)
        let nanoseconds = max(0, wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000)
        next = connection.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { self.send(due: due) }
    }

    private func send(due: ContinuousClock.Instant) {
        let run = member.run
        guard !stopped, !run.stopSending.isOpen, connection.isActive else { return }
        run.generatorLag.record(.now - due)
        // Scores 1…1000 in turn: each differs from the one before, so every submission is a change.
        let frame = frames.frame(id: RoomsRun.submitIDBase + number, score: Int(number % 1000) + 1)
        connection.send(WebSocketMessage(kind: .text, data: frame))
        run.actionsSent.add()
        number += 1
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
