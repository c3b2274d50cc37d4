import ParlorWire

/// Why a request (or the client) failed. Every case reads as a sentence (`description`), fit to show a
/// person as is.
public enum ParlorClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused the request; `message` is the server's own sentence
    /// ("Room A1B2C3 is full (4 of 4 seats).").
    case server(code: ErrorCode, status: ErrorStatus, message: String)
    /// No answer came within the request timeout; the request may or may not have been applied.
    case timeout(operation: String, after: Duration)
    /// The connection dropped after the request was sent and before its answer arrived: its outcome is
    /// unknown.
    case connectionLost(operation: String)
    /// There was no connection to send the request on (and none came within the request timeout), or
    /// the client has been closed. `reason` is a clause: "nothing is listening at localhost:8080".
    case notConnected(reason: String)
    /// The server sent something this client cannot read.
    case protocolViolation(String)
    /// Too many requests are already waiting for answers.
    case tooManyPendingRequests(limit: Int)
    /// The client was set up with something it cannot use (a malformed server URL, …).
    case invalidConfiguration(String)
    /// The task waiting for the answer was cancelled.
    case cancelled

    public init(_ error: WireError) {
        self = .server(code: error.code, status: error.status, message: error.message)
    }

    /// A restarting node of a cluster closed the connection (1012) before answering `operation`. It
    /// answers every request it has read before it closes with 1012 and reads nothing after its close
    /// frame, so it never read this one: the same outcome as its `SHUTTING_DOWN` answer, and the
    /// client sends the request again on its next connection.
    static func unreadBeforeRestart(_ operation: String) -> ParlorClientError {
        ParlorClientError(WireError(.shuttingDown, "The server restarted before it read \(operation); nothing was applied."))
    }

    /// The server's error code, for `.server`.
    public var serverCode: ErrorCode? {
        if case .server(let code, _, _) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case .server(_, _, let message):
            return Self.sentence(message)
        case .timeout(let operation, let after):
            return "The server did not answer \(operation) within \(Self.seconds(after)); it may or may not have been applied."
        case .connectionLost(let operation):
            return "The connection was lost before the server answered \(operation); it may or may not have been applied."
        case .notConnected(let reason):
            return Self.sentence("Not connected to the Parlor server: \(reason)")
        case .protocolViolation(let detail):
            return Self.sentence("The server sent something this client cannot read: \(detail)")
        case .tooManyPendingRequests(let limit):
            return "Too many requests are waiting for answers (the limit is \(limit)); try again in a moment."
        case .invalidConfiguration(let detail):
            return Self.sentence(detail)
        case .cancelled:
            return "The request was cancelled."
        }
    }

    /// The description as a clause to go inside another sentence: no capital, no full stop.
    var clause: String {
        var text = description
        if text.hasSuffix(".") { text.removeLast() }
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// Capitalized, with a full stop.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let capitalized = first.uppercased() + text.dropFirst()
        return capitalized.hasSuffix(".") || capitalized.hasSuffix("!") || capitalized.hasSuffix("?")
            ? capitalized : capitalized + "."
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return "\(milliseconds) ms"
    }
}
