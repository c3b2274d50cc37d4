import Foundation

/// Reads request frames, `{"id": 7, "op": "joinRoom", "args": {...}}`, in one pass straight into what
/// the caller makes of each operation: `Request` on the client side, a prepared call on the server.
///
/// The caller says, by name, which operations exist and how to read their arguments; everything
/// else — the id, unknown operations, the sentences for missing or mistyped fields — is the same for
/// every user, so a client and the server agree on what a bad request is. Unknown extra fields are
/// ignored; a key that appears twice in one object, anywhere, is refused (`DuplicateKeyScan`).
public enum RequestEnvelope {
    /// Decodes a text frame's bytes. `operations` gives the arguments of an operation name, or nil for
    /// a name it does not know.
    @inlinable
    public static func decode<Call>(
        _ frame: some Sequence<UInt8>, operations: @escaping @Sendable (String) -> ArgumentsChoice<Call>?
    ) -> Result<(id: RequestID, call: Call), BadRequest> {
        let data = Data(frame)
        if let duplicate = DuplicateKeyScan.firstDuplicate(in: data) {
            // The id is still echoed when it can be read (and is not itself the repeated key).
            let id = duplicate.path.isEmpty && duplicate.key == FrameKey.id.rawValue ? RequestID.null : readID(data)
            return .failure(BadRequest(id: id, duplicate: duplicate))
        }
        let decoder = JSONDecoder()
        decoder.userInfo[operationsKey] = Operations(lookup: operations)
        do {
            return try decoder.decode(Frame<Call>.self, from: data).outcome
        } catch let error as DecodingError {
            return .failure(BadRequest(id: .null, error))
        } catch {
            return .failure(BadRequest(id: .null, field: nil, message: "The frame is not valid JSON."))
        }
    }

    /// Decodes a callable function's body, `{"data": {...}}`, as `choice` reads arguments; an empty
    /// body is `{}`. Errors name fields below `data` (`data.lobbyCode is missing.`).
    @inlinable
    public static func decodeCallable<Call>(_ body: some Collection<UInt8>, _ choice: ArgumentsChoice<Call>) -> Result<Call, BadRequest> {
        if let duplicate = DuplicateKeyScan.firstDuplicate(in: body) {
            return .failure(BadRequest(id: .null, duplicate: duplicate))
        }
        let decoder = JSONDecoder()
        decoder.userInfo[operationsKey] = choice
        do {
            return .success(try decoder.decode(CallableBody<Call>.self, from: Data(body.isEmpty ? Array("{}".utf8) : Array(body))).call)
        } catch let error as DecodingError {
            return .failure(BadRequest(id: .null, error))
        } catch {
            return .failure(BadRequest(id: .null, field: nil, message: "The body must be a JSON object: {\"data\": {...}}."))
        }
    }

    /// Decodes a JSON request body (a REST route's) as `T`, refusing repeated keys as frames do. Errors
    /// name the field (`playerName is missing.`).
    public static func decodeBody<T: Decodable>(_ type: T.Type, from body: some Collection<UInt8>) -> Result<T, BadRequest> {
        if let duplicate = DuplicateKeyScan.firstDuplicate(in: body) {
            return .failure(BadRequest(id: .null, duplicate: duplicate))
        }
        do {
            return .success(try JSONDecoder().decode(T.self, from: Data(body)))
        } catch let error as DecodingError {
            return .failure(BadRequest(id: .null, error))
        } catch {
            return .failure(BadRequest(id: .null, field: nil, message: "The body must be a JSON object."))
        }
    }

    /// The id of a frame refused before it was decoded; null when it cannot be read.
    @usableFromInline
    static func readID(_ data: Data) -> RequestID {
        (try? JSONDecoder().decode(IDProbe.self, from: data))?.id ?? .null
    }

    @usableFromInline
    struct IDProbe: Decodable {
        @usableFromInline let id: RequestID?
    }

    // Usable from inlinable code, so a caller's `Call` is specialised where it is known (the server's
    // hot path) instead of being looked up at run time for every request.
    @usableFromInline static let operationsKey = CodingUserInfoKey(rawValue: "parlor.operations")!

    @usableFromInline
    struct Operations<Call>: Sendable {
        @usableFromInline let lookup: @Sendable (String) -> ArgumentsChoice<Call>?

        @inlinable init(lookup: @escaping @Sendable (String) -> ArgumentsChoice<Call>?) { self.lookup = lookup }
    }
}

@usableFromInline enum FrameKey: String, CodingKey { case id, op, args }

/// The decoding pass. It never throws for a bad request it can describe, so that the id read so far
/// travels with the failure.
@usableFromInline
struct Frame<Call>: Decodable {
    @usableFromInline let outcome: Result<(id: RequestID, call: Call), BadRequest>

    @inlinable
    init(from decoder: any Decoder) throws {
        guard let operations = decoder.userInfo[RequestEnvelope.operationsKey] as? RequestEnvelope.Operations<Call> else {
            outcome = .failure(BadRequest(id: .null, field: nil, message: "The request could not be read."))
            return
        }
        guard let container = try? decoder.container(keyedBy: FrameKey.self) else {
            outcome = .failure(BadRequest(id: .null, field: nil, message: "A request must be a JSON object."))
            return
        }
        let id: RequestID
        do {
            id = try container.decodeIfPresent(RequestID.self, forKey: .id) ?? .null
        } catch let error as DecodingError {
            outcome = .failure(BadRequest(id: .null, error))
            return
        } catch {
            outcome = .failure(BadRequest(id: .null, field: "id", message: "id must be an integer or a string."))
            return
        }
        do {
            let opText = try container.decode(String.self, forKey: .op)
            guard let choice = operations.lookup(opText) else {
                let shown = opText.count <= 40 ? opText : String(opText.prefix(40)) + "…"
                outcome = .failure(BadRequest(id: id, field: "op", message: "op \"\(shown)\" is not a known operation."))
                return
            }
            outcome = .success((id, try choice.read(in: container, forKey: .args)))
        } catch {
            outcome = .failure(Self.describe(error, id: id, container: container))
        }
    }

    /// Foundation reports a fractional or out-of-range number given for an `Int` as an internal
    /// error (or as corrupt data with no coding path), so those are located with `NumberProbe`.
    @usableFromInline
    static func describe(_ error: any Error, id: RequestID, container: KeyedDecodingContainer<FrameKey>) -> BadRequest {
        if let error = error as? DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                // Fall through to the probe.
            } else {
                return BadRequest(id: id, error)
            }
        }
        if let path = (try? container.decode(NumberProbe.self, forKey: .args))?.firstNonInteger(prefix: "args") {
            return BadRequest(id: id, field: path, message: "\(path) must be an integer.")
        }
        return BadRequest(id: id, field: "args", message: "args could not be read.")
    }
}

@usableFromInline enum CallableKey: String, CodingKey { case data }

/// `{"data": {...}}`.
@usableFromInline
struct CallableBody<Call>: Decodable {
    @usableFromInline let call: Call

    @inlinable
    init(from decoder: any Decoder) throws {
        guard let choice = decoder.userInfo[RequestEnvelope.operationsKey] as? ArgumentsChoice<Call> else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "no operation"))
        }
        call = try choice.read(in: try decoder.container(keyedBy: CallableKey.self), forKey: .data)
    }
}
