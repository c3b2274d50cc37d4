/// Whether this build has the PostgreSQL store and the clustered mode (`--postgres`), which the
/// package builds only with its `PostgreSQL` trait (Package.swift; docs/ARCHITECTURE.md, "Clustered
/// mode"), and what a server built without it says when asked for them.
public enum PostgresSupport {
    #if PostgreSQL
    public static let isBuilt = true
    #else
    public static let isBuilt = false
    #endif

    /// The sentence for an operator who asked a build without the trait for PostgreSQL: the commands
    /// that build a server with it.
    public static let notBuilt = """
        this parlor-server was built without PostgreSQL support (the clustered mode). Build it with \
        `swift build -c release --traits PostgreSQL` (or run `swift run -c release --traits PostgreSQL parlor-server …`)
        """

    /// `notBuilt` as an error, for `ParlorServerRunner.run` given a PostgreSQL address by a caller that
    /// did not check.
    public struct NotBuiltError: Error, CustomStringConvertible {
        public var description: String { "--postgres: " + PostgresSupport.notBuilt }
    }
}
