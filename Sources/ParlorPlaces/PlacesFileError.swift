/// Why a places file could not be read: a sentence for the operator, naming the file.
public struct PlacesFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
