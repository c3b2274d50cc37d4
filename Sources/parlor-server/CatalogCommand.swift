import ArgumentParser
import Foundation
import Logging
import ParlorRules
import ParlorServer

/// `parlor-server catalog …`: manage the game catalog in the store.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Manage the word game catalog.",
        subcommands: [Import.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Validate a catalog file and store it as the catalog's next version.",
            discussion: """
                FILE is a catalog in the seed's shape ({"version", "updatedAt", "gameModes": [...]}); its version \
                and updatedAt are replaced by the next version number and now. Every problem is printed with its \
                path in the file, and nothing is stored unless there are none. Servers running on the same data \
                directory (or, with --postgres, every node on the same database) publish the new version to their \
                observeCatalog subscribers within their --catalog-poll-interval.
                """)

        @Argument(help: "The catalog file (JSON).")
        var file: String

        @OptionGroup var storage: DataDirectoryOption

        @OptionGroup var database: PostgresOption

        func run() async throws {
            var logger = Logger(label: "parlor.catalog")
            logger.logLevel = .warning
            do {
                let catalog: Catalog
                let place: String
                if let address = database.address {
                    #if PostgreSQL
                    let location: PostgresLocation
                    do {
                        location = try PostgresLocation(parsing: address)
                    } catch {
                        throw ValidationError("--postgres: \(error)")
                    }
                    catalog = try await CatalogImport.run(file: file, postgres: location, logger: logger)
                    place = "in \(location)"
                    #else
                    // PostgresOption.validate() refused it already.
                    throw ValidationError("--postgres \(address): \(PostgresSupport.notBuilt).")
                    #endif
                } else {
                    catalog = try await CatalogImport.run(file: file, dataDirectory: storage.dataDir, logger: logger)
                    place = "in \(storage.dataDir)"
                }
                let levels = catalog.gameModes.reduce(0) { $0 + $1.levels.count }
                print("Stored catalog version \(catalog.version): \(catalog.gameModes.count) game modes, \(levels) levels, "
                    + "\(catalog.playOrder.count) games, \(place).")
            } catch let error as ValidationError {
                throw error
            } catch let error as CatalogFileError {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                throw ExitCode(1)
            } catch {
                FileHandle.standardError.write(Data("parlor-server catalog import: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}

/// `--data-dir`, shared by the server and `catalog import`.
struct DataDirectoryOption: ParsableArguments {
    @Option(help: "Directory for the database (rooms, lobbies, history, the catalog, the token secret). Created if missing.")
    var dataDir: String = "./parlor-data"
}

/// `--postgres`, shared by the server and `catalog import`.
struct PostgresOption: ParsableArguments {
    @Option(
        help: "Keep everything in this PostgreSQL database, which several nodes may share: postgres://user[:password]@host[:port]/database. Also read from PARLOR_POSTGRES. Default: SQLite in --data-dir.")
    var postgres: String?

    /// --postgres, else PARLOR_POSTGRES (an empty value counts as unset).
    var address: String? {
        postgres ?? ProcessInfo.processInfo.environment["PARLOR_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A build without the PostgreSQL trait refuses an address at once, naming the command that builds
    /// one with it, rather than falling back to SQLite.
    func validate() throws {
        if address != nil, !PostgresSupport.isBuilt {
            throw ValidationError("--postgres (or PARLOR_POSTGRES): \(PostgresSupport.notBuilt).")
        }
    }
}
