import Foundation
import ParlorRules

/// The catalog shipped with the server (`starter-catalog.json`, beside this file): 42 word and category games.
/// Served until an operator imports another.
public enum StarterCatalog {
    public static func load() throws -> Catalog {
        guard let url = Bundle.module.url(forResource: "starter-catalog", withExtension: "json") else {
            throw CatalogFileError(file: "starter-catalog.json", problems: [
                CatalogProblem(path: "(file)", message: "is missing from the server's resources; reinstall parlor-server"),
            ])
        }
        return try CatalogFile.read(path: url.path)
    }
}
