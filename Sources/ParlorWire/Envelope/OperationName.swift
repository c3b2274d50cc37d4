/// An operation's name on the wire (`"op"`), exactly as the seeds spell it.
///
/// Open, not an enum: each game brings its own operations (and the server's operation table is built
/// from what the games register), so a name is any string. Each game names its operations in its wire
/// file, beside their arguments (`OperationName.createRoom` in `RoomArguments.swift`).
public struct OperationName: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    // Sessions and subscriptions, whatever the game; each game names its own operations in its wire file.
    public static let hello = OperationName("hello")
    public static let unsubscribe = OperationName("unsubscribe")
}

extension OperationName: CaseIterable {
    /// Every operation Parlor's clients send: the names the games registered.
    public static let allCases: [OperationName] = Operation.specs.map(\.name)
}
