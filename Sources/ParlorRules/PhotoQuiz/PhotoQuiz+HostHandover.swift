/// The host hands the quiz to another player (`HostHandover`): only the host, to a player of the quiz,
/// while it is not over.
extension PhotoQuiz: HostHandover {
    public static func handOverHost(to user: UserID) -> PhotoQuizAction { .handOverHost(to: user) }

    mutating func handOverHost(to player: UserID, by user: UserID) throws(PhotoQuizError) -> [PhotoQuizEvent] {
        try requireHost(user, to: "hand the quiz over")
        guard player != hostId else { return [] }
        guard isMember(player) else { throw .playerNotFound(id: player.rawValue) }
        guard phase != .complete else { throw .invalidState(reason: "The quiz is over; it has no host to hand over.") }
        hostId = player
        version += 1
        return [.hostChanged(player)]
    }
}
