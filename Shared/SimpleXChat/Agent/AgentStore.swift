import Foundation
import SimpleXCrypto
import SimpleXProtocol

/// The agent's records in `simplex_v1_agent.db`, with the secret columns sealed.
///
/// Not thread-safe: owned by the `Agent` actor, which runs every query.
final class AgentStore {
    let database: Database
    let secrets: AgentSecrets
    var now: () -> Date
    /// Queues as last read, with their secrets opened: reading one decrypts three keys and
    /// derives their public halves, too much to repeat for every message. Every write to a
    /// queue goes through this store and updates or drops its entry.
    var rcvQueueCache: [QueueCacheKey: RcvQueue] = [:]
    var sndQueueCache: [QueueCacheKey: SndQueue] = [:]
    var sndQueueByConnection: [AgentConnectionID: SndQueue] = [:]

    /// A queue on a relay, as the caches find it.
    struct QueueCacheKey: Hashable {
        let server: SMPServerAddress
        let id: EntityID
    }
    /// The last ratchet state sealed or opened per connection, with its sealed bytes.
    var ratchetCache: [AgentConnectionID: (sealed: [UInt8], state: RatchetState)] = [:]
    /// Server addresses as stored (text), both ways: formatting and parsing one costs more than
    /// the query it is for.
    private var serverTexts: [SMPServerAddress: String] = [:]
    private var serverAddresses: [String: SMPServerAddress] = [:]

    func text(of server: SMPServerAddress) -> String {
        if let text = serverTexts[server] { return text }
        let text = server.description
        serverTexts[server] = text
        return text
    }

    func address(_ text: String) throws -> SMPServerAddress {
        if let server = serverAddresses[text] { return server }
        let server = try SMPServerAddress(text)
        serverAddresses[text] = server
        return server
    }

    /// Per-queue e2e keys (crypto_box_beforenm), by our public key and the peer's.
    private var sharedKeys: [[UInt8]: CryptoBox.SharedKey] = [:]

    func sharedKey(own: X25519.KeyPair, peer: [UInt8]) throws -> CryptoBox.SharedKey {
        let key = own.publicKey + peer
        if let cached = sharedKeys[key] { return cached }
        let shared = try CryptoBox.SharedKey(publicKey: peer, privateKey: own.privateKey)
        sharedKeys[key] = shared
        return shared
    }

    /// Commits are made durable before the relay commands that depend on them (`DurableCommits`).
    let durability: DurableCommits

    init(
        path: String, secrets: AgentSecrets, key: DatabaseKey? = nil, now: @escaping () -> Date = Date.init
    ) throws(AgentError) {
        durability = DurableCommits(databasePath: path)
        do {
            database = try Database(path: path, key: key)
            try database.migrate(AgentSchema.migrations)
            // NORMAL: a commit is in the WAL, not yet synced; `durability` syncs the WAL before
            // anything that depends on the commit goes to a relay, once for many commits.
            try database.execute("PRAGMA synchronous = NORMAL")
            // Checkpoint every 8,000 WAL pages (32 MB) rather than SQLite's 1,000: a message
            // writes ~5 pages, mostly the same index leaves and connection rows again, which a
            // checkpoint then copies to the database once instead of every ~200 messages.
            try database.execute("PRAGMA wal_autocheckpoint = 8000")
        } catch {
            throw .store("cannot open \(path): \(error)")
        }
        self.secrets = secrets
        self.now = now
    }

    func close() {
        commitBatch()
        statements.removeAll()
        try? database.close()
        durability.close()
    }

    private lazy var statements = StatementCache(database)

    /// Runs `body` in one transaction, after the bookkeeping writes deferred so far; a failure
    /// rolls everything back (the deferred writes stay deferred).
    func transaction<T>(_ body: () throws(AgentError) -> T) throws(AgentError) -> T {
        // Inside another: joins it (`Database.transaction`); the outermost applies the deferred
        // writes and, once committed, forgets them. The open batch of messages is not
        // one to join from outside: it is committed first.
        if database.isInTransaction {
            guard batchOpen && !inBatchedBody else { return try body() }
            commitBatch()
        }
        do {
            let result = try database.transaction { () throws -> T in
                try applyDeferred()
                return try body()
            }
            durability.committed()
            clearDeferred()
            return result
        } catch let error as AgentError {
            throw error
        } catch {
            throw .store("\(error)")
        }
    }

