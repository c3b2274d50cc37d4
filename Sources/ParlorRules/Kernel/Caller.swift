/// Who asked for an action: a signed-in user, or the server's clock firing an action the rules
/// scheduled (a round's end). The kernel says which; a client can never claim to be the clock.
public enum Caller: Sendable, Hashable {
    case user(UserID)
    case clock

    /// The user, or nil for the clock.
    public var user: UserID? {
        if case .user(let user) = self { return user }
        return nil
    }
}
