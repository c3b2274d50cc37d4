import ParlorRules
import ParlorWire

/// Every operation the server answers, by wire name, as the games (and the kernel) registered them.
/// WebSocket requests, callable functions and — through the handlers they share — REST routes are all
/// answered from here; the session and the HTTP layer never name an operation.
struct OperationTable: Sendable {
    private let entries: [OperationName: [OperationEntry]]
    /// How each name's arguments are read into a routed call, built once.
    private let readers: [OperationName: ArgumentsChoice<(name: OperationName, call: Call)>]

    /// Fails (a programmer error, at start-up) when two registrations of one name cannot be told apart.
    init(_ entries: [OperationEntry]) {
        var byName: [OperationName: [OperationEntry]] = [:]
        for entry in entries { byName[entry.name, default: []].append(entry) }
        for (name, shared) in byName where shared.count > 1 {
            precondition(
                shared.allSatisfy { $0.claim != nil } && Set(shared.map { $0.claim!.key }).count == shared.count,
                "Operation \(name) is registered more than once without a distinct claim")
        }
        self.entries = byName
        var readers: [OperationName: ArgumentsChoice<(name: OperationName, call: Call)>] = [:]
        for name in byName.keys {
            readers[name] = Self.choice(for: name, in: byName).map { choice in choice.map { (name, $0) } }
        }
        self.readers = readers
    }

    /// How to read the arguments of `name`, or nil when no game answers it.
    func choice(for name: OperationName) -> ArgumentsChoice<Call>? {
        Self.choice(for: name, in: entries)
    }

    private static func choice(for name: OperationName, in entries: [OperationName: [OperationEntry]]) -> ArgumentsChoice<Call>? {
        guard let shared = entries[name], let first = shared.first else { return nil }
        if shared.count == 1 { return .one(Self.reader(first)) }
        return .byKey(shared.map { ($0.claim!.key, $0.claim!.label, Self.reader($0)) })
    }

    /// Who may call `name`: `.anyone` only when every registration of it says so.
    func access(of name: OperationName) -> OperationAccess? {
        guard let shared = entries[name] else { return nil }
        return shared.allSatisfy { $0.access == .anyone } ? .anyone : .signedIn
    }

    /// An operation with its entry's access rule, ready to run.
    struct Call: Sendable {
        let access: OperationAccess
        let callable: Bool
        let run: PreparedCall
    }

    private static func reader(_ entry: OperationEntry) -> ArgumentsReader<Call> {
        let (access, callable) = (entry.access, entry.callable)
        return entry.reader.map { run in Call(access: access, callable: callable, run: run) }
    }

    /// Decodes a WebSocket request frame.
    func decode(_ frame: some Sequence<UInt8>) -> Result<(id: RequestID, name: OperationName, call: Call), BadRequest> {
        let readers = readers
        return RequestEnvelope.decode(frame) { readers[OperationName($0)] }
            .map { (id: $0.id, name: $0.call.name, call: $0.call.call) }
    }

    static let unauthenticated = WireError(.unauthenticated, "Sign in first: send hello (with your token to resume).")
}

extension ArgumentsChoice {
    /// The same choice, with each call transformed.
    func map<Other>(_ transform: @escaping @Sendable (Call) -> Other) -> ArgumentsChoice<Other> {
        switch self {
        case .one(let reader): .one(reader.map(transform))
        case .byKey(let choices): .byKey(choices.map { ($0.key, $0.label, $0.reader.map(transform)) })
        }
    }
}

extension ArgumentsReader {
    func map<Other>(_ transform: @escaping @Sendable (Call) -> Other) -> ArgumentsReader<Other> {
        let read = read
        let readOther: @Sendable (any Decoder) throws -> Other = { decoder in transform(try read(decoder)) }
        guard let absent else { return ArgumentsReader<Other>(read: readOther) }
        let absentOther: @Sendable () -> Other = { transform(absent()) }
        return ArgumentsReader<Other>(read: readOther, absent: absentOther)
    }
}
