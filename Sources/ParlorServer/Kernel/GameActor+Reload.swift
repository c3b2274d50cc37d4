import ParlorRules
import ParlorWire

/// Taking a game as another node stored it: after a save lost its race, and when another node
/// announces a version of a game this node has subscribers for.
extension GameActor {
    /// After a `.conflict`: takes the game as another node saved it — publishing that version and
    /// arming its schedule — so the group can be applied again on top of it. Nil when it can; the
    /// answer for the group's changes when it cannot (the game is gone, cannot be read, or keeps
    /// changing elsewhere).
    func reloadAfterConflict(attempts: Int) async -> WireError? {
        guard attempts <= Self.maxConflictAttempts else {
            host.logger.warning(
                "Gave up on a change: the game kept changing on other nodes",
                metadata: ["\(Game.kind.noun)": "\(id)", "races lost": "\(attempts - 1)"])
            return WireError(.unavailable, "The game kept changing on other servers; nothing was changed. Try again.")
        }
        // A random wait that grows with each lost race: a node whose players act in quick succession
        // would otherwise win every race against a node that needs a reload between its tries.
        try? await Task.sleep(for: .milliseconds(Int.random(in: 1...min(200, 2 << attempts))))
        host.cluster?.reloaded(.conflict)
        switch await reload(onlyIfNewer: false) {
        case .failure(let error): return error
        case .success: return nil
        }
    }

    /// Another node committed `version`: unless this node already has it, reads the game and publishes
    /// it. Announcements that arrive while the game is busy are gathered (`announced`): a save under way
    /// either loses its race to that version and reloads, or was made on top of it; a reload under way
    /// reads again when it is done if a newer version was announced meanwhile. True when a version was
    /// published.
    func refresh(toAtLeast version: Int) async -> Bool {
        announced = max(announced, version)
        guard !isBusy, !isDeleted else { return false }
        isBusy = true
        defer { handOver() }
        var published = false
        while announced > state.version, !isDeleted {
            host.cluster?.reloaded(.notified)
            guard case .success(let adopted) = await reload(onlyIfNewer: true), adopted else {
                // Nothing newer is stored (or it cannot be read now): the next announcement tries again.
                announced = state.version
                break
            }
            published = true
        }
        return published
    }

    /// Reads every game this node has subscribers for afresh, after announcements may have been missed.
    func refreshAfterGap() async {
        _ = await refresh(toAtLeast: state.version + 1)
    }

    /// Another node committed `version` of a game nobody here watches: it is not read now (nobody is
    /// shown it), only remembered, and read when the game is next used here (`catchUp()`). `nil`: some
    /// announcements may have been missed, so the game is read once, whatever its version.
    func noteAnnounced(_ version: Int?) {
        announced = max(announced, version ?? state.version + 1)
    }

    /// Before a read or a new subscription: when another node announced a version newer than this
    /// node's, reads it, so a reader here is never shown an older game than one a node already
    /// acknowledged (a player who moved here after their node died sees their own last change). A
    /// group under way is left alone: its save either lost its race and reloads, or was made on top.
    func catchUp() async {
        // A copy of a game another node serves that nobody here watches hears nothing: read it.
        if host.node != nil, !isServedHere, feed.subscriberCount == 0 { noteAnnounced(nil) }
        guard announced > state.version, !isBusy, !isDeleted else { return }
        _ = await refresh(toAtLeast: announced)
    }

    /// Reads the stored game and, unless `onlyIfNewer` and it is not newer than this node's, adopts it:
    /// publishes it, hands it to the host, arms its schedule. True when it adopted.
    func reload(onlyIfNewer: Bool) async -> Result<Bool, WireError> {
        let stored: StoredGame
        do {
            guard let found = try await host.store.loadGame(Game.kind, id: id) else {
                forget(reason: "another node deleted it")
                return .failure(host.game.notFound(id: id))
            }
            stored = found
        } catch {
            return .failure(host.storeFailure(error, operation: "reload \(Game.kind.noun) \(id)"))
        }
        if onlyIfNewer, stored.version <= state.version { return .success(false) }
        let reloaded: Rules
        let reloadedSchedule: GameSchedule<Action>
        do {
            reloaded = try StoredGameState<Game>.state(of: stored.state, what: "\(Game.kind.noun) \(id)", location: stored.location)
            reloadedSchedule = try StoredJSON.decode(
                json: stored.schedule, as: { try GameSchedule<Action>(json: $0) }, what: "schedule of \(Game.kind.noun) \(id)",
                location: stored.location)
        } catch {
            return .failure(host.storeFailure(error, operation: "reload \(Game.kind.noun) \(id)"))
        }
        do {
            try take(reloaded, schedule: reloadedSchedule)
        } catch {
            return .failure(error)
        }
        return .success(true)
    }

    /// Makes a version another node committed this node's: publishes it, hands it to the host, arms
    /// its schedule (where the game is served here).
    func take(_ taken: Rules, schedule takenSchedule: GameSchedule<Action>) throws(WireError) {
        let view = try host.game.encodePublicView(taken, at: host.clock.now)
        let version = try host.game.feedVersion(of: taken, publicView: view, topic: feed.topic)
        let previous = state
        (state, encoded, schedule, lastChange) = (taken, view, takenSchedule, host.clock.now)
        feed.publish(version)
        announceAccess()
        host.adopted(state, replacing: previous, by: self)
        armSchedule()
    }
}
