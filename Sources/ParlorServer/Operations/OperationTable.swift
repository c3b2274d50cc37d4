import ParlorRules
import ParlorWire

/// Every operation the server answers, by wire name, as the games (and the kernel) registered them.
/// WebSocket requests, callable functions and — through the handlers they share — REST routes are all
/// answered from here; the session and the HTTP layer never name an operation.
struct OperationTable: Sendable {
    /// How each name's arguments are read into a call, built once.
    private let choices: [OperationName: ArgumentsChoice<Call>]
    /// The same, with the name carried along for the session's metrics.
    private let named: [OperationName: ArgumentsChoice<(name: OperationName, call: Call)>]
    /// Who may call each name: `.anyone` only when every registration of it says so.
    private let access: [OperationName: OperationAccess]

    /// Fails (a programmer error, at start-up) when two registrations of one name cannot be told apart.
    init(_ entries: [OperationEntry]) {
        var byName: [OperationName: [OperationEntry]] = [:]
        for entry in entries { byName[entry.name, default: []].append(entry) }
        var choices: [OperationName: ArgumentsChoice<Call>] = [:]
        var named: [OperationName: ArgumentsChoice<(name: OperationName, call: Call)>] = [:]
        var access: [OperationName: OperationAccess] = [:]
        for (name, shared) in byName {
            let choice = ArgumentsChoice.of(shared.map { ($0.claim, Self.reader($0)) }, name: name)
            choices[name] = choice
            named[name] = choice.map { (name, $0) }
            access[name] = shared.allSatisfy { $0.access == .anyone } ? .anyone : .signedIn
        }
        self.choices = choices
        self.named = named
        self.access = access
    }

    /// Every name the table answers.
    var names: Set<OperationName> { Set(choices.keys) }

    /// How to read the arguments of `name`, or nil when no game answers it.
    func choice(for name: OperationName) -> ArgumentsChoice<Call>? { choices[name] }

    /// Who may call `name`: `.anyone` only when every registration of it says so.
    func access(of name: OperationName) -> OperationAccess? { access[name] }

    /// An operation with its entry's access rule, ready to run.
    struct Call: Sendable {
        let access: OperationAccess
        let run: PreparedCall
    }

    /// Reads an entry's arguments, and beside them the access arguments any operation may carry
    /// (`private`, `spectators`, `invite`: `GameAccessRequest`), which go with the call to the game's
    /// kernel (`RequestedAccess`) — so no game's own arguments name them.
    private static func reader(_ entry: OperationEntry) -> ArgumentsReader<Call> {
        let access = entry.access
        let read = entry.reader.read
        let readCall: @Sendable (any Decoder) throws -> Call = { decoder in
            let run = try read(decoder)
            let requested = try GameAccessRequest.beside(in: decoder)
            return Call(access: access, run: requested.isEmpty ? run : Self.carrying(requested, run))
        }
        guard let absent = entry.reader.absent else { return ArgumentsReader(read: readCall) }
        let absentCall: @Sendable () -> Call = { Call(access: access, run: absent()) }
        return ArgumentsReader(read: readCall, absent: absentCall)
    }

    /// `run`, with `requested` as its request's access arguments (`RequestedAccess`).
    private static func carrying(_ requested: GameAccessRequest, _ run: @escaping PreparedCall) -> PreparedCall {
        { context throws(WireError) in try await RequestedAccess.run(requested, run, context) }
    }

    /// Decodes a WebSocket request frame.
    func decode(_ frame: some Sequence<UInt8>) -> Result<(id: RequestID, name: OperationName, call: Call), BadRequest> {
        let named = named
        return RequestEnvelope.decode(frame) { named[OperationName($0)] }
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
