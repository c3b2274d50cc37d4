import NIOConcurrencyHelpers
import ParlorRules
import ParlorWire

/// Maps room codes to their actors. Lock-protected rather than an actor: every operation starts with a
/// lookup, and a lookup should not queue behind other lookups.
final class RoomDirectory: Sendable {
    private enum Entry {
        /// A code handed out to a room being created and not yet stored.
        case reserved
        case live(RoomActor)
    }

    private let entries = NIOLockedValueBox<[RoomCode: Entry]>([:])
    private let codeSpace: CodeSpace
    private let maxRooms: Int

    init(codeSpace: CodeSpace = .roomCodes, maxRooms: Int) {
        self.codeSpace = codeSpace
        self.maxRooms = maxRooms
    }

    var count: Int { entries.withLockedValue { $0.count } }

    func room(_ code: RoomCode) -> RoomActor? {
        entries.withLockedValue { entries in
            if case .live(let actor) = entries[code] { return actor }
            return nil
        }
    }

    var allRooms: [RoomActor] {
        entries.withLockedValue { entries in
            entries.values.compactMap { if case .live(let actor) = $0 { actor } else { nil } }
        }
    }

    /// A fresh code, reserved until `install` or `release`.
    func reserveCode() throws(WireError) -> RoomCode {
        let result = entries.withLockedValue { entries -> Result<RoomCode, WireError> in
            guard entries.count < maxRooms else {
                return .failure(WireError(.noFreeCode, "The server is at its limit of \(maxRooms) rooms; try again later."))
            }
            var generator = SystemRandomNumberGenerator()
            do {
                let code = try RoomCode.generate(in: codeSpace, using: &generator) { entries[$0] != nil }
                entries[code] = .reserved
                return .success(code)
            } catch {
                return .failure(WireError(.noFreeCode, "No free room code could be found; try again."))
            }
        }
        return try result.get()
    }

    func install(_ actor: RoomActor) {
        entries.withLockedValue { $0[actor.code] = .live(actor) }
    }

    func release(_ code: RoomCode) {
        entries.withLockedValue { entries in
            if case .reserved = entries[code] { entries.removeValue(forKey: code) }
        }
    }

    func remove(_ code: RoomCode) {
        entries.withLockedValue { _ = $0.removeValue(forKey: code) }
    }
}
