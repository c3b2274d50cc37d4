import ArgumentParser
import Foundation
import ParlorClient
import ParlorWire

/// The options every command shares: which server, as whom, and how to print.
public struct ClientOptions: ParsableArguments {
    /// The environment variable that names the server when `--server` does not (`parlor-load` reads it too).
    public static let serverVariable = "PARLOR_SERVER"
    public static let defaultServer = "ws://localhost:\(ServerAddress.defaultPort)"

    @Option(name: .customLong("server"), help: ArgumentHelp(
        "The Parlor server: ws://host:port or wss://host:port (default: $PARLOR_SERVER, else ws://localhost:\(ServerAddress.defaultPort)).",
        valueName: "url"))
    public var serverFlag: String?

    @Flag(help: "Print one JSON object per line instead of drawing the screen (the default when output is not a terminal).")
    public var json = false

    @Option(help: ArgumentHelp(
        "Keep a separate identity under this name, so several players can share one machine.", valueName: "name"))
    public var profile: String?

    @Option(help: ArgumentHelp("Seconds to wait for the server before a request gives up.", valueName: "seconds"))
    public var timeout: Double = 10

    @Option(name: .customLong("ca-file"), help: ArgumentHelp(
        "For wss://: trust the CA certificates in this PEM file (a server whose certificate comes from its own CA).",
        valueName: "path"))
    public var caFile: String?

    @Flag(name: .customLong("private"), help: "Creating a game: players join by invitation only (parlor invite CODE).")
    public var isPrivate = false

    @Option(help: ArgumentHelp("Creating a game: who may watch it — allowed (anyone), signedIn (accounts), none.", valueName: "who"))
    public var spectators: String?

    @Option(help: ArgumentHelp("Joining a private game: the host's invitation, or its link (/join/CODE?invite=…).", valueName: "invitation"))
    public var invite: String?

    public init() {}

    /// The access arguments these options give every request (the server reads them on creates and joins).
    public var gameAccess: GameAccessRequest? {
        let request = GameAccessRequest(
            private: isPrivate ? true : nil, spectators: spectators, invite: invite.map(AccessCommands.invite(in:)))
        return request.isEmpty ? nil : request
    }

    /// The server to talk to: `--server`, else `$PARLOR_SERVER`, else the local default.
    public func server(environment: [String: String]) -> String {
        if let serverFlag { return serverFlag }
        if let named = environment[Self.serverVariable]?.trimmingCharacters(in: .whitespaces), !named.isEmpty { return named }
        return Self.defaultServer
    }

    /// The server this process talks to.
    public var server: String { server(environment: ProcessInfo.processInfo.environment) }

    public func validate() throws {
        do throws(ParlorClientError) {
            _ = try ServerAddress(server)
        } catch {
            let source = serverFlag == nil && server != Self.defaultServer ? "$\(Self.serverVariable): " : ""
            throw ValidationError(source + error.description)
        }
        guard timeout > 0, timeout <= 600 else {
            throw ValidationError("--timeout must be between 0 and 600 seconds (got \(timeout)).")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("Cannot read the CA file \(caFile).")
        }
        if let spectators, SpectatorPolicy(rawValue: spectators) == nil {
            throw ValidationError("--spectators must be allowed, signedIn or none (got \(spectators)).")
        }
        if let profile {
            guard !profile.isEmpty, profile.count <= 40,
                  profile.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else {
                throw ValidationError("--profile must be 1 to 40 letters, digits, - or _ (got \"\(profile)\").")
            }
        }
    }

    /// Interactive full screen only on a terminal, and never with --json.
    public var isInteractive: Bool { !json && TerminalDevice.isInteractive }

    /// Human text for one-shot results (a terminal on stdout, no --json).
    public var printsText: Bool { !json && TerminalDevice.isOutputTerminal }

    /// The client configuration these options describe: tokens kept per server (and profile) under
    /// `~/.config/parlor/`, and — after `parlor login`, or with `$PARLOR_JWT` — the account to sign in with.
    public func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws(ParlorClientError) -> ParlorClientConfiguration {
        var configuration = ParlorClientConfiguration(server: try ServerAddress(server(environment: environment)))
        configuration.tokenStore = FileTokenStore(environment: environment)
        configuration.profile = profile
        configuration.requestTimeout = .milliseconds(Int64((timeout * 1000).rounded()))
        // A server that is not there is said at once, not after --timeout.
        configuration.failsFastUntilConnected = true
        if let caFile { try configuration.trustCertificateAuthorities(inFile: caFile) }
        configuration.tokenProvider = AccountLogin.tokenProvider(key: configuration.tokenKey, environment: environment)
        configuration.gameAccess = gameAccess
        return configuration
    }
}
