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
                let watch = VersionWatch()
                let plan = try await setUp(&connection, began: began, watch: watch)
                isSetUp = true
                await measure(&connection, plan: plan, watch: watch)
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

    /// What a player sends on its timetable.
    enum Plan: Sendable {
        case scores(SubmitScoreFrames)
        /// A darts player's visits: its frames, its seat, and the version before the first visit.
        case visits(VisitFrames, seat: Int, baseline: Gate<Int>)
    }

    /// Signs in, creates or joins, subscribes; the host then starts the game once everyone else is in.
    /// Returns what the player sends (nil for spectators).
    private func setUp(_ connection: inout LoadConnection, began: ContinuousClock.Instant, watch: VersionWatch) async throws -> Plan? {
        let hello = try await connection.call(.hello(HelloArguments()), as: HelloResult.self)
        run.connectLatency.record(.now - began)
        let handle: (ScannedFrame) -> Void = { self.handle($0, clock: nil, watch: watch) }
        switch run.parameters.game {
        case .rummy: return try await setUpRoom(&connection, user: hello.userId, onEvent: handle)
        case .darts: return try await setUpMatch(&connection, user: hello.userId, onEvent: handle)
        }
    }

    private func setUpRoom(_ connection: inout LoadConnection, user: UserID, onEvent handle: (ScannedFrame) -> Void) async throws -> Plan? {
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
        _ = try await connection.call(.observeRoom(CodeArguments(code: code)), as: Subscribed.self, onEvent: handle)
        try await startOrReport(code, on: &connection) { connection in
            try await connection.call(.startGame(.room(roomCode: code)), as: GameRoom.self, onEvent: handle).version
        }
        // Scores go to round 1, which stays open: nobody calls nextRound, so the game never ends.
        return isPlayer ? .scores(try SubmitScoreFrames(roomCode: code, playerId: user, round: 1)) : nil
    }

    /// A 501 match that cannot finish during the run (`DartsScript`); every player's seat is where it
    /// joined, which the script's turns are counted from.
    private func setUpMatch(_ connection: inout LoadConnection, user: UserID, onEvent handle: (ScannedFrame) -> Void) async throws -> Plan? {
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
        _ = try await connection.call(.observeMatch(MatchCodeArguments(code: code)), as: Subscribed.self, onEvent: handle)
        try await startOrReport(code, on: &connection) { connection in
            try await connection.call(.startMatch(MatchCodeArguments(code: code)), as: MatchView.self, onEvent: handle).version
        }
        return isPlayer ? .visits(try VisitFrames(code: code, playerId: user), seat: seat, baseline: room.baseline) : nil
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

    /// Reads every frame until the run's end closes the connection; a player's timetable runs beside.
    private func measure(_ connection: inout LoadConnection, plan: Plan?, watch: VersionWatch) async {
        let webSocket = connection.webSocket
        // A darts match has one timetable, shared by its players: the host's.
        let timetable = run.parameters.game == .darts ? room.index * run.parameters.membersPerRoom : self.connection
        let phase = run.phase(forConnection: timetable)
        let reader = ReplyClock(run: run, phase: phase)
        await withDiscardingTaskGroup { group in
            group.addTask {
                switch plan {
                case .scores(let frames)?: await submitScores(webSocket, frames: frames, phase: phase)
                case .visits(let frames, let seat, let baseline)?:
                    await throwVisits(webSocket, frames: frames, seat: seat, baseline: baseline, phase: phase, watch: watch)
                case nil: break
                }
                guard await run.finish.wait() != nil else { return }
                await webSocket.close()
            }
            do {
                while let message = try await connection.next() {
                    handle(ScannedFrame(message.data), clock: reader, watch: watch)
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

    /// A rummy player's own timetable: scores 1…1000 in turn, so every submission changes the room.
    private func submitScores(_ webSocket: WebSocket, frames: SubmitScoreFrames, phase: Duration) async {
        await sendOnTimetable(webSocket, phase: phase, next: { $0 }) { number in
            frames.frame(id: RoomsRun.submitIDBase + number, score: Int(number % 1000) + 1)
        }
    }

    /// A darts player's share of its match's timetable: the visits the script gives its seat, each sent
    /// once its view holds the visit before (the server refuses a visit out of turn).
    private func throwVisits(
        _ webSocket: WebSocket, frames: VisitFrames, seat: Int, baseline: Gate<Int>, phase: Duration, watch: VersionWatch
    ) async {
        guard let baseline = await baseline.wait() else { return }
        let script = DartsScript(players: run.parameters.players)
        await sendOnTimetable(
            webSocket, phase: phase,
            next: { from in
                var number = Int(from)
                while script.seat(ofVisit: number) != seat { number += 1 }
                return number < script.visitsBeforeAnyWin ? Int64(number) : nil
            },
            ready: { number in await turn(baseline + Int(number), watch: watch) },
            frame: { number in frames.frame(id: RoomsRun.submitIDBase + number, visit: script.visit(Int(number))) })
    }

    /// Open loop: action `number` of the timetable is due at start + phase + number × step whatever
    /// happened to the ones before it; this connection sends the ones `next` gives it (the first at or
    /// after a number), each once `ready`. A late send is counted as generator lag (waiting to be ready
    /// included); the latency of its reply still runs from the time it was due.
    private func sendOnTimetable(
        _ webSocket: WebSocket, phase: Duration, next: (Int64) -> Int64?, ready: (Int64) async -> Bool = { _ in true },
        frame: (Int64) -> ByteBuffer
    ) async {
        guard let start = await run.start.wait() else { return }
        let end = start + run.parameters.duration
        var number: Int64 = 0
        while !Task.isCancelled && !room.failed {
            guard let mine = next(number) else { return }
            number = mine
            let due = run.scheduled(number: number, phase: phase, start: start)
            guard due < end else { return }
            do { try await Task.sleep(until: due, clock: .continuous) } catch { return }
            guard await ready(number), !run.stopSending.isOpen else { return }
            run.generatorLag.record(.now - due)
            do {
                try await webSocket.send(WebSocketMessage(kind: .text, data: frame(number)))
            } catch {
                return
            }
            run.actionsSent.add()
            number += 1
        }
    }

    /// Waits until this member's view holds `version`; false once the run stops sending first (a visit
    /// that never came must not hold the connection open past the run).
    private func turn(_ version: Int, watch: VersionWatch) async -> Bool {
        if watch.seen >= version { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await watch.wait(atLeast: version) }
            group.addTask {
                _ = await run.stopSending.wait()
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    // MARK: Frames

    private func handle(_ frame: ScannedFrame, clock: ReplyClock?, watch: VersionWatch) {
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
