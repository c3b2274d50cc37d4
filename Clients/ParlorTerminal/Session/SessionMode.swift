/// How a session talks to whoever runs it.
enum SessionMode: Sendable, Equatable {
    /// Full screen, keys.
    case interactive
    /// JSON lines out, commands in.
    case scripted
}
