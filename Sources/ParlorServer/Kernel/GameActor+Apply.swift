import ParlorRules
import ParlorWire

/// Applying one group of mutations to a game's draft: synchronous, so that none of it waits in the
/// frame of the task that then waits for the store.
extension GameActor {
    /// What one group has built so far, on top of the committed game.
    struct Draft {
        var state: Rules
        var encoded: EncodedJSON
        var schedule: GameSchedule<Action>
        /// Index in the group of the first mutation that changed the game or its schedule.
        var firstChange: Int?
        /// Each new version, ready to publish.
        var versions: [FeedVersion] = []
        /// Newly scheduled actions, armed once saved.
        var scheduled: [ScheduledAction<Action>] = []
        /// Scheduled actions applied (their timers fired), to try again if the save fails.
        var fired: [ScheduledAction<Action>] = []
        var revoked: [UserID] = []
        var archive: GameArchive?
        /// The actions that changed the game, for its record (saved with it).
        var recorded: [RecordedAction] = []

        mutating func consume(_ entry: ScheduledAction<Action>, at index: Int) {
            schedule.remove(entry.key)
            fired.append(entry)
            firstChange = firstChange ?? index
        }
    }

    /// One group: its members in arrival order, their answers so far, and the draft they build on top
    /// of the committed game. A class, so that the task waiting for the store keeps a reference in its
    /// frame rather than the whole group (a larger frame costs every request an allocation).
    final class Group {
        var members: [Pending]
        var results: [Result<GameResult<Rules>, WireError>] = []
        var draft: Draft
        /// Scheduled actions whose timers went off before their time (the clock stepped back).
        var early: [ScheduledAction<Action>] = []

        init(leader: Pending, draft: Draft) {
            members = [leader]
            self.draft = draft
        }

        /// Forgets what was applied, to apply the same members again on top of `draft` (the game as
        /// another node saved it).
        func restart(on draft: Draft) {
            results = []
            early = []
            self.draft = draft
        }
    }

    /// How a group ends once its actions are applied.
    enum Ending {
        /// Save the draft (if anything changed), then answer everyone.
        case save
        /// The last member's action deletes the game (nothing before it in the group changed anything).
        case delete(reply: Rules.Reply?)
    }

    /// Why `user`, whose action seats them in `joined`, may not join the game as `draft` has it: it is
    /// locked, or private and `invite` does not open it. Nil for an action that seats nobody new, in a
    /// game open to all — seated players always come back.
    func admission(of user: UserID, invite: String?, joining joined: Rules, from draft: Draft, at now: Instant) -> WireError? {
        let access = draft.schedule.access
        guard access.locked || access.isPrivate, !draft.state.members.contains(user), joined.members.contains(user) else { return nil }
        if access.locked {
            return WireError(.gameLocked, "The \(Game.kind.noun) \(code.rawValue) is locked: its host lets nobody else in.")
        }
        return host.invites.refusal(invite, kind: Game.kind, code: code.rawValue, at: now)
    }

    /// Applies the group's actions in order, taking in what queues meanwhile, onto its draft; answers
    /// each in `results`. Stops before an action that deletes the game when something before it must
    /// be saved first, and after one that files the game in history; the rest go back to the queue.
    func apply(_ group: Group, at now: Instant) -> Ending {
        let environment = host.game.environment()
        var index = -1
        while true {
            index += 1
            if index == group.members.count { takeQueued(into: &group.members) }
            guard index < group.members.count else { break }
            let action: Action
            let caller: Caller
            /// A scheduled action about to be applied: consumed whatever the rules make of it, in the
            /// same save as its effect, so it takes effect exactly once.
            var consumed: ScheduledAction<Action>?
            switch group.members[index].work {
            case .action(let requested, let user, _):
                (action, caller) = (requested, .user(user))
            case .timer(let key):
                guard let entry = group.draft.schedule[key], entry.due <= now else {
                    // Stale; or woken early (the clock stepped back): wait for the real time.
                    if let entry = group.draft.schedule[key] { group.early.append(entry) }
                    group.results.append(.success(.game(group.draft.state, group.draft.encoded, reply: nil)))
                    continue
                }
                consumed = entry
                (action, caller) = (entry.action, .clock)
            case .close, .access:
                // Leads a group of its own, after what came before it is saved.
                putBack(group.members[index...])
                group.members.removeSubrange(index...)
                return .save
            }
            var attempt = group.draft.state
            let outcome: GameOutcome<Rules>
            do {
                outcome = try attempt.apply(action, by: caller, at: now, in: environment)
            } catch {
                if let consumed { group.draft.consume(consumed, at: index) }
                group.results.append(.failure(host.game.wireError(error)))
                continue
            }
            if case .action(_, let user, let invite) = group.members[index].work,
               let refusal = admission(of: user, invite: invite, joining: attempt, from: group.draft, at: now) {
                group.results.append(.failure(refusal))
                continue
            }
            var deletes = false
            var archives = false
            for effect in outcome.effects {
                if case .delete = effect { deletes = true }
                if case .archive = effect { archives = true }
            }
            if deletes {
                if group.draft.firstChange != nil {
                    // Save what came before first; this mutation leads a later group.
                    putBack(group.members[index...])
                    group.members.removeSubrange(index...)
                    return .save
                }
                putBack(group.members[(index + 1)...])
                group.members.removeSubrange((index + 1)...)
                return .delete(reply: outcome.reply)
            }
            // Encode before anything of the draft changes, so a failure leaves it as it was.
            var published: FeedVersion?
            var reads: String?
            if attempt.version != group.draft.state.version {
                do {
                    let view = try host.game.encodePublicView(attempt, at: now)
                    published = try host.game.feedVersion(of: attempt, publicView: view, topic: feed.topic)
                    if recordID != nil { reads = try host.game.environmentReads(of: action, reaching: attempt, in: environment) }
                    group.draft.encoded = view
                } catch {
                    if let consumed { group.draft.consume(consumed, at: index) }
                    group.results.append(.failure(error))
                    continue
                }
            }
            if let consumed { group.draft.consume(consumed, at: index) }
            for effect in outcome.effects {
                switch effect {
                case .schedule, .cancelSchedule:
                    if let scheduled = group.draft.schedule.apply(effect) { group.draft.scheduled.append(scheduled) }
                    group.draft.firstChange = group.draft.firstChange ?? index
                case .revokeView(let user):
                    group.draft.revoked.append(user)
                case .archive(let archive):
                    group.draft.archive = archive
                case .delete:
                    break  // Handled above.
                }
            }
            if let published {
                group.draft.versions.append(published)
                if recordID != nil {
                    group.draft.recorded.append(RecordedAction(action: action, caller: caller, at: now, version: attempt.version, environment: reads))
                }
                group.draft.state = consume attempt
                group.draft.firstChange = group.draft.firstChange ?? index
            }
            group.results.append(.success(.game(group.draft.state, group.draft.encoded, reply: outcome.reply)))
            if archives { break }
        }
        if group.results.count < group.members.count {
            putBack(group.members[group.results.count...])
            group.members.removeSubrange(group.results.count...)
        }
        return .save
    }
}
