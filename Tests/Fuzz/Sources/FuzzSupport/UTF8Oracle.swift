/// Judges UTF-8 with the standard library's decoder, independently of WebSocketCore's `UTF8Validator`,
/// so that the targets check the validator rather than repeat it.
public enum UTF8Oracle {
    public enum Verdict: Equatable {
        /// Valid UTF-8 ending on a character boundary.
        case complete
        /// Not yet valid, but some continuation makes it valid: a message may go on.
        case prefix
        /// No continuation can make it valid.
        case invalid
    }

    public static func verdict(_ bytes: some Collection<UInt8>) -> Verdict {
        if String(validating: bytes, as: UTF8.self) != nil { return .complete }
        // A sequence cut short needs 1 to 3 more bytes; its first missing byte lies in 80–8F, 90–9F or
        // A0–BF depending on the lead byte (E0, ED, F0 and F4 narrow it), the others in 80–BF.
        var extended = Array(bytes)
        let count = extended.count
        for missing in 1...3 {
            for first: UInt8 in [0x80, 0x90, 0xA0] {
                extended.removeSubrange(count...)
                extended.append(first)
                extended.append(contentsOf: repeatElement(0x80, count: missing - 1))
                if String(validating: extended, as: UTF8.self) != nil { return .prefix }
            }
        }
        return .invalid
    }
}
