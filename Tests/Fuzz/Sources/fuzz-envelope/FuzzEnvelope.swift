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
//   back equal;
// - a callable body `{"data": ...}` read successfully is read the same way from its re-encoding.
//
// The server's table (`OperationTable`) is built from the same declarations by the same
// `ArgumentsChoice.of` (`startGame` told apart by the argument each game claims), so there is one
// reading to fuzz, not two to compare as there were before operations were declared once.

/// Every declared operation's reader (`WireVocabulary.all`), as the envelope reads requests.
let registry = Operation.registry
/// Every declared name once, in declaration order.
let names: [OperationName] = {
    var seen = Set<OperationName>()
    return WireVocabulary.operations.map(\.name).filter { seen.insert($0).inserted }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnvelope(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let client = Request.decode(bytes)
    require(sameResult(client, Request.decode(bytes)), "reading the same bytes twice differed")
    checkFailure(client)
    if case .success(let request) = client {
        checkRoundTrip(request)
    }
    checkCallable(bytes)
    return 0
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

/// What our client would send for `request` reads back as `request`.
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
    require(again == .success(request), "\(request) as our client sends it, \(String(decoding: encoded, as: UTF8.self)), reads back as \(again)")
}

/// The input as `POST /functions/{name}`'s body, for one operation.
func checkCallable(_ bytes: [UInt8]) {
    let name = names[bytes.count % names.count]
    guard let choice = registry[name] else { fatalError("no reader for \(name)") }
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
