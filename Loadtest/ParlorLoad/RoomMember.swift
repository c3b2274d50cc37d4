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
    private func measure(_ connection: inout LoadConnection, frames: SubmitScoreFrames?) async {
        let webSocket = connection.webSocket
        let phase = run.phase(forConnection: self.connection)
        let reader = ReplyClock(run: run, phase: phase)
        await withDiscardingTaskGroup { group in
            group.addTask {
                if let frames { await submitScores(webSocket, frames: frames, phase: phase) }
                guard await run.finish.wait() != nil else { return }
                await webSocket.close()
            }
            do {
                while let message = try await connection.next() {
                    handle(ScannedFrame(message.data), clock: reader)
                }
                if !run.finish.isOpen {
                    run.failures.add("run: " + LoadFailure.closed(await webSocket.closeStatus).description)
                    memberLost()
                }
            } catch {
                if !run.finish.isOpen {
                    run.failures.add("run: " + FailureReason.of(error))
                    memberLost()
                }
            }
            group.cancelAll()
        }
    }

    private func memberLost() {
        run.lostMembers.add()
        room.tracker.memberLost(member)
    }

    /// Open loop: submission k is due at start + phase + k × interval whatever happened to the ones
    /// before it. A late send is counted as generator lag; the latency of its reply still runs from the
    /// time it was due.
    private func submitScores(_ webSocket: WebSocket, frames: SubmitScoreFrames, phase: Duration) async {
        guard let start = await run.start.wait() else { return }
        let end = start + run.parameters.duration
        var number: Int64 = 0
        while !Task.isCancelled && !room.failed {
            let due = run.scheduled(number: number, phase: phase, start: start)
            guard due < end else { return }
            do { try await Task.sleep(until: due, clock: .continuous) } catch { return }
            guard !run.stopSending.isOpen else { return }
            run.generatorLag.record(.now - due)
            // Scores 1…1000 in turn: each differs from the one before, so every submission is a change.
            let frame = frames.frame(id: RoomsRun.submitIDBase + number, score: Int(number % 1000) + 1)
            do {
                try await webSocket.send(WebSocketMessage(kind: .text, data: frame))
            } catch {
                return
            }
            run.actionsSent.add()
            number += 1
        }
    }

    // MARK: Frames

    /// Set-up frames (events only: set-up replies are awaited by `call`).
    private func handle(_ frame: ScannedFrame) {
        handle(frame, clock: nil)
    }

    private func handle(_ frame: ScannedFrame, clock: ReplyClock?) {
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

/// Maps a submission's reply id back to the time the submission was due.
private struct ReplyClock {
    let run: RoomsRun
    let phase: Duration

    func scheduled(id: Int64) -> ContinuousClock.Instant? {
        guard let start = run.start.value else { return nil }
        return run.scheduled(number: id - RoomsRun.submitIDBase, phase: phase, start: start)
    }
}
