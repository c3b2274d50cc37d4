import ParlorWire

/// What a subscription watches: one game of one stream's kind, by its key (a code, a lobby's id). The
/// client keeps one server subscription per target, however many streams its callers hold for it.
/// Made by a ``GameStream`` (`target(_:)`); two targets are the same when their kind and key are.
struct SubscriptionTarget: Hashable, Sendable, CustomStringConvertible {
    let kind: String
    let key: String
    /// The request that (re-)subscribes.
    let observeOperation: Operation
    let gone: Set<ErrorCode>
    let revoked: Set<ErrorCode>

    /// Whether `code` says the target no longer exists (so its streams end rather than retry).
    func isGone(_ code: ErrorCode) -> Bool { gone.contains(code) }

    /// Whether `code` says we may no longer watch the target, though it exists (a lobby we were removed
    /// from): its streams end rather than retry.
    func isRevoked(_ code: ErrorCode) -> Bool { revoked.contains(code) }

    var description: String { "\(kind) \(key)" }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind && lhs.key == rhs.key }

    func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(key)
    }
}
