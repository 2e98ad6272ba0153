// Encrypted against plain SQLite in the same run (issue 25): the same rows written and read
// through `Database`, once plain and once through the encrypting VFS, and the one-time upgrade.
import Foundation
import SimpleXChat
import TestSupport

func databaseEncryptionBenchmarkLines() throws -> [String] {
    let directory = try TemporaryDirectory("bench-crypt")
    let rows = 50_000
    let body = String(repeating: "message text ", count: 20)  // ~260 bytes, a chat item's size
    var lines: [String] = []
    typealias Rates = (insert: Double, scan: Double, point: Double)
    var measured: [String: [Rates]] = [:]
    let key = DatabaseKey.random()
    // Plain and encrypted in alternate rounds, on fresh files: a busy machine weighs on both alike.
    for round in 0..<3 {
        for (label, key) in [("plain", nil), ("encrypted", key)] as [(String, DatabaseKey?)] {
            let path = directory.appending("\(label)-\(round).db")
            let clock = ContinuousClock()
            // Each connection in a function of its own: it closes (with its statements) on return.
            let insertRate = try { () throws -> Double in
                let database = try Database(path: path, key: key)
                try database.execute(
                    "CREATE TABLE items (id INTEGER PRIMARY KEY, chat INTEGER NOT NULL, text TEXT NOT NULL)")
                try database.execute("CREATE INDEX idx_items_chat ON items (chat, id)")
                let insert = try database.makeStatement("INSERT INTO items (chat, text) VALUES (?, ?)")
                let started = clock.now
                // 100 rows a transaction: the receive pipeline's batches.
                for batch in 0..<(rows / 100) {
                    try database.transaction {
                        for n in 0..<100 { try insert.execute(arguments: [(batch * 100 + n) % 97, body]) }
                    }
                }
                return Double(rows) / (clock.now - started).seconds
            }()

            // Read back on a new connection with a small cache: pages come from the file.
            let (scanRate, pointRate) = try { () throws -> (Double, Double) in
                let reader = try Database(path: path, key: key)
                try reader.execute("PRAGMA cache_size = -2000")
                let scanStart = clock.now
                let count =
                    try reader.fetchValue(Int.self, "SELECT count(*) FROM items WHERE length(text) > 0") ?? 0
                let scanRate = Double(count) / (clock.now - scanStart).seconds
                let page = try reader.makeStatement(
                    "SELECT id, text FROM items WHERE chat = ? ORDER BY id DESC LIMIT 50")
                var chat = 0
                let pointRate = try operationsPerSecond(batch: 20) {
                    chat = (chat + 31) % 97
                    _ = try page.fetchAll(arguments: [chat])
                }
                return (scanRate, pointRate)
            }()
            measured[label, default: []].append((insertRate, scanRate, pointRate))
        }
    }
    func median(_ label: String, _ metric: (Rates) -> Double) -> Double {
        let values = (measured[label] ?? []).map(metric).sorted()
        return values.isEmpty ? 0 : values[values.count / 2]
    }
    for label in ["plain", "encrypted"] {
        lines.append(
            "\(label): insert \(grouped(median(label, \.insert))) rows/s (100 a transaction), scan "
                + "\(grouped(median(label, \.scan))) rows/s, newest 50 of a chat \(grouped(median(label, \.point)))/s "
                + "(median of 3)")
    }
    lines.append(
        "encrypted / plain: insert \(format(median("encrypted", \.insert) / median("plain", \.insert), 2)), scan "
            + "\(format(median("encrypted", \.scan) / median("plain", \.scan), 2)), newest 50 "
            + "\(format(median("encrypted", \.point) / median("plain", \.point), 2))")
    // The one-time upgrade of the plain file written above.
    let plainPath = directory.appending("plain-0.db")
    let size =
        (try FileManager.default.attributesOfItem(atPath: plainPath)[.size] as? NSNumber)?.intValue ?? 0
    let clock = ContinuousClock()
    let started = clock.now
    try DatabaseEncryption.encryptIfPlain(path: plainPath, key: .random())
    lines.append(
        "upgrade of the plain file (\(rows) rows, \(format(Double(size) / 1e6, 1)) MB): "
            + "\(format((clock.now - started).seconds * 1000, 0)) ms")
    return lines
}
