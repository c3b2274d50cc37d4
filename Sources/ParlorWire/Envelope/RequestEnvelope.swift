/// Reads request frames, `{"id": 7, "op": "joinRoom", "args": {...}}`, in one pass straight into what
/// the caller makes of each operation: `Request` on the client side, a prepared call on the server.
///
/// The caller says, by name, which operations exist and how to read their arguments; everything
/// else — the id, unknown operations, the sentences for missing or mistyped fields — is the same for
/// every user, so a client and the server agree on what a bad request is. Unknown extra fields are
/// ignored; a key that appears twice in one object, anywhere, is refused. The text is parsed once
/// (`JSONParser`, which also finds repeated keys) and the arguments decoded from what it built
/// (`DocumentDecoder`), with the same results and errors as Foundation's `JSONDecoder`.
public enum RequestEnvelope {
    /// Decodes a text frame's bytes. `operations` gives the arguments of an operation name, or nil for
    /// a name it does not know.
    @inlinable
    public static func decode<Call>(
        _ frame: some Sequence<UInt8>, operations: @escaping @Sendable (String) -> ArgumentsChoice<Call>?
    ) -> Result<(id: RequestID, call: Call), BadRequest> {
        let document: JSONDocument
        switch JSONDocument.parse(frame) {
        case .success(let parsed): document = parsed
        case .failure(let failure): return .failure(refusal(of: failure))
        }
        let header: Header
        switch Header.read(document) {
        case .success(let read): header = read
        case .failure(let badRequest): return .failure(badRequest)
        }
        guard let choice = operations(header.operation) else {
            let shown = header.operation.count <= 40 ? header.operation : String(header.operation.prefix(40)) + "…"
            return .failure(BadRequest(id: header.id, field: "op", message: "op \"\(shown)\" is not a known operation."))
        }
        do {
            return .success((header.id, try choice.read(member: FrameKey.args, in: header.decoder)))
        } catch {
            return .failure(describe(error, id: header.id))
        }
    }

    /// Decodes a callable function's body, `{"data": {...}}`, as `choice` reads arguments; an empty
    /// body is `{}`. Errors name fields below `data` (`data.lobbyCode is missing.`).
    @inlinable
    public static func decodeCallable<Call>(_ body: some Collection<UInt8>, _ choice: ArgumentsChoice<Call>) -> Result<Call, BadRequest> {
        let parsed = body.isEmpty ? JSONDocument.parse("{}".utf8) : JSONDocument.parse(body)
        let document: JSONDocument
        switch parsed {
        case .success(let read): document = read
        case .failure(let failure): return .failure(refusal(of: failure, echoingID: false))
        }
        let decoder = DocumentDecoder(document)
        do {
            try decoder.requireObject(JSONDocument.root, at: .root)
            return .success(try choice.read(member: CallableKey.data, in: decoder))
        } catch let error as DecodingError {
            return .failure(BadRequest(id: .null, error))
        } catch {
            return .failure(BadRequest(id: .null, field: nil, message: "The body must be a JSON object: {\"data\": {...}}."))
        }
    }

    /// Decodes a JSON request body (a REST route's) as `T`, refusing repeated keys as frames do. Errors
    /// name the field (`playerName is missing.`).
    public static func decodeBody<T: Decodable>(_ type: T.Type, from body: some Collection<UInt8>) -> Result<T, BadRequest> {
        let document: JSONDocument
        switch JSONDocument.parse(body) {
        case .success(let read): document = read
        case .failure(let failure): return .failure(refusal(of: failure, echoingID: false))
        }
        do {
            return .success(try DocumentDecoder(document).unwrap(JSONDocument.root, as: type, .root, nil))
        } catch let error as DecodingError {
            return .failure(BadRequest(id: .null, error))
        } catch {
            return .failure(BadRequest(id: .null, field: nil, message: "The body must be a JSON object."))
        }
    }

    /// A text that is not JSON, or that repeats a key. For a repeated key the id is still echoed when it
    /// can be read (and is not itself the repeated key).
    @usableFromInline
    static func refusal(of failure: JSONParseFailure, echoingID: Bool = true) -> BadRequest {
        switch failure {
        case .invalid:
            return BadRequest(id: .null, field: nil, message: "The frame is not valid JSON.")
        case .repeatedKey(let duplicate, let document):
            let idRepeated = duplicate.path.isEmpty && duplicate.key == FrameKey.id.rawValue
            let id = echoingID && !idRepeated ? document.flatMap { try? Header.readID(DocumentDecoder($0)) } ?? .null : .null
            return BadRequest(id: id, duplicate: duplicate)
        }
    }

    /// The failure of reading `args`. Errors other than the decoder's (a reader's own) name no field.
    @usableFromInline
    static func describe(_ error: any Error, id: RequestID) -> BadRequest {
        if let error = error as? DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                // Not about a field: below.
            } else {
                return BadRequest(id: id, error)
            }
        }
        return BadRequest(id: id, field: "args", message: "args could not be read.")
    }

    /// What every frame has before its arguments are read: the id to echo and the operation's name.
    @usableFromInline
    struct Header {
        @usableFromInline let id: RequestID
        @usableFromInline let operation: String
        /// At the top-level object.
        @usableFromInline let decoder: DocumentDecoder

        /// Fails with the frame's first fault: not an object, a bad id, a missing or mistyped `op`.
        @usableFromInline
        static func read(_ document: JSONDocument) -> Result<Header, BadRequest> {
            guard document.kind(JSONDocument.root) == .object else {
                return .failure(BadRequest(id: .null, field: nil, message: "A request must be a JSON object."))
            }
            let decoder = DocumentDecoder(document)
            let id: RequestID
            do {
                id = try readID(decoder) ?? .null
            } catch let error as DecodingError {
                return .failure(BadRequest(id: .null, error))
            } catch {
                return .failure(BadRequest(id: .null, field: "id", message: "id must be an integer or a string."))
            }
            guard let operation = document.member(FrameKey.op.rawValue, of: JSONDocument.root) else {
                return .failure(BadRequest(id: id, .keyNotFound(FrameKey.op, DecodingError.Context(codingPath: [], debugDescription: "missing"))))
            }
            do {
                return .success(Header(id: id, operation: try decoder.string(operation, .root, FrameKey.op), decoder: decoder))
            } catch {
                return .failure(BadRequest(id: id, error))
            }
        }

        /// The top-level `id`; nil when it is absent or null.
        static func readID(_ decoder: DocumentDecoder) throws -> RequestID? {
            let document = decoder.document
            guard document.kind(JSONDocument.root) == .object,
                let id = document.member(FrameKey.id.rawValue, of: JSONDocument.root), document.kind(id) != .null
            else { return nil }
            // Most ids are integers, which `RequestID` takes as they are: no detour through its decoder.
            if document.kind(id) == .integer { return .number(document.nodes[id].payload) }
            return try decoder.unwrap(id, as: RequestID.self, .root, FrameKey.id)
        }
    }
}

@usableFromInline enum FrameKey: String, CodingKey { case id, op, args }

/// `{"data": {...}}`.
@usableFromInline enum CallableKey: String, CodingKey { case data }
