/// A world map made of the places themselves: the globe cut into cells of `cellDegrees` (an
/// equirectangular grid, rows from the north pole down, columns from the antimeridian east), each cell
/// set when a place lies in it. Drawn as dots it shows the continents, with no map tiles and no network.
public struct PlaceMap: Sendable, Equatable {
    /// How many degrees of latitude and longitude a cell spans.
    public let cellDegrees: Int
    public let columns: Int
    public let rows: Int
    /// One bit per cell, row by row, the first cell in the highest bit of the first byte.
    public let cells: [UInt8]

    /// The default cell: a few kilobytes for the whole world, fine enough that coasts are recognisable.
    public static let defaultCellDegrees = 2

    /// `cellDegrees` must divide 180 (a programmer's choice, not a client's).
    public init(_ places: [Place], cellDegrees: Int = defaultCellDegrees) {
        precondition(cellDegrees > 0 && 180 % cellDegrees == 0, "cellDegrees must divide 180")
        self.cellDegrees = cellDegrees
        columns = 360 / cellDegrees
        rows = 180 / cellDegrees
        var cells = [UInt8](repeating: 0, count: (columns * rows + 7) / 8)
        for place in places {
            guard let cell = Self.cell(latitude: place.latitude, longitude: place.longitude, cellDegrees: cellDegrees) else { continue }
            let index = cell.row * (360 / cellDegrees) + cell.column
            cells[index / 8] |= 0x80 >> UInt8(index % 8)
        }
        self.cells = cells
    }

    /// Whether a place lies in the cell.
    public func isSet(row: Int, column: Int) -> Bool {
        guard (0..<rows).contains(row), (0..<columns).contains(column) else { return false }
        let index = row * columns + column
        return cells[index / 8] & (0x80 >> UInt8(index % 8)) != 0
    }

    /// The cell a position falls in; nil for one off the globe. The south pole and the antimeridian's
    /// east side belong to the last row and the first column.
    static func cell(latitude: Double, longitude: Double, cellDegrees: Int) -> (row: Int, column: Int)? {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        let size = Double(cellDegrees)
        let row = min(Int((90 - latitude) / size), 180 / cellDegrees - 1)
        let column = Int((longitude + 180) / size) % (360 / cellDegrees)
        return (row, column)
    }
}
