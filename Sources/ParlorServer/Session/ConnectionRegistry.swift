import NIOConcurrencyHelpers

/// The open sessions on `/ws`, by a number given at connection, so an operator can list them and
/// disconnect one (`/admin`). A lock rather than an actor: a connection registers as it opens and
/// leaves as it closes, and neither should queue behind an operator's listing.
final class ConnectionRegistry: Sendable {
    private struct State {
        var next = 1
        var sessions: [Int: Session] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// A number no session has had.
    func nextNumber() -> Int {
        state.withLockedValue { state in
            defer { state.next += 1 }
            return state.next
        }
    }

    func insert(_ session: Session, number: Int) {
        state.withLockedValue { $0.sessions[number] = session }
    }

    func remove(_ id: Int) {
        _ = state.withLockedValue { $0.sessions.removeValue(forKey: id) }
    }

    func session(_ id: Int) -> Session? {
        state.withLockedValue { $0.sessions[id] }
    }

    var count: Int { state.withLockedValue { $0.sessions.count } }

    /// Every open session.
    var all: [Session] { state.withLockedValue { Array($0.sessions.values) } }

    /// At most `limit` sessions, oldest first.
    func oldest(_ limit: Int) -> [(id: Int, session: Session)] {
        state.withLockedValue { state in
            state.sessions.keys.sorted().prefix(limit).compactMap { id in state.sessions[id].map { (id, $0) } }
        }
    }
}