    // MARK: Messages committed together

    /// A transaction kept open for received and sent messages (a group commit): each message's
    /// writes go in a savepoint of it (`batched`), and it commits when the agent has processed
    /// the messages already waiting (`commitBatch`), or before any other transaction, which does
    /// not join it. Nothing that depends on its writes may leave the process before then.
    private(set) var batchOpen = false
    /// A `batched` body is running: its transactions join the batch.
    private var inBatchedBody = false
    /// The current (or last) batch; batches whose commit failed, so their writes are gone.
    private(set) var batchNumber: UInt64 = 0
    private var failedBatches: Set<UInt64> = []
    /// Test hook: the next batch commit fails (rolled back), as a full disk would make it.
    var failNextBatchCommit = false

    /// Runs `body` with its writes in the open batch (opening one), in a savepoint: a failure
    /// undoes its own writes only. Returns the batch they are in.
    func batched<T>(_ body: () throws -> T) throws -> (result: T, batch: UInt64) {
        if !batchOpen {
            do {
                try database.execute("BEGIN IMMEDIATE")
                try applyDeferred()
            } catch {
                database.rollbackAfterFailure()
                throw AgentError.store("\(error)")
            }
            batchOpen = true
            batchNumber += 1
        }
        inBatchedBody = true
        defer { inBatchedBody = false }
        return (try database.savepoint(body), batchNumber)
    }

    /// Commits the open batch, if any. False when the commit failed: its writes are rolled
    /// back, and `batchFailed` says so for its number.
    @discardableResult
    func commitBatch() -> Bool {
        guard batchOpen else { return true }
        batchOpen = false
        do {
            if failNextBatchCommit {
                failNextBatchCommit = false
                throw AgentError.store("the batch commit failed (test hook)")
            }
            try database.execute("COMMIT")
        } catch {
            database.rollbackAfterFailure()
            failedBatches.insert(batchNumber)
            return false
        }
        durability.committed()
        clearDeferred()
        return true
    }

    /// Whether batch `number`'s commit failed (asked for each effect of it, in batch order);
    /// forgets the failures of earlier batches.
    func batchFailed(_ number: UInt64) -> Bool {
        guard !failedBatches.isEmpty else { return false }
        failedBatches = failedBatches.filter { $0 >= number }
        return failedBatches.contains(number)
    }

    // MARK: Deferred bookkeeping

    /// Writes the deferred bookkeeping into the transaction being opened (its commit forgets it).
    private func applyDeferred() throws {
        for write in deferredWrites {
            try statements.prepared(write.sql).execute(arguments: write.arguments)
        }
    }

    /// Writes that only record what the relay or the app has already done (a message the relay
    /// accepted, an ACK it took, a message the app processed), kept in memory until the next
    /// transaction commits them with its own writes, or `flushDeferred()` (the agent calls it
    /// shortly after, and on stop): a transaction per message fewer on each side. Lost in a
    /// crash, they cost only work that is already safe to repeat: a message sent again, which the
    /// receiver drops by its hash; a message delivered again, which is acknowledged again; a
    /// message given to the app again at the next start, which it recognises. Until then the
    /// reads that depend on them see them (`nextPending`, the received-message lookups).
    struct DeferredWrite {
        let sql: String
        let arguments: StatementArguments
    }
    private(set) var deferredWrites: [DeferredWrite] = []
    /// The newest sent message per connection whose `sent` status is deferred.
    var sentNotRecorded: [AgentConnectionID: Int64] = [:]
    /// Relay ACKs whose record is deferred.
    var acksNotRecorded: Set<RelayAck> = []
    /// App acknowledgements whose record is deferred.
    var userAcksNotRecorded: Set<AppMessage> = []

    struct RelayAck: Hashable {
        let connection: AgentConnectionID
        let serverMsgID: [UInt8]
    }

