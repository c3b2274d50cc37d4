/// A game's own settings, part of the server's configuration: a `Sendable` struct whose every field has
/// the default the server runs with.
public protocol GameConfiguration: Sendable {
    init()
}

/// Every game's settings, by their type (`ServerConfiguration.games`): a game that was never configured
/// runs with its defaults. Each game's folder gives its settings a name on `ServerConfiguration`
/// (`configuration.wordGames.maxLobbies = 10`), so the server's configuration names no game.
public struct GameConfigurations: Sendable {
    private var settings: [ObjectIdentifier: any GameConfiguration] = [:]

    public init() {}

    public subscript<Settings: GameConfiguration>(_ type: Settings.Type) -> Settings {
        get { settings[ObjectIdentifier(type)] as? Settings ?? Settings() }
        set { settings[ObjectIdentifier(type)] = newValue }
    }
}
