import NIOCore
import NIOHTTP1
import ParlorRules
import ParlorWire
import WebSocketCore

/// A format a finished game's record is exported in besides its JSON, one its players already use (a
/// darts scorer's visit list, a rummy score sheet, a map of a quiz's guesses): `GET
/// /games/{code}/record.{name}`. A game offers the formats it makes (`GameDefinition.recordExportFormats`);
/// the kernel serves each one's route for every game and asks the game that played the record.
struct RecordExportFormat: Sendable, Hashable {
    /// The file extension naming it in the route and the download.
    let name: String
    let mediaType: String

    static let csv = RecordExportFormat(name: "csv", mediaType: "text/csv; charset=utf-8")
    static let geoJSON = RecordExportFormat(name: "geojson", mediaType: "application/geo+json")
}

/// Comma-separated values as RFC 4180 writes them: one record per line ending in CRLF, a field quoted
/// (its quotes doubled) when it holds a comma, a quote or a line break, so any name survives.
struct CSVText {
    private(set) var text = ""

    init(header: [String]) { row(header) }

    mutating func row(_ fields: [String]) {
        text += fields.map(Self.field).joined(separator: ",") + "\r\n"
    }

    private static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension GameRecordOperation {
    /// `GET /games/{code}/record.{format}` for every format some game exports: the last finished game
    /// with that code, replayed to its end and exported by its game (signed in, as its JSON record).
    static func exportRoutes(_ games: [any HostedGame]) -> [HTTPRoute] {
        let hosts = games.compactMap(\.recordReplaying)
        var formats: [RecordExportFormat] = []
        for format in hosts.flatMap(\.recordExportFormats) where !formats.contains(format) {
            formats.append(format)
        }
        return formats.map { format in
            HTTPRoute(.GET, "/games/{code}/record.\(format.name)") { request, user throws(WireError) in
                let viewer = try HTTPRoutes.signedIn(user)
                let code = request.parameters[0]
                let (head, host) = try await finished(code, for: viewer, in: hosts)
                guard host.recordExportFormats.contains(format) else {
                    throw notAvailable(code, why: "\(host.kind.name) games are not exported as \(format.name)")
                }
                let body = try await host.recordExport(head, as: format)
                var headers = HTTPHeaders()
                headers.add(name: "Content-Type", value: format.mediaType)
                headers.add(name: "Content-Disposition", value: "attachment; filename=\"\(head.kind)-\(head.code).\(format.name)\"")
                return HTTPResponse(status: .ok, headers: headers, body: ByteBuffer(string: body))
            }
        }
    }
}

extension GameHost {
    var recordExportFormats: [RecordExportFormat] { game.recordExportFormats }

    /// The finished game of `record`, replayed to its end, exported in `format` by its game.
    func recordExport(_ record: StoredGameRecord, as format: RecordExportFormat) async throws(WireError) -> String {
        let steps: [GameRecordStep]
        do throws(StoreError) {
            steps = try await store.backend.records.gameRecordSteps(id: record.id, from: 1, limit: record.stepCount)
        } catch {
            throw storeFailure(error, operation: "read record \(record.id)")
        }
        var games: [Rules] = []
        games.reserveCapacity(steps.count + 1)
        do throws(GameRecordDivergence) {
            _ = try replayer.replayEach(initialState: record.initialState, steps: steps) { (_, state) throws(GameRecordDivergence) in
                games.append(state)
            }
        } catch {
            logger.error("A game record does not replay", metadata: ["record": "\(record.id)", "divergence": "\(error)"])
            throw WireError.internalError("The record of game \(record.code) does not replay; the server's log says where.")
        }
        return try game.recordExport(format, of: games)
    }
}
