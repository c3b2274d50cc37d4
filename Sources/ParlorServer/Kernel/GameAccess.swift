import ParlorRules
import ParlorWire

/// Who may join and watch one game: kept by the kernel beside the game's rules (the rules never see
/// it), stored with the game (`GameSchedule`'s stored form carries it) and the same for every kind.
struct GameAccess: Sendable, Equatable, Codable {
    /// Joined by invitation only (`GameInvites`).
    var isPrivate = false
    /// Its host shut it to new players.
    var locked = false
    var spectators = SpectatorPolicy.allowed

    enum CodingKeys: String, CodingKey {
        case isPrivate = "private"
        case locked
        case spectators
    }

    init(isPrivate: Bool = false, locked: Bool = false, spectators: SpectatorPolicy = .allowed) {
        self.isPrivate = isPrivate
        self.locked = locked
        self.spectators = spectators
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isPrivate = try container.decodeIfPresent(Bool.self, forKey: .isPrivate) ?? false
        locked = try container.decodeIfPresent(Bool.self, forKey: .locked) ?? false
        spectators = try container.decodeIfPresent(SpectatorPolicy.self, forKey: .spectators) ?? .allowed
    }

    /// Every game before access settings: open, unlocked, anyone may watch.
    var isDefault: Bool { self == GameAccess() }

    /// The settings a create operation asked for (`private`, `spectators`); `INVALID_INPUT` for a policy
    /// that is none of the three.
    init(requested: GameAccessRequest?) throws(WireError) {
        self.init()
        guard let requested else { return }
        isPrivate = requested.private ?? false
        if let spectators = requested.spectators { self.spectators = try SpectatorPolicy(reading: spectators) }
    }

    /// The settings as clients see them.
    func view(kind: GameKind, code: String, host: UserID?) -> GameAccessView {
        GameAccessView(kind: kind.name, code: code, private: isPrivate, locked: locked, spectators: spectators, host: host)
    }
}

/// What a request asked of the kernel beside its operation's own arguments (`GameAccessRequest`): read
/// once, where every operation's arguments are read (`OperationTable`), and carried with the request's
/// task to the game it reaches, so that no game's operation names it.
enum RequestedAccess {
    @TaskLocal static var current: GameAccessRequest?

    /// Runs `call` with `requested` as the request's access arguments.
    static func run(
        _ requested: GameAccessRequest, _ call: @escaping PreparedCall, _ context: OperationContext
    ) async throws(WireError) -> OperationResult {
        do {
            return try await $current.withValue(requested) { try await call(context) }
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError.internalError("The request failed: \(error)")
        }
    }
}

/// A change to a game's access settings, by its host.
enum GameAccessChange: Sendable, Equatable {
    case lock
    case unlock

    /// What the host is refused when someone else asks: "Only the host can lock the game."
    var verb: String {
        switch self {
        case .lock: "lock"
        case .unlock: "unlock"
        }
    }

    func applied(to access: GameAccess) -> GameAccess {
        var changed = access
        switch self {
        case .lock: changed.locked = true
        case .unlock: changed.locked = false
        }
        return changed
    }
}
