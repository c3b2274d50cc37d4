import FuzzSupport
@testable import ParlorWire

// Fuzzes reading a client's request: the envelope (`id`, `op`, `args`) and every operation's arguments,
// as a WebSocket text frame and as a callable function's body.
//
// Input: the frame's bytes, as they arrive in a text message (no choice bytes: the seeds are real
// requests). For the callable reading, the operation is the one at the input's length modulo the
// number of operations.
//
// Checked on every input:
// - reading is deterministic, and every failure is a BAD_REQUEST with a sentence, naming the field it
//   reports, with an id of at most 256 bytes;
// - a request read successfully, written again by `Request.encoded()` (what our client sends), reads
//   back equal, both with the operations of `Operation.specs` and with the server's table;
// - the server's table, where `startGame` is two operations told apart by `roomCode` or `lobbyId` as
//   the rummy and word-lobby modules register it, reads the same operation as `Operation.specs`
//   wherever both succeed, and every other operation exactly as `Operation.specs` does;
// - a callable body `{"data": ...}` read successfully is read the same way from its re-encoding.

/// Every operation, as `Operation.specs` declares it.
let registry = Operation.registry
let names = Operation.specs.map(\.name)

/// The server's operation table in the form `ParlorServices` builds it: the same argument types, but
/// `startGame` registered twice with a claim, as `RummyModule` and `WordLobbyModule` do.
let serverTable: [OperationName: ArgumentsChoice<Operation>] = {
    var table = registry
    table[.startGame] = .byKey([
        (key: "roomCode", label: "rummy", reader: .reading(RoomCodeArguments.self) { .startRoomGame($0) }),
        (
            key: "lobbyId", label: "word lobby",
            reader: .reading(StartLobbyGameArguments.self) { .startLobbyGame($0) }
        ),
    ])
    return table
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnvelope(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let client = Request.decode(bytes)
    let server = readAsServer(bytes)
    require(sameResult(client, Request.decode(bytes)), "reading the same bytes twice differed")
    require(sameResult(server, readAsServer(bytes)), "the server's reading of the same bytes differed")
    checkFailure(client)
    checkFailure(server)

    switch (client, server) {
    case (.success(let a), .success(let b)):
        require(a == b, "Operation.specs read \(a); the server's table read \(b)")
    case (.success(let request), .failure(let bad)), (.failure(let bad), .success(let request)):
        // Only startGame's forms may differ: `Operation.specs` reads it as one type, the server as two
        // (a present null `lobbyId` beside a `roomCode` counts as present for the server).
        require(request.operation.name == .startGame, "\(request.operation.name) read one way only: \(bad.message)")
    case (.failure, .failure):
        break
    }
    if case .success(let request) = client {
        checkRoundTrip(request)
    }
    checkCallable(bytes)
    return 0
}

func readAsServer(_ bytes: [UInt8]) -> Result<Request, BadRequest> {
    RequestEnvelope.decode(bytes) { serverTable[OperationName($0)] }.map { Request(id: $0.id, operation: $0.call) }
}

func sameResult<T: Equatable>(_ a: Result<T, BadRequest>, _ b: Result<T, BadRequest>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)): x == y
    case (.failure(let x), .failure(let y)): x == y
    default: false
    }
}

func checkFailure<T>(_ result: Result<T, BadRequest>) {
    guard case .failure(let bad) = result else { return }
    require(bad.wireError.code == .badRequest, "a bad request answered \(bad.wireError.code)")
    require(!bad.message.isEmpty, "a bad request without a sentence")
    if let field = bad.field {
        require(bad.message.contains(field), "\"\(bad.message)\" does not name \(field)")
    }
    if case .string(let id) = bad.id {
        require(id.utf8.count <= RequestID.maxStringLength, "an id of \(id.utf8.count) bytes")
    }
}

/// What our client would send for `request` reads back as `request`, by either table.
func checkRoundTrip(_ request: Request) {
    if case .string(let id) = request.id {
        require(id.utf8.count <= RequestID.maxStringLength, "accepted an id of \(id.utf8.count) bytes")
    }
    let encoded: [UInt8]
    do {
        encoded = try request.encoded()
    } catch {
        fatalError("cannot encode \(request): \(error)")
    }
    let again = Request.decode(encoded)
    require(again == .success(request), "\(request) reads back as \(again)")
    let byServer = readAsServer(encoded)
    require(byServer == .success(request), "\(request) as our client sends it, \(String(decoding: encoded, as: UTF8.self)), the server reads as \(byServer)")
}

/// The input as `POST /functions/{name}`'s body, for one operation.
func checkCallable(_ bytes: [UInt8]) {
    let name = names[bytes.count % names.count]
    guard let choice = serverTable[name] else { fatalError("no reader for \(name)") }
    let result = RequestEnvelope.decodeCallable(bytes, choice)
    checkFailure(result)
    guard case .success(let operation) = result else { return }
    require(operation.name == name, "the body for \(name) read as \(operation.name)")
    let body: [UInt8]
    do {
        let arguments = operation.arguments
        body = Array(#"{"data":"#.utf8) + (try WireJSON.encode(arguments)) + [UInt8(ascii: "}")]
    } catch {
        fatalError("cannot encode the arguments of \(operation): \(error)")
    }
    let again = RequestEnvelope.decodeCallable(body, choice)
    require(again == .success(operation), "\(operation) reads back as \(again)")
}
