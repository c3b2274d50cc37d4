import Foundation
import ParlorWire

/// How request frames and bodies were read before `DocumentDecoder`: the repeated-key scan, then
/// Foundation's `JSONDecoder` with the operations in `userInfo`, and `NumberProbe` to place a number
/// Foundation reports without a path. The reference the differential tests hold the new decoder to;
/// the code is the old `RequestEnvelope`'s, renamed.
enum FoundationFrameDecoder {
    static func decode<Call>(
        _ frame: [UInt8], operations: @escaping @Sendable (String) -> ArgumentsChoice<Call>?
    ) -> Result<(id: RequestID, call: Call), BadRequest> {
        let data = Data(frame)
        if let duplicate = FoundationRepeatedKeyScan.firstDuplicate(in: data) {
            let id = duplicate.path.isEmpty && duplicate.key == "id" ? RequestID.null : readID(data)
            return .failure(BadRequest(id: id, duplicate: duplicate))
        }
        let decoder = JSONDecoder()
        decoder.userInfo[operationsKey] = Operations(lookup: operations)
        do {
            return try decoder.decode(Frame<Call>.self, from: data).outcome
        } catch let error as DecodingError {
            return .failure(BadRequest(id: .null, error))
        } catch {
            return .failure(BadRequest(id: .null, field: nil, message: "The frame is not valid JSON."))
        }
    }

    static func decodeCallable<Call>(_ body: [UInt8], _ choice: ArgumentsChoice<Call>) -> Result<Call, BadRequest> {
        if let duplicate = FoundationRepeatedKeyScan.firstDuplicate(in: body) {
            return .failure(BadRequest(id: .null, duplicate: duplicate))
        }
        let decoder = JSONDecoder()
        decoder.userInfo[operationsKey] = choice
        do {
            return .success(try decoder.decode(CallableBody<Call>.self, from: Data(body.isEmpty ? Array("{}".utf8) : body)).call)
        } catch let error as DecodingError {
            return .failure(BadRequest(id: .null, error))
        } catch {
            return .failure(BadRequest(id: .null, field: nil, message: "The body must be a JSON object: {\"data\": {...}}."))
        }
    }

    static func decodeBody<T: Decodable>(_ type: T.Type, from body: [UInt8]) -> Result<T, BadRequest> {
        if let duplicate = FoundationRepeatedKeyScan.firstDuplicate(in: body) {
            return .failure(BadRequest(id: .null, duplicate: duplicate))
        }
        do {
            return .success(try JSONDecoder().decode(T.self, from: Data(body)))
        } catch let error as DecodingError {
            return .failure(BadRequest(id: .null, error))
        } catch {
            return .failure(BadRequest(id: .null, field: nil, message: "The body must be a JSON object."))
        }
    }

    private static func readID(_ data: Data) -> RequestID {
        (try? JSONDecoder().decode(IDProbe.self, from: data))?.id ?? .null
    }

    private struct IDProbe: Decodable {
        let id: RequestID?
    }

    fileprivate static let operationsKey = CodingUserInfoKey(rawValue: "parlor.operations")!

    fileprivate struct Operations<Call>: Sendable {
        let lookup: @Sendable (String) -> ArgumentsChoice<Call>?
    }
}

private enum FrameKey: String, CodingKey { case id, op, args }

private struct Frame<Call>: Decodable {
    let outcome: Result<(id: RequestID, call: Call), BadRequest>

    init(from decoder: any Decoder) throws {
        guard let operations = decoder.userInfo[FoundationFrameDecoder.operationsKey] as? FoundationFrameDecoder.Operations<Call> else {
            outcome = .failure(BadRequest(id: .null, field: nil, message: "The request could not be read."))
            return
        }
        guard let container = try? decoder.container(keyedBy: FrameKey.self) else {
            outcome = .failure(BadRequest(id: .null, field: nil, message: "A request must be a JSON object."))
            return
        }
        let id: RequestID
        do {
            id = try container.decodeIfPresent(RequestID.self, forKey: .id) ?? .null
        } catch let error as DecodingError {
            outcome = .failure(BadRequest(id: .null, error))
            return
        } catch {
            outcome = .failure(BadRequest(id: .null, field: "id", message: "id must be an integer or a string."))
            return
        }
        do {
            let opText = try container.decode(String.self, forKey: .op)
            guard let choice = operations.lookup(opText) else {
                let shown = opText.count <= 40 ? opText : String(opText.prefix(40)) + "…"
                outcome = .failure(BadRequest(id: id, field: "op", message: "op \"\(shown)\" is not a known operation."))
                return
            }
            outcome = .success((id, try choice.foundationRead(in: container, forKey: .args)))
        } catch {
            outcome = .failure(Self.describe(error, id: id, container: container))
        }
    }

