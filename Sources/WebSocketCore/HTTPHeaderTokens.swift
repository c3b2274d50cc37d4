/// Parsing of the comma/semicolon header grammars RFC 6455 and RFC 7692 use (RFC 7230 §3.2.6, §7).
enum HTTPHeaderTokens {
    /// Splits a `1#token` list (e.g. `Connection: keep-alive, Upgrade`) into trimmed, non-empty items.
    static func commaList(_ value: Substring) -> [Substring] {
        value.split(separator: ",").map { trim($0) }.filter { !$0.isEmpty }
    }

    /// Whether a comma-separated header value contains `token`, compared case-insensitively.
    static func listContains(_ values: [String], token: String) -> Bool {
        values.contains { value in
            commaList(Substring(value)).contains { $0.lowercased() == token }
        }
    }

    static func trim(_ s: Substring) -> Substring {
        var s = s
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }

    /// RFC 7230 `token` characters.
    static func isToken(_ s: Substring) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { c in
            switch c {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(c)
            }
        }
    }

    /// One extension from a `Sec-WebSocket-Extensions` header: a name and its parameters in order.
    struct Extension: Equatable {
        var name: String
        var parameters: [(name: String, value: String?)]

        static func == (a: Extension, b: Extension) -> Bool {
            a.name == b.name && a.parameters.elementsEqual(b.parameters) { $0.name == $1.name && $0.value == $1.value }
        }
    }

    /// Parses `ext; a; b=1; c="2", ext2` (across any number of header lines). Returns nil when malformed.
    static func extensions(_ values: [String]) -> [Extension]? {
        var result: [Extension] = []
        for value in values {
            for item in splitOutsideQuotes(Substring(value), separator: ",") {
                let trimmedItem = trim(item)
                if trimmedItem.isEmpty { continue }
                let parts = splitOutsideQuotes(trimmedItem, separator: ";").map { trim($0) }
                guard let name = parts.first, isToken(name) else { return nil }
                var parameters: [(name: String, value: String?)] = []
                for part in parts.dropFirst() {
                    if let eq = part.firstIndex(of: "=") {
                        let key = trim(part[..<eq])
                        var raw = trim(part[part.index(after: eq)...])
                        guard isToken(key) else { return nil }
                        if raw.first == "\"" {
                            guard raw.count >= 2, raw.last == "\"" else { return nil }
                            raw = raw.dropFirst().dropLast()
                            // Quoted values here never need escapes; a backslash means something we don't accept.
                            guard !raw.contains("\\") else { return nil }
                        }
                        guard isToken(raw) else { return nil }
                        parameters.append((String(key).lowercased(), String(raw)))
                    } else {
                        guard isToken(part) else { return nil }
                        parameters.append((String(part).lowercased(), nil))
                    }
                }
                result.append(Extension(name: String(name).lowercased(), parameters: parameters))
            }
        }
        return result
    }

    private static func splitOutsideQuotes(_ s: Substring, separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var inQuotes = false
        var start = s.startIndex
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c == "\"" { inQuotes.toggle() }
            if c == separator && !inQuotes {
                parts.append(s[start..<i])
                start = s.index(after: i)
            }
            i = s.index(after: i)
        }
        parts.append(s[start...])
        return parts
    }
}
