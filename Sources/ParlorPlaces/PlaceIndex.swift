import Foundation
import ParlorRules

/// The nearest place to a position, by great-circle distance, without scanning every place.
///
/// Each place is a point on the unit sphere (x, y, z), and the index is a k-d tree over those points,
/// built once. On the sphere the nearest point by straight-line (chord) distance is the nearest by
/// great-circle distance, since the one grows with the other; and three-dimensional points have no
/// seam — a position just east of the antimeridian finds the town just west of it, and the poles are
/// points like any other.
public struct PlaceIndex: Sendable {
    public let places: [Place]
    /// The tree, implicitly: node `i` covers `lower..<upper` of these arrays and sits at their middle,
    /// its left subtree before it and its right after, split on `axis[middle]`.
    private let points: [SIMDPoint]
    private let placeOf: [Int32]
    private let axis: [UInt8]

    struct SIMDPoint: Sendable {
        var x: Double
        var y: Double
        var z: Double

        init(latitude: Double, longitude: Double) {
            let phi = latitude * .pi / 180
            let lambda = longitude * .pi / 180
            let cosPhi = cos(phi)
            x = cosPhi * cos(lambda)
            y = cosPhi * sin(lambda)
            z = sin(phi)
        }

        subscript(axis: UInt8) -> Double {
            switch axis {
            case 0: x
            case 1: y
            default: z
            }
        }

        func squaredDistance(to other: SIMDPoint) -> Double {
            let dx = x - other.x
            let dy = y - other.y
            let dz = z - other.z
            return dx * dx + dy * dy + dz * dz
        }
    }

    public init(_ places: [Place]) {
        self.places = places
        let all = places.map { SIMDPoint(latitude: $0.latitude, longitude: $0.longitude) }
        var order = Array(0..<places.count)
        var axis = [UInt8](repeating: 0, count: places.count)
        order.withUnsafeMutableBufferPointer { order in
            axis.withUnsafeMutableBufferPointer { axis in
                Self.build(order, all: all, axis: axis, lower: 0, upper: order.count)
            }
        }
        points = order.map { all[$0] }
        placeOf = order.map { Int32($0) }
        self.axis = axis
    }

    /// The place nearest to the position and how far it is, in kilometres on the sphere scoring uses;
    /// nil only for an empty index.
    public func nearest(latitude: Double, longitude: Double) -> (place: Place, distanceKm: Double)? {
        guard !points.isEmpty else { return nil }
        let target = SIMDPoint(latitude: latitude, longitude: longitude)
        var best = (index: -1, squared: Double.infinity)
        points.withUnsafeBufferPointer { points in
            axis.withUnsafeBufferPointer { axis in
                Self.search(points, axis: axis, target: target, lower: 0, upper: points.count, best: &best)
            }
        }
        let chord = best.squared.squareRoot()
        let angle = 2 * asin(min(1, chord / 2))
        return (places[Int(placeOf[best.index])], angle * GeoCoordinate.earthRadiusKm)
    }

    // MARK: Building

    /// Splits `lower..<upper` on its widest axis at the median, then each half.
    private static func build(
        _ order: UnsafeMutableBufferPointer<Int>, all: [SIMDPoint], axis: UnsafeMutableBufferPointer<UInt8>, lower: Int, upper: Int
    ) {
        guard upper - lower > 1 else { return }
        var minimum = SIMDPoint(latitude: 0, longitude: 0)
        var maximum = minimum
        minimum.x = .infinity; minimum.y = .infinity; minimum.z = .infinity
        maximum.x = -.infinity; maximum.y = -.infinity; maximum.z = -.infinity
        for index in lower..<upper {
            let point = all[order[index]]
            minimum.x = min(minimum.x, point.x); maximum.x = max(maximum.x, point.x)
            minimum.y = min(minimum.y, point.y); maximum.y = max(maximum.y, point.y)
            minimum.z = min(minimum.z, point.z); maximum.z = max(maximum.z, point.z)
        }
        let spread = (maximum.x - minimum.x, maximum.y - minimum.y, maximum.z - minimum.z)
        let split: UInt8 = spread.0 >= spread.1 && spread.0 >= spread.2 ? 0 : spread.1 >= spread.2 ? 1 : 2
        let middle = (lower + upper) / 2
        select(order, all: all, axis: split, lower: lower, upper: upper, nth: middle)
        axis[middle] = split
        build(order, all: all, axis: axis, lower: lower, upper: middle)
        build(order, all: all, axis: axis, lower: middle + 1, upper: upper)
    }

    /// Quickselect: puts the `nth` smallest of `lower..<upper` on `split` at `nth`, smaller or equal ones
    /// before it and greater or equal ones after.
    private static func select(
        _ order: UnsafeMutableBufferPointer<Int>, all: [SIMDPoint], axis split: UInt8, lower: Int, upper: Int, nth: Int
    ) {
        var low = lower
        var high = upper - 1
        while low < high {
            // Median of three as the pivot keeps sorted input (GeoNames is sorted by country) linear.
            let mid = (low + high) / 2
            if all[order[mid]][split] < all[order[low]][split] { order.swapAt(mid, low) }
            if all[order[high]][split] < all[order[low]][split] { order.swapAt(high, low) }
            if all[order[high]][split] < all[order[mid]][split] { order.swapAt(high, mid) }
            let pivot = all[order[mid]][split]
            var i = low
            var j = high
            while i <= j {
                while all[order[i]][split] < pivot { i += 1 }
                while all[order[j]][split] > pivot { j -= 1 }
                if i <= j {
                    order.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if nth <= j {
                high = j
            } else if nth >= i {
                low = i
            } else {
                return
            }
        }
    }

    // MARK: Searching

    private static func search(
        _ points: UnsafeBufferPointer<SIMDPoint>, axis: UnsafeBufferPointer<UInt8>, target: SIMDPoint, lower: Int, upper: Int,
        best: inout (index: Int, squared: Double)
    ) {
        guard lower < upper else { return }
        let middle = (lower + upper) / 2
        let point = points[middle]
        let squared = point.squaredDistance(to: target)
        if squared < best.squared { best = (middle, squared) }
        guard upper - lower > 1 else { return }
        let split = axis[middle]
        let offset = target[split] - point[split]
        let (near, far) = offset < 0 ? ((lower, middle), (middle + 1, upper)) : ((middle + 1, upper), (lower, middle))
        search(points, axis: axis, target: target, lower: near.0, upper: near.1, best: &best)
        // The other side can hold something nearer only if the splitting plane is nearer than the best.
        if offset * offset < best.squared {
            search(points, axis: axis, target: target, lower: far.0, upper: far.1, best: &best)
        }
    }
}
