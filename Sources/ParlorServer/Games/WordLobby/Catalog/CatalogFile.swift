import Foundation
import ParlorRules

/// Reads a catalog file in the seed's shape and reports everything wrong with it, each problem at its
/// JSON path (`gameModes[1].levels[0].games[3].targetLetter: must be a single letter A-Z (got "xy")`).
public enum CatalogFile {
    /// Files bigger than this are refused before they are parsed.
    public static let maxBytes = 16 << 20

    /// Decodes and validates the catalog at `path`.
    public static func read(path: String, limits: CatalogLimits = .default) throws(CatalogFileError) -> Catalog {
        let catalog = try decode(path: path)
        try check(catalog, file: path, limits: limits)
        return catalog
    }

    /// Decodes the catalog at `path` without validating it. A JSON or shape error names its path.
    public static func decode(path: String) throws(CatalogFileError) -> Catalog {
        let fail = { (where: String, message: String) in
            CatalogFileError(file: path, problems: [CatalogProblem(path: `where`, message: message)])
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maxBytes else { throw fail("(file)", "is \(size) bytes; a catalog may be at most \(maxBytes)") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw fail("(file)", reason)
        }
        do {
            return try JSONDecoder().decode(Catalog.self, from: data)
        } catch let error as DecodingError {
            let (where_, message) = describe(error)
            throw fail(where_, message)
        } catch {
            throw fail("(file)", "is not a catalog (\(error))")
        }
    }

    /// Every validation problem of `catalog` (read from `file`), or nothing when it is sound.
    public static func check(_ catalog: Catalog, file: String, limits: CatalogLimits = .default) throws(CatalogFileError) {
        let problems = catalog.validate(limits: limits)
        if !problems.isEmpty { throw CatalogFileError(file: file, problems: problems) }
    }

    private static func describe(_ error: DecodingError) -> (String, String) {
        switch error {
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), "is missing")
        case .valueNotFound(_, let context):
            return (path(context.codingPath), "must not be null")
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "must be \(describe(type))")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return ("(file)", "is not valid JSON")
        case .dataCorrupted(let context):
            return (path(context.codingPath), context.debugDescription)
        @unknown default:
            return ("(file)", "could not be read")
        }
    }

    /// `gameModes[1].levels[0].games[3].timeLimit`.
    static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out.isEmpty ? "(top level)" : out
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "an integer"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [String].Type: "an array of strings"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// A catalog file that cannot be used, with every problem found.
public struct CatalogFileError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let problems: [CatalogProblem]

    public init(file: String, problems: [CatalogProblem]) {
        self.file = file
        self.problems = problems
    }

    /// `FILE: N problems`, then one `  path: message` line per problem.
    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return (["\(file): \(count)"] + problems.map { "  \($0)" }).joined(separator: "\n")
    }
}
