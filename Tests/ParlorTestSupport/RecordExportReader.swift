import Foundation

/// Reads a finished game's export (`GET /games/{code}/record.csv|.geojson`) the way a user's tools
/// would: Python's `urllib`, then its `csv` module (or `json` for GeoJSON). What Python parsed comes
/// back as JSON: the HTTP status, the Content-Type, and the CSV's rows (the header first) or the
/// GeoJSON document.
public enum RecordExportReader {
    public struct Export: @unchecked Sendable {
        public var status: Int
        public var contentType: String
        /// The CSV's rows, header first (CSV exports).
        public var rows: [[String]]
        /// The parsed document (GeoJSON exports).
        public var document: [String: Any]
    }

    private static let program = """
        import csv, io, json, sys, urllib.request, urllib.error
        url, token, kind = sys.argv[1], sys.argv[2], sys.argv[3]
        request = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})
        try:
            with urllib.request.urlopen(request) as response:
                status, ctype, body = response.status, response.headers.get("Content-Type", ""), response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            status, ctype, body = error.code, error.headers.get("Content-Type", ""), error.read().decode("utf-8")
        out = {"status": status, "type": ctype, "rows": [], "document": {}}
        if status == 200 and kind == "csv":
            out["rows"] = list(csv.reader(io.StringIO(body, newline="")))
        elif status == 200:
            out["document"] = json.loads(body)
        print(json.dumps(out))
        """

    /// `http://127.0.0.1:PORT/games/CODE/record.FORMAT`, as `token`'s user.
    public static func read(port: Int, code: String, format: String, token: String) async throws -> Export {
        let url = "http://127.0.0.1:\(port)/games/\(code)/record.\(format)"
        let result = try await ExternalProcess(["python3", "-c", program, url, token, format]).wait(timeout: .seconds(60))
        guard result.status == 0, let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw TestFailure("python3 could not read \(url): \(result.stderr)")
        }
        return Export(
            status: parsed["status"] as? Int ?? 0, contentType: parsed["type"] as? String ?? "",
            rows: parsed["rows"] as? [[String]] ?? [], document: parsed["document"] as? [String: Any] ?? [:])
    }
}
