import ParlorRules
import ParlorWire

/// What someone else did that concerns you, read off two versions of the room: the sentence that
/// replaces the message line, so it tells what happened rather than what was true before
/// ("Ann entered 80 for you in round 3.", "Ann started the game.").
enum RoomAnnouncement {
    /// `pending`: your own actions still waiting for an answer; what they did is not news to you.
    static func sentence(from old: GameRoom, to new: GameRoom, me: UserID?, pending: [RoomAction]) -> String? {
        let moderator = new.players.first(where: \.isModerator)?.name ?? "The moderator"
        let mine = me.flatMap { me in new.players.first { $0.id == me } }
        if let me, let mine, let before = old.players.first(where: { $0.id == me }) {
            for round in 1...RummyRules.roundCount where mine.hasEntered(round: round) {
                let was = before.hasEntered(round: round) ? before.scores[round - 1] : nil
                let now = mine.scores[round - 1]
                guard was != now, !pending.contains(.submitScore(player: me, round: round, score: now)) else { continue }
                return "\(moderator) entered \(now) for you in round \(round)."
            }
            if mine.isModerator, !before.isModerator {
                return "You are now the moderator: you start rounds and may enter everyone's scores."
            }
        }
        if new.isFinished, !old.isFinished, !pending.contains(.nextRound) {
            return "\(moderator) ended the game: the standings are below."
        }
        if new.isStarted, !old.isStarted, !pending.contains(.start) {
            return mine == nil ? "The game has started." : "\(moderator) started the game: press e to enter your score."
        }
        if new.currentRound > old.currentRound, !new.isFinished, !pending.contains(.nextRound) {
            return "\(moderator) closed round \(old.currentRound); round \(new.currentRound) has begun."
        }
        return nil
    }
}