    func deferWrite(_ sql: String, _ arguments: StatementArguments) {
        deferredWrites.append(DeferredWrite(sql: sql, arguments: arguments))
        // Inside a transaction it is written now too, since that transaction's commit clears
        // the list; kept there as well, so a rollback leaves it deferred (the writes repeat
        // harmlessly).
        if database.isInTransaction { try? statements.prepared(sql).execute(arguments: arguments) }
    }

    /// Commits the deferred writes now.
    func flushDeferred() throws(AgentError) {
        guard !deferredWrites.isEmpty else { return }
        try transaction { () throws(AgentError) in }
    }

    private func clearDeferred() {
        guard !deferredWrites.isEmpty else { return }
        deferredWrites.removeAll(keepingCapacity: true)
        sentNotRecorded.removeAll(keepingCapacity: true)
        acksNotRecorded.removeAll(keepingCapacity: true)
        userAcksNotRecorded.removeAll(keepingCapacity: true)
    }

    func run(_ sql: String, _ arguments: StatementArguments = []) throws(AgentError) {
        do { try statements.prepared(sql).execute(arguments: arguments) } catch { throw .store("\(error)") }
        // Outside a transaction the statement committed on its own.
        if !database.isInTransaction { durability.committed() }
    }

    func rows(_ sql: String, _ arguments: StatementArguments = []) throws(AgentError) -> [Row] {
        do { return try statements.prepared(sql).fetchAll(arguments: arguments) } catch {
            throw .store("\(error)")
        }
    }

    func row(_ sql: String, _ arguments: StatementArguments = []) throws(AgentError) -> Row? {
        do { return try statements.prepared(sql).fetchOne(arguments: arguments) } catch {
            throw .store("\(error)")
        }
    }

    /// Column `name` of `row`, as `T`.
    func value<T: DatabaseValueConvertible>(_ row: Row, _ name: String) throws(AgentError) -> T {
        do { return try row[name] } catch { throw .store("\(error)") }
    }

    /// One column of every row `sql` returns.
    func column<T: DatabaseValueConvertible>(
        _ name: String, _ sql: String, _ arguments: StatementArguments = []
    ) throws(AgentError) -> [T] {
        var values: [T] = []
        for row in try rows(sql, arguments) { values.append(try value(row, name)) }
        return values
    }

    // MARK: - Sealed columns

    func seal(_ secret: SecureBytes, column: String, row: String) -> [UInt8] {
        secret.withUnsafeBytes { secrets.seal($0, column: column, row: row) }
    }

    /// One guarded buffer, grown as needed, that every ratchet state is encoded into before it is
    /// sealed: a state is written per message, and a guarded allocation costs several system
    /// calls (mmap, mprotect, mlock, and their reverse on free). Zeroed after each use.
    private var ratchetScratch = SecureBuffer(count: 1_024)

    func sealRatchetState(_ ratchet: RatchetState, connection: AgentConnectionID) -> [UInt8] {
        let count = ratchet.encodedCount
        if ratchetScratch.count < count {
            ratchetScratch = SecureBuffer(count: max(count, 2 * ratchetScratch.count))
        }
        return ratchetScratch.withUnsafeMutableBytes { buffer in
            let encoded = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            defer { encoded.initializeMemory(as: UInt8.self, repeating: 0) }
            ratchet.encode(into: encoded)
            return secrets.seal(UnsafeRawBufferPointer(encoded), column: "ratchet", row: connection)
        }
    }

    func sealBytes(_ bytes: [UInt8], column: String, row: String) -> [UInt8] {
        secrets.seal(bytes, column: column, row: row)
    }

    func open(_ sealed: [UInt8], column: String, row: String) throws(AgentError) -> SecureBytes {
        try secrets.open(sealed, column: column, row: row)
    }

    func openBytes(_ sealed: [UInt8], column: String, row: String) throws(AgentError) -> [UInt8] {
        try open(sealed, column: column, row: row).withUnsafeBytes { Array($0) }
    }
}

/// Whether a connection came from an invitation link or is a contact address.
enum AgentConnectionMode: String, Sendable {
    case invitation, contact
}

