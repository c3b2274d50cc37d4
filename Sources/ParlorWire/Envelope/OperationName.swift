/// An operation's name on the wire (`"op"`), exactly as the seeds spell it.
///
/// Open, not an enum: each game brings its own operations (and the server's operation table is built
/// from what the games register), so a name is any string; the ones Parlor's games use are named here.
public struct OperationName: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    // Sessions and subscriptions.
    public static let hello = OperationName("hello")
    public static let unsubscribe = OperationName("unsubscribe")

    // Rummy rooms.
    public static let createRoom = OperationName("createRoom")
    public static let joinRoom = OperationName("joinRoom")
    public static let setReady = OperationName("setReady")
    /// Shared by rummy rooms (`roomCode`) and word lobbies (`lobbyId`).
    public static let startGame = OperationName("startGame")
    public static let leaveRoom = OperationName("leaveRoom")
    public static let observeRoom = OperationName("observeRoom")
    public static let submitScore = OperationName("submitScore")
    public static let nextRound = OperationName("nextRound")
    public static let getRoom = OperationName("getRoom")
    public static let listGames = OperationName("listGames")

    // Word lobbies.
    public static let createLobby = OperationName("createLobby")
    public static let joinLobby = OperationName("joinLobby")
    public static let submitWord = OperationName("submitWord")
    public static let leaveLobby = OperationName("leaveLobby")
    public static let observeLobby = OperationName("observeLobby")

    // The game catalog.
    public static let getCatalog = OperationName("getCatalog")
    public static let observeCatalog = OperationName("observeCatalog")
}

extension OperationName: CaseIterable {
    /// Every operation Parlor's clients send: the names the games registered.
    public static let allCases: [OperationName] = Operation.specs.map(\.name)
}
