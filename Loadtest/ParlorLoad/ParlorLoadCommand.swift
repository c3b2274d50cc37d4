import ArgumentParser
import ParlorWire

/// `parlor-load`: drives many concurrent rooms and connections against a Parlor server.
public struct ParlorLoadCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "parlor-load",
        abstract: "Load generator for Parlor: concurrent rooms and darts matches, reconnect storms, idle connections, a soak.",
        version: ParlorRelease.version,
        subcommands: [
            RoomsCommand.self, DartsCommand.self, ConnectCommand.self, IdleCommand.self, SoakCommand.self, ThroughputCommand.self,
            CodecBenchmarkCommand.self, WireBenchmarkCommand.self, PlacesBenchmarkCommand.self, EchoBenchmarkCommand.self,
            AutobahnClientCommand.self,
        ])

    public init() {}
}
