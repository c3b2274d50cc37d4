/// Finds the first key that appears twice in one JSON object, anywhere in a document.
///
/// Foundation's decoder keeps one of two equal keys and drops the other silently; another parser in
/// front of or behind Parlor may keep the other one. Two readers that disagree about what a request
/// says are how a request gets smuggled past a check, so a request with a repeated key is refused.
///
/// The check is part of parsing (`JSONParser`), which builds each object once: keys are compared as
/// the decoder compares them — as Swift strings, after escapes (`"\u0061"` is `"a"`; `"é"` and
/// `"e\u0301"` are one key) — one by one in small objects, through a key index in large ones, so a
/// frame of thousands of keys costs linear time. This is the check on its own, for callers that only
/// want to know.
public enum DuplicateKeyScan {
    /// A key found twice, with the path of the object that holds it (`["args", "user"]`, `[]` for the
    /// top level; array elements appear as `[2]`).
    public struct Duplicate: Sendable, Equatable {
        public let path: [String]
        public let key: String

        public init(path: [String], key: String) {
            self.path = path
            self.key = key
        }

        /// `args.user.colorNumber`; `[2]` elements join without a dot. The empty key is written `""`, so
        /// that a message about it still names something.
        public func fieldPath(root: String? = nil) -> String {
            var out = root ?? ""
            for component in (path + [key]).map({ $0.isEmpty ? #""""# : $0 }) {
                if component.hasPrefix("[") || out.isEmpty {
                    out += component
                } else {
                    out += "." + component
                }
            }
            return out
        }
    }

    /// The first repeated key in `bytes`, reading up to the end of the document or to where it stops
    /// being JSON; nil when there is none.
    public static func firstDuplicate(in bytes: some Sequence<UInt8>) -> Duplicate? {
        guard case .failure(.repeatedKey(let duplicate, _)) = JSONDocument.parse(bytes) else { return nil }
        return duplicate
    }
}
