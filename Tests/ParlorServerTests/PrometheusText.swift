import Foundation

/// The Prometheus text exposition format (0.0.4), read strictly enough to catch what a scraper would
/// refuse: every sample belongs to a family announced by `# HELP` and `# TYPE` before it, names and
/// labels are well formed, values are numbers, and a histogram's buckets are cumulative and end at
/// `+Inf` with its `_count`.
struct PrometheusText {
    struct Sample {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    struct Family {
        var help: String?
        var type: String?
        var samples: [Sample] = []
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var families: [String: Family] = [:]

    init(_ text: String) throws {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2, Self.isName(parts[0]) else { throw Malformed(description: "bad comment line: \(line)") }
                if line.hasPrefix("# HELP ") {
                    guard families[parts[0]]?.help == nil else { throw Malformed(description: "second HELP for \(parts[0])") }
                    families[parts[0], default: Family()].help = parts[1]
                } else {
                    guard ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[1]) else {
                        throw Malformed(description: "unknown TYPE in \(line)")
                    }
                    guard families[parts[0]]?.samples.isEmpty ?? true else { throw Malformed(description: "TYPE after samples: \(line)") }
                    families[parts[0], default: Family()].type = parts[1]
                }
                continue
            }
            guard !line.hasPrefix("#") else { continue }
            let sample = try Self.sample(String(line))
            let family = Self.family(of: sample.name, among: families)
            guard families[family]?.type != nil else { throw Malformed(description: "sample before its TYPE: \(line)") }
            families[family, default: Family()].samples.append(sample)
        }
        for (name, family) in families where family.type == "histogram" {
            try Self.checkHistogram(name, family.samples)
        }
    }

    /// The value of the sample `name` whose labels include `labels`.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let family = families[Self.family(of: name, among: families)]
        return family?.samples.first { sample in
            sample.name == name && labels.allSatisfy { key, value in sample.labels[key] == value }
        }?.value
    }

    private static func family(of sample: String, among families: [String: Family]) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where sample.hasSuffix(suffix) {
            let base = String(sample.dropLast(suffix.count))
            if families[base]?.type == "histogram" { return base }
        }
        return sample
    }

    private static func isName(_ name: some StringProtocol) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" || first == ":" else { return false }
        return name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" || $0 == ":" }
    }

    private static func sample(_ line: String) throws -> Sample {
        var rest = Substring(line)
        let nameEnd = rest.firstIndex { $0 == "{" || $0 == " " } ?? rest.endIndex
        let name = String(rest[..<nameEnd])
        guard isName(name) else { throw Malformed(description: "bad metric name in \(line)") }
        rest = rest[nameEnd...]
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                guard let equals = rest.firstIndex(of: "=") else { throw Malformed(description: "bad labels in \(line)") }
                let key = String(rest[..<equals])
                guard isName(key), rest[rest.index(after: equals)...].first == "\"" else { throw Malformed(description: "bad label in \(line)") }
                rest = rest[rest.index(equals, offsetBy: 2)...]
                var value = ""
                while let character = rest.first, character != "\"" {
                    if character == "\\" {
                        rest = rest.dropFirst()
                        guard let escaped = rest.first else { throw Malformed(description: "bad escape in \(line)") }
                        value.append(escaped == "n" ? "\n" : escaped)
                    } else {
                        value.append(character)
                    }
                    rest = rest.dropFirst()
                }
                guard rest.first == "\"" else { throw Malformed(description: "unterminated label value in \(line)") }
                rest = rest.dropFirst()
                labels[key] = value
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ")
        guard (1...2).contains(fields.count) else { throw Malformed(description: "bad sample line: \(line)") }
        let text = String(fields[0])
        guard let value = Double(text) ?? ["+Inf": .infinity, "-Inf": -.infinity, "NaN": .nan][text] else {
            throw Malformed(description: "bad value in \(line)")
        }
        return Sample(name: name, labels: labels, value: value)
    }

    private static func checkHistogram(_ name: String, _ samples: [Sample]) throws {
        // One series per set of labels other than `le`.
        var series: [[String: String]: [(le: Double, count: Double)]] = [:]
        var counts: [[String: String]: Double] = [:]
        for sample in samples {
            var labels = sample.labels
            if sample.name == name + "_bucket" {
                guard let le = labels.removeValue(forKey: "le"), let bound = le == "+Inf" ? .infinity : Double(le) else {
                    throw Malformed(description: "\(name) bucket without a numeric le")
                }
                series[labels, default: []].append((bound, sample.value))
            } else if sample.name == name + "_count" {
                counts[labels] = sample.value
            }
        }
        for (labels, buckets) in series {
            let sorted = buckets.sorted { $0.le < $1.le }
            guard sorted.last?.le == .infinity else { throw Malformed(description: "\(name)\(labels) has no +Inf bucket") }
            guard zip(sorted, sorted.dropFirst()).allSatisfy({ $0.count <= $1.count }) else {
                throw Malformed(description: "\(name)\(labels) buckets are not cumulative")
            }
            guard counts[labels] == sorted.last?.count else { throw Malformed(description: "\(name)\(labels): +Inf bucket ≠ _count") }
        }
    }
}
