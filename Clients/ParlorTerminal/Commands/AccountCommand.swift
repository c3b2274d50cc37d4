import ArgumentParser
import Foundation
import ParlorClient
import ParlorWire

/// `parlor account export|delete`: your data on the server, to take away or to delete.
public struct Account: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Your data on the server: download it (export) or delete your account (delete).",
        subcommands: [ExportAccount.self, DeleteAccount.self])

    public init() {}
}

/// `parlor account export [--to FILE]`: everything the server holds about you, as one JSON document.
public struct ExportAccount: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Download everything the server holds about you as one JSON document.",
        discussion: """
            Your profile, friends and friend requests, finished games with your tallies, uploaded \\
            matches, the game records you appear in, your settings, the accounts you sign in with and \\
            your avatar (in base64). Written to --to FILE, or to standard output.
            """)

    @Option(help: ArgumentHelp("Write the export to this file instead of standard output.", valueName: "path"))
    public var to: String?

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        let client = try options.makeClient()
        let result = await client.whileConnected { _ -> Result<[UInt8], ParlorClientError> in
            do throws(ParlorClientError) {
                return .success(try await client.exportAccount())
            } catch {
                return .failure(error)
            }
        }
        let bytes: [UInt8]
        switch result {
        case .success(let exported): bytes = exported
        case .failure(let error):
            StandardStreams.printError(error.description)
            throw ExitCode.failure
        }
        guard let to else {
            StandardStreams.write(String(decoding: bytes, as: UTF8.self) + "\n")
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: to), options: .atomic)
        } catch {
            StandardStreams.printError("Cannot write \(to): \(error.localizedDescription)")
            throw ExitCode.failure
        }
        StandardStreams.printLine("Wrote your data (\(bytes.count) bytes) to \(to).")
    }
}

/// `parlor account delete [--yes]`: deletes your account, after you type "delete".
public struct DeleteAccount: AsyncParsableCommand {
    /// What to type to confirm.
    static let confirmation = "delete"

    public static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete your account on the server, for good.",
        discussion: """
            Deletes your profile, friends and friend requests, avatar, uploaded matches, settings and \\
            the identity this terminal plays as (its token stops working). Games you played with others \\
            stay in their history, with you shown as "deleted player". Refused while you have a seat in \\
            a game still being played. Asks you to type "\(confirmation)" unless --yes is given; take \\
            parlor account export first if you want a copy.
            """)

    @Flag(help: "Do not ask: delete at once (for scripts).")
    public var yes = false

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        if !yes {
            // On standard error, so that standard output carries only the answer (--json, or a pipe).
            StandardStreams.printError(
                "This deletes your account on \(options.server) for good: profile, friends, avatar, uploads and settings.\n"
                    + "Type \(Self.confirmation) to confirm:")
            guard readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == Self.confirmation else {
                StandardStreams.printError("Not deleted: you did not type \(Self.confirmation).")
                throw ExitCode.failure
            }
        }
        let client = try options.makeClient()
        let result = await client.whileConnected { _ -> Result<DeleteAccountResult, ParlorClientError> in
            do throws(ParlorClientError) {
                return .success(try await client.deleteAccount())
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let deleted):
            // A reconnect in the moment the server closed the deleted identity's connection may have
            // stored a new identity's token: this terminal starts afresh next time.
            if let configuration = try? options.configuration() {
                try? configuration.tokenStore.setToken(nil, for: configuration.tokenKey)
            }
            if options.printsText {
                StandardStreams.printLine(
                    "Deleted your account (\(deleted.userId)): \(deleted.friendships) friendships and requests, \(deleted.uploads) uploaded matches, \(deleted.files) files, \(deleted.settings) settings. \(deleted.history) finished games stay in the others' history, as \"deleted player\".")
            } else {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                StandardStreams.printLine(String(decoding: (try? encoder.encode(deleted)) ?? Data(), as: UTF8.self))
            }
        case .failure(let error):
            StandardStreams.printError(error.description)
            throw ExitCode.failure
        }
    }
}
