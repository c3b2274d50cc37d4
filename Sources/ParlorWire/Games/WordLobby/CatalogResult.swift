import ParlorRules

/// The reply to `getCatalog` and the `catalog` event: the whole catalog
/// (`{"version", "updatedAt", "gameModes"}`), or `{"unchanged": true, "version": N}` when the client's
/// `since` is already the current version.
public enum CatalogResult: Sendable, Equatable, Codable {
    case catalog(Catalog)
    case unchanged(version: Int)

    /// What to answer a client that has version `since` (nil: it has none).
    public init(_ catalog: Catalog, since: Int?) {
        self = since == catalog.version ? .unchanged(version: catalog.version) : .catalog(catalog)
    }

    private enum CodingKeys: String, CodingKey { case unchanged, version }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decodeIfPresent(Bool.self, forKey: .unchanged) == true {
            self = .unchanged(version: try container.decode(Int.self, forKey: .version))
        } else {
            self = .catalog(try Catalog(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .catalog(let catalog):
            try catalog.encode(to: encoder)
        case .unchanged(let version):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(true, forKey: .unchanged)
            try container.encode(version, forKey: .version)
        }
    }
}
