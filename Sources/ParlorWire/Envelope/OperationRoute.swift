/// A REST route of an operation: method, path pattern (`/rooms/{code}/players/{id}/ready`), the status
/// of a success, and how the arguments are made of the path's parameters, the query and the body.
public struct OperationRoute<Arguments: Sendable>: Sendable {
    public let method: String
    public let path: String
    public let status: Int
    public let arguments: @Sendable (RouteRequest) throws(WireError) -> Arguments

    public init(
        _ method: String, _ path: String, status: Int = 200,
        arguments: @escaping @Sendable (RouteRequest) throws(WireError) -> Arguments
    ) {
        self.method = method
        self.path = path
        self.status = status
        self.arguments = arguments
    }

    public static func get(_ path: String, _ arguments: @escaping @Sendable (RouteRequest) throws(WireError) -> Arguments) -> Self {
        Self("GET", path, arguments: arguments)
    }

    public static func post(
        _ path: String, status: Int = 200, _ arguments: @escaping @Sendable (RouteRequest) throws(WireError) -> Arguments
    ) -> Self {
        Self("POST", path, status: status, arguments: arguments)
    }

    public static func put(_ path: String, _ arguments: @escaping @Sendable (RouteRequest) throws(WireError) -> Arguments) -> Self {
        Self("PUT", path, arguments: arguments)
    }

    public static func patch(_ path: String, _ arguments: @escaping @Sendable (RouteRequest) throws(WireError) -> Arguments) -> Self {
        Self("PATCH", path, arguments: arguments)
    }

    /// Answered `204 No Content`.
    public static func delete(_ path: String, _ arguments: @escaping @Sendable (RouteRequest) throws(WireError) -> Arguments) -> Self {
        Self("DELETE", path, status: 204, arguments: arguments)
    }
}

extension OperationRoute where Arguments: Decodable {
    /// A route whose body is the operation's arguments (`POST /rooms` with `createRoom`'s).
    public static func post(_ path: String, status: Int = 200) -> Self {
        Self("POST", path, status: status) { request throws(WireError) in try request.body(Arguments.self) }
    }
}

/// A REST request as a route reads it into arguments.
public struct RouteRequest: Sendable {
    /// The path pattern's parameters, in order.
    public let parameters: [String]
    public let query: [String: String]
    public let body: [UInt8]

    public init(parameters: [String], query: [String: String], body: [UInt8]) {
        self.parameters = parameters
        self.query = query
        self.body = body
    }

    /// The JSON body as `T`; a body that cannot be read, or that repeats a key, is `BAD_REQUEST` naming
    /// the field.
    public func body<T: Decodable>(_ type: T.Type) throws(WireError) -> T {
        switch RequestEnvelope.decodeBody(T.self, from: body) {
        case .success(let value): return value
        case .failure(let badRequest): throw badRequest.wireError
        }
    }

    /// `name` in the query as an integer; `INVALID_INPUT` when it is not one.
    public func integer(_ name: String) throws(WireError) -> Int? {
        try query[name].map { text throws(WireError) in
            guard let value = Int(text) else { throw WireError(.invalidInput, "\(name) must be an integer (got \(text.prefix(20))).") }
            return value
        }
    }

    /// `limit` in the query as an integer (a page size); `INVALID_INPUT` when it is not one.
    public func limit(quoted: Bool = false) throws(WireError) -> Int? {
        try query["limit"].map { text throws(WireError) in
            guard let limit = Int(text) else { throw ListGamesArguments.limitError(got: quoted ? "\"\(text)\"" : text) }
            return limit
        }
    }
}
