import Foundation

/// Converts a number of a `JSONDocument` to the type a `Decodable` asks for, with Foundation's rules,
/// so that a value decodes to the same thing through either decoder:
/// - an integer type takes a number whose value is a whole number in its range, however it is written
///   (`100`, `1e2`, `100.0`), exactly over the whole of `Int64` and `UInt64`;
/// - `Double` and `Float` take the nearest value, refusing one that overflows to infinity or a non-zero
///   one that underflows to zero.
enum JSONNumber {
    /// Below this magnitude a `Double` holds every integer exactly.
    private static let exactDoubles = Double(sign: .plus, exponent: Double.significandBitCount + 1, significand: 1)

    static func integer<T: FixedWidthInteger>(_ node: JSONNode, in document: JSONDocument, as type: T.Type) -> T? {
        if node.kind == .integer { return T(exactly: node.payload) }
        let text = document.strings[Int(node.payload)]
        if let value: T = parseDigits(text) { return value }
        // A fraction or an exponent: through `Double`, and where a `Double` cannot tell two integers apart,
        // through `Decimal` (as Foundation does).
        guard let double = Double(text), let value = T(exactly: double) else { return nil }
        if double.magnitude < exactDoubles { return value }
        guard let decimal = Decimal(string: text) else { return nil }
        return integer(decimal, as: T.self)
    }

    static func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ node: JSONNode, in document: JSONDocument, as type: T.Type
    ) -> T? {
        // An `Int64` converts to the nearest `T`, the value the digits of its text parse to.
        if node.kind == .integer { return T(node.payload) }
        let text = document.strings[Int(node.payload)]
        guard let value = T(text), value.isFinite else { return nil }
        guard value != 0 || isTrueZero(text) else { return nil }
        return value
    }

    /// An integer written with digits only (and a sign), or nil (other characters, or out of range).
    private static func parseDigits<T: FixedWidthInteger>(_ text: String) -> T? {
        var utf8 = text.utf8[...]
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8 = utf8.dropFirst() }
        guard !utf8.isEmpty else { return nil }
        var result: T = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = T(truncatingIfNeeded: byte - UInt8(ascii: "0"))
            let (product, overflow) = result.multipliedReportingOverflow(by: 10)
            let (next, carry) = negative ? product.subtractingReportingOverflow(digit) : product.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            result = next
        }
        return result
    }

    /// Foundation's conversion of a `Decimal` to an integer type: its significand must fit `UInt64`, and
    /// the fraction is dropped.
    private static func integer<T: FixedWidthInteger>(_ decimal: Decimal, as type: T.Type) -> T? {
        guard !decimal.isNaN else { return nil }
        let negative = decimal.sign == .minus
        if negative && !T.isSigned { return nil }
        guard var magnitude = UInt64(decimal.significand.description) else { return nil }
        if decimal.exponent < 0 {
            for _ in 0 ..< -decimal.exponent { magnitude /= 10 }
        } else {
            for _ in 0..<decimal.exponent {
                let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                magnitude = product
            }
        }
        guard let value = T(exactly: magnitude) else { return nil }
        return negative ? 0 - value : value
    }

    /// Whether a number that parsed to zero is written as zero (`0.000`, `0e0`), not as a tiny value
    /// that underflowed. Foundation's check, byte for byte: it reads four bytes at a time from the front,
    /// then the last one to three from the back, so a zero whose text ends in a non-zero exponent digit
    /// there (`0e5`, `0.000e5`) reads as not zero and is refused, and so it is here.
    private static func isTrueZero(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func verdict(_ byte: UInt8) -> Bool? {
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): true
            default: nil
            }
        }
        var start = 0
        while bytes.count - start >= 4 {
            for index in start..<start + 4 {
                if let verdict = verdict(bytes[index]) { return verdict }
            }
            start += 4
        }
        for index in stride(from: bytes.count - 1, through: start, by: -1) {
            if let verdict = verdict(bytes[index]) { return verdict }
        }
        return true
    }
}