/// Where a connection is in its life (see the schema).
enum AgentConnectionStatus: String, Sendable {
    case new, joined, confirmed, ready, deleted
}

/// A row of `connections`.
struct ConnectionRecord {
    let id: AgentConnectionID
    var mode: AgentConnectionMode
    var status: AgentConnectionStatus
    var x3dhKeys: [UInt8]?
    var ratchet: [UInt8]?
    var peerConnInfo: [UInt8]?
    var lastSndID: Int64
    var lastSndHash: [UInt8]
    var lastRcvID: Int64
    var lastRcvHash: [UInt8]

    init(id: AgentConnectionID, mode: AgentConnectionMode, status: AgentConnectionStatus) {
        self.id = id
        self.mode = mode
        self.status = status
        lastSndID = 0
        lastSndHash = []
        lastRcvID = 0
        lastRcvHash = []
    }

    init(row: Row) throws {
        id = try row.decode(String.self, at: 0)
        guard let mode = AgentConnectionMode(rawValue: try row.decode(String.self, at: 1)),
            let status = AgentConnectionStatus(rawValue: try row.decode(String.self, at: 2))
        else {
            throw AgentError.store(
                "connection \(try row.decode(String.self, at: 0)) has an unknown mode or status")
        }
        self.mode = mode
        self.status = status
        x3dhKeys = try row.decode([UInt8]?.self, at: 3)
        ratchet = try row.decode([UInt8]?.self, at: 4)
        peerConnInfo = try row.decode([UInt8]?.self, at: 5)
        lastSndID = try row.decode(Int64.self, at: 6)
        lastSndHash = try row.decode([UInt8].self, at: 7)
        lastRcvID = try row.decode(Int64.self, at: 8)
        lastRcvHash = try row.decode([UInt8].self, at: 9)
    }

    static let columns =
        "conn_id, conn_mode, status, x3dh_keys, ratchet, peer_conn_info, last_snd_id, last_snd_hash, last_rcv_id, last_rcv_hash"
}

extension AgentStore {
    func insert(_ connection: ConnectionRecord) throws(AgentError) {
        try run(
            "INSERT INTO connections (\(ConnectionRecord.columns), created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            [
                connection.id, connection.mode.rawValue, connection.status.rawValue, connection.x3dhKeys,
                connection.ratchet,
                connection.peerConnInfo, connection.lastSndID, connection.lastSndHash, connection.lastRcvID,
                connection.lastRcvHash, now(),
            ])
    }

    func update(_ connection: ConnectionRecord) throws(AgentError) {
        try run(
            """
            UPDATE connections SET status = ?, x3dh_keys = ?, ratchet = ?, peer_conn_info = ?, last_snd_id = ?,
              last_snd_hash = ?, last_rcv_id = ?, last_rcv_hash = ? WHERE conn_id = ?
            """,
            [
                connection.status.rawValue, connection.x3dhKeys, connection.ratchet, connection.peerConnInfo,
                connection.lastSndID,
                connection.lastSndHash, connection.lastRcvID, connection.lastRcvHash, connection.id,
            ])
    }

    func connection(_ id: AgentConnectionID) throws(AgentError) -> ConnectionRecord {
        guard let row = try row("SELECT \(ConnectionRecord.columns) FROM connections WHERE conn_id = ?", [id])
        else {
            throw .notFound("connection \(id)")
        }
        do { return try ConnectionRecord(row: row) } catch { throw .store("\(error)") }
    }

    func connectionIDs() throws(AgentError) -> [AgentConnectionID] {
        try column(
            "conn_id",
            "SELECT conn_id FROM connections WHERE status != 'deleted' ORDER BY created_at, conn_id")
    }

    func deleteConnection(_ id: AgentConnectionID) throws(AgentError) {
        rcvQueueCache = rcvQueueCache.filter { $0.value.connectionID != id }
        sndQueueCache = sndQueueCache.filter { $0.value.connectionID != id }
        sndQueueByConnection[id] = nil
        try run("DELETE FROM connections WHERE conn_id = ?", [id])
    }
}
