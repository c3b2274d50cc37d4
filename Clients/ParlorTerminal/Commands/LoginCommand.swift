import ArgumentParser
import Foundation
import ParlorClient
import ParlorWire

/// Where the terminal finds the account's JWT it signs in with: `$PARLOR_JWT` (the token itself), else
/// the file `parlor login --jwt-file` remembered for this server and profile (in `logins.json`, beside
/// `tokens.json`), read again at every sign-in and whenever the server says the token expired — so
/// whatever keeps that file fresh (the app's own CLI, a cron job) keeps a long session going.
public enum AccountLogin {
    /// The environment variable holding a JWT to sign in with, ahead of any remembered file.
    public static let jwtVariable = "PARLOR_JWT"

    /// The remembered files, by token key: `$XDG_CONFIG_HOME/parlor/logins.json` or `~/.config/parlor/logins.json`.
    static func store(environment: [String: String]) -> FileTokenStore {
        let tokens = FileTokenStore.defaultPath(environment: environment)
        return FileTokenStore(path: (tokens as NSString).deletingLastPathComponent + "/logins.json")
    }

    /// The provider a client of `key` signs in with; nil to sign in as the stored (anonymous) identity.
    static func tokenProvider(key: String, environment: [String: String]) -> (@Sendable () async throws -> String)? {
        if let jwt = environment[jwtVariable]?.trimmingCharacters(in: .whitespacesAndNewlines), !jwt.isEmpty {
            return { jwt }
        }
        guard let path = store(environment: environment).token(for: key) else { return nil }
        return { try read(path) }
    }

    /// The JWT in the file at `path` (surrounding whitespace dropped).
    static func read(_ path: String) throws(LoginError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw LoginError("Cannot read the JWT file \(path).") }
        let jwt = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !jwt.isEmpty else { throw LoginError("The JWT file \(path) is empty.") }
        return jwt
    }

    struct LoginError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// `parlor login --jwt-file F`: sign in with an account from now on.
public struct Login: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Sign in with your account (a JWT from the app's sign-in) on every command from now on.",
        discussion: """
            Checks that the server accepts the token in the file, then remembers the file for this server \\
            (and --profile): every parlor command signs in with it, reading it again at each sign-in and \\
            when the server says the token expired. $\(AccountLogin.jwtVariable), when set, is used instead. \\
            With --link, the identity you played as so far (its profile, history and friends) becomes the \\
            account's first — once, and only while the account has no Parlor identity of its own. \\
            parlor logout forgets the file.
            """)

    @Option(name: .customLong("jwt-file"), help: ArgumentHelp("A file holding the account's JWT.", valueName: "path"))
    public var jwtFile: String

    @Flag(help: "Link the identity you played as so far to the account first.")
    public var link = false

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func validate() throws {
        do throws(AccountLogin.LoginError) {
            _ = try AccountLogin.read(jwtFile)
        } catch {
            throw ValidationError(error.description)
        }
    }

    public func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let path = URL(fileURLWithPath: jwtFile).standardizedFileURL.path
        var configuration: ParlorClientConfiguration
        do throws(ParlorClientError) {
            configuration = try options.configuration(environment: environment.filter { $0.key != AccountLogin.jwtVariable })
        } catch {
            StandardStreams.printError(error.description)
            throw ExitCode.failure
        }
        if link {
            let jwt = try AccountLogin.read(path)
            configuration.tokenProvider = nil
            let anonymous = ParlorClient(configuration: configuration)
            let linked = await anonymous.whileConnected { _ -> Result<LinkAccountResult, ParlorClientError> in
                do throws(ParlorClientError) {
                    return .success(try await anonymous.linkAccount(jwt: jwt))
                } catch {
                    return .failure(error)
                }
            }
            guard case .success = linked else {
                if case .failure(let error) = linked { StandardStreams.printError(error.description) }
                throw ExitCode.failure
            }
        }
        configuration.tokenProvider = { try AccountLogin.read(path) }
        let client = ParlorClient(configuration: configuration)
        let signedIn = await client.whileConnected { _ -> Result<ListHistoryResult, ParlorClientError> in
            do throws(ParlorClientError) {
                return .success(try await client.listHistory(limit: 1))
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = signedIn {
            StandardStreams.printError(error.description)
            throw ExitCode.failure
        }
        do throws(TokenStoreError) {
            try AccountLogin.store(environment: environment).setToken(path, for: configuration.tokenKey)
        } catch {
            StandardStreams.printError(error.description)
            throw ExitCode.failure
        }
        let user = client.userId?.rawValue ?? "?"
        if options.printsText {
            StandardStreams.printLine("Signed in as \(user)\(link ? " (your identity is now the account's)" : ""); parlor signs in with \(path) on \(configuration.server.url) from now on.")
        } else {
            let line = (try? JSONSerialization.data(withJSONObject: ["userId": user, "jwtFile": path, "linked": link], options: [.sortedKeys]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            StandardStreams.printLine(line)
        }
    }
}

/// `parlor logout`: forget the account's JWT file; commands sign in as the stored identity again.
public struct Logout: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(abstract: "Stop signing in with your account on this server (and --profile).")

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        do {
            let key = try options.configuration(environment: environment).tokenKey
            try AccountLogin.store(environment: environment).setToken(nil, for: key)
        } catch {
            StandardStreams.printError("\(error)")
            throw ExitCode.failure
        }
        if options.printsText { StandardStreams.printLine("Signed out of your account on \(options.server).") }
    }
}