    static func describe(_ error: any Error, id: RequestID, container: KeyedDecodingContainer<FrameKey>) -> BadRequest {
        if let error = error as? DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                // Fall through to the probe.
            } else {
                return BadRequest(id: id, error)
            }
        }
        if let path = (try? container.decode(NumberProbe.self, forKey: .args))?.firstNonInteger(prefix: "args") {
            return BadRequest(id: id, field: path, message: "\(path) must be an integer.")
        }
        return BadRequest(id: id, field: "args", message: "args could not be read.")
    }
}

private enum CallableKey: String, CodingKey { case data }

private struct CallableBody<Call>: Decodable {
    let call: Call

    init(from decoder: any Decoder) throws {
        guard let choice = decoder.userInfo[FoundationFrameDecoder.operationsKey] as? ArgumentsChoice<Call> else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "no operation"))
        }
        call = try choice.foundationRead(in: try decoder.container(keyedBy: CallableKey.self), forKey: .data)
    }
}

private struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension ArgumentsChoice {
    fileprivate func foundationRead<Key: CodingKey>(in container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Call {
        let present = container.contains(key) && !((try? container.decodeNil(forKey: key)) ?? false)
        switch self {
        case .one(let reader):
            if present { return try reader.read(try container.superDecoder(forKey: key)) }
            if let absent = reader.absent { return absent() }
            return try Self.foundationMissing(in: container, forKey: key)
        case .byKey(let choices):
            guard present else { return try Self.foundationMissing(in: container, forKey: key) }
            let decoder = try container.superDecoder(forKey: key)
            let fields = try decoder.container(keyedBy: NamedKey.self)
            let claimed = choices.filter { fields.contains(NamedKey($0.key)) }
            guard claimed.count == 1, let choice = claimed.first else {
                let options = choices.map { "\($0.key) (\($0.label))" }
                let list = options.count == 2 ? options.joined(separator: " or ")
                    : options.dropLast().joined(separator: ", ") + ", or " + (options.last ?? "")
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: fields.codingPath, debugDescription: "must have exactly one of \(list)"))
            }
            return try choice.reader.read(decoder)
        }
    }

    private static func foundationMissing<Key: CodingKey>(in container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Call {
        if container.contains(key) {
            throw DecodingError.valueNotFound(
                Call.self, DecodingError.Context(codingPath: container.codingPath + [key], debugDescription: "null"))
        }
        throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: container.codingPath, debugDescription: "missing"))
    }
}

/// Finds where a non-integer number sits in a JSON value (Foundation reports a fractional or
/// out-of-range number given for an `Int` without a path).
private enum NumberProbe: Decodable {
    case integer
    case nonInteger
    case other
    case object([String: NumberProbe])
    case array([NumberProbe])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() || (try? container.decode(Bool.self)) != nil || (try? container.decode(String.self)) != nil {
            self = .other
        } else if (try? container.decode(Int.self)) != nil {
            self = .integer
        } else if (try? container.decode(Double.self)) != nil {
            self = .nonInteger
        } else if let object = try? container.decode([String: NumberProbe].self) {
            self = .object(object)
        } else if let array = try? container.decode([NumberProbe].self) {
            self = .array(array)
        } else {
            self = .other
        }
    }

    func firstNonInteger(prefix: String) -> String? {
        switch self {
        case .nonInteger: return prefix
        case .integer, .other: return nil
        case .object(let fields):
            for key in fields.keys.sorted() {
                if let path = fields[key]?.firstNonInteger(prefix: "\(prefix).\(key)") { return path }
            }
            return nil
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let path = item.firstNonInteger(prefix: "\(prefix)[\(index)]") { return path }
            }
            return nil
        }
    }
}
