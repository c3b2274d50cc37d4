import ArgumentParser

/// `parlor-load`: drives many concurrent rooms and connections against a Parlor server.
public struct ParlorLoadCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "parlor-load",
        abstract: "Load generator for Parlor: concurrent rooms and darts matches, reconnect storms, idle connections.",
        subcommands: [
            RoomsCommand.self, DartsCommand.self, ConnectCommand.self, IdleCommand.self, ThroughputCommand.self,
            CodecBenchmarkCommand.self, WireBenchmarkCommand.self, EchoBenchmarkCommand.self, AutobahnClientCommand.self,
        ])

    public init() {}
}
