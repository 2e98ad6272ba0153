import Glibc
import SimpleXSystem

/// A `QueueStore` whose every change is journaled in `directory`, so queues and undelivered
/// messages survive a restart, kill -9 at any moment and (per `SyncPolicy`) power loss.
///
/// Confined to its owner (the relay's event loop): not thread-safe, not Sendable. Use it in
/// batches: run the commands of one event-loop iteration through `update`, call `commit()` once,
/// and only then send the replies (OK to SEND, the next MSG after an ACK). A reply sent after
/// `commit()` returns describes a state that is on disk:
/// - a SEND answered OK is never lost, an ACKed message never comes back after kill -9 (the
///   records were written with write(2), which the kernel keeps whatever happens to the process);
/// - against power loss or a kernel crash, see `SyncPolicy`.
///
/// Files: `queues.snapshot` (see `Snapshot`), `queues.journal` (see `Journal`), `lock` (flock:
/// one process at a time). Opening loads the snapshot, replays the journal (discarding a torn last
/// record) and, by default, compacts. Compaction writes a new snapshot atomically and starts a new
/// empty journal; it runs after a commit when the journal has grown past the threshold and past
/// the size of the last snapshot (so replaying never costs much more than loading a snapshot).
public final class DurableQueueStore {
    /// When commits reach the disk itself (fdatasync), beyond the kernel's page cache.
    public enum SyncPolicy: Equatable, Sendable {
        /// `commit()` returns after fdatasync: every reply describes state that survives power
        /// loss and kernel crashes too. Costs one disk flush per batch (group commit).
        case everyCommit
        /// `commit()` returns after write(2); a sync starts when `milliseconds` have passed since
        /// the last one started (from `commit()`, or `syncIfDue()`, which the owner calls from a
        /// timer at that interval), and runs on a thread of its own (`JournalSyncer`) while the
        /// owner goes on. Survives kill -9 like `.everyCommit`; on power loss the last
        /// `milliseconds` (plus one flush) of commits may be lost: an OK'd SEND may vanish and an
        /// ACKed message may be delivered again (clients dedupe by message id).
        case interval(milliseconds: Int)
    }

    public struct Options: Sendable {
        public var syncPolicy: SyncPolicy
        /// Compact when the journal exceeds this many bytes (and the last snapshot's size).
        public var compactionThreshold: Int
        public var compactOnOpen: Bool
        public var autoCompact: Bool
        /// The background sync under `.interval` (fdatasync of the journal), replaceable by tests.
        @_spi(Testing) public var syncFile: @Sendable (Int32, String) throws(QueueStoreError) -> Void

        public init(
            syncPolicy: SyncPolicy = .everyCommit, compactionThreshold: Int = 64 << 20,
            compactOnOpen: Bool = true, autoCompact: Bool = true
        ) {
            self.syncPolicy = syncPolicy
            self.compactionThreshold = compactionThreshold
            self.compactOnOpen = compactOnOpen
            self.autoCompact = autoCompact
            syncFile = { fd, path throws(QueueStoreError) in try StoreFile.dataSync(fd, path: path) }
        }
    }

    public let directory: String
    public let options: Options
    /// The state, read-only; change it with `update`.
    public private(set) var store: QueueStore
    private let lock: FileLock
    private var journal: Journal
    /// Syncs the journal in the background under `.interval`.
    private let syncer: JournalSyncer?
    private var snapshotSize: Int
    private var unsynced = false
    private var lastSync = ContinuousClock.now
    private var failed = false

    var snapshotPath: String { directory + "/queues.snapshot" }
    var journalPath: String { directory + "/queues.journal" }

    /// Opens (or creates) the store in `directory`, which must exist.
    public init(
        directory: String, configuration: QueueStoreConfiguration = .init(),
        environment: StoreEnvironment = .live, options: Options = .init()
    ) throws(QueueStoreError) {
        self.directory = directory
        self.options = options
        let lockPath = directory + "/lock"
        let acquired: FileLock?
        do {
            acquired = try FileLock.attempt(path: lockPath)
        } catch {
            throw .system(error)
        }
        guard let acquired else { throw .locked(path: directory) }
        lock = acquired
        var store = QueueStore(configuration: configuration, environment: environment)
        let snapshotPath = directory + "/queues.snapshot"
        let journalPath = directory + "/queues.journal"
        let (generation, size) = try Snapshot.load(snapshotPath, into: &store)
        snapshotSize = size
        if let existing = try Journal.open(path: journalPath, after: generation, into: &store) {
            journal = existing
        } else {
            journal = try Journal.create(path: journalPath, directory: directory, generation: generation + 1)
        }
        store.recordsEvents = true
        self.store = store
        if case .interval = options.syncPolicy {
            syncer = try JournalSyncer(following: journal, syncFile: options.syncFile)
        } else {
            syncer = nil
        }
        if options.compactOnOpen && journal.size > Journal.headerSize { try compact() }
    }

    /// Runs commands against the state; their changes are journaled by the next `commit()`.
    public func update<Result>(_ body: (inout QueueStore) -> Result) throws(QueueStoreError) -> Result {
        guard !failed else { throw .failed }
        let result = body(&store)
        for event in store.pendingEvents { journal.append(event) }
        store.pendingEvents.removeAll(keepingCapacity: true)
        return result
    }

    /// Writes the batch's records (and syncs per the policy); send the replies after it returns.
    /// If it throws, the batch is not durable: answer it with errors and reopen the store.
    public func commit() throws(QueueStoreError) {
        try writeAndSync()
        if options.autoCompact && journal.size > max(options.compactionThreshold, snapshotSize) {
            try compact()
        }
    }

    private func writeAndSync() throws(QueueStoreError) {
        guard !failed else { throw .failed }
        do throws(QueueStoreError) {
            if journal.hasPending {
                try journal.writePending()
                unsynced = true
            }
            switch options.syncPolicy {
            case .everyCommit: try sync()
            case .interval: try syncIfDue()
            }
        } catch {
            failed = true
            throw error
        }
    }

    /// Under `.interval`, starts a background sync when the interval has passed since the last
    /// one started (and it has ended); throws if a background sync failed.
    public func syncIfDue() throws(QueueStoreError) {
        try throwIfBackgroundSyncFailed()
        guard unsynced else { return }
        guard case .interval(let milliseconds) = options.syncPolicy, let syncer else { return try sync() }
        guard ContinuousClock.now - lastSync >= .milliseconds(milliseconds), syncer.start() else { return }
        unsynced = false
        lastSync = .now
    }

    /// fdatasyncs the journal now (after a background sync running, if any).
    public func sync() throws(QueueStoreError) {
        syncer?.waitUntilIdle()
        try throwIfBackgroundSyncFailed()
        guard unsynced else { return }
        try journal.sync()
        unsynced = false
        lastSync = .now
    }

    /// A background sync failed: what was acknowledged may not be on disk, so the store stops.
    private func throwIfBackgroundSyncFailed() throws(QueueStoreError) {
        guard let failure = syncer?.takeFailure() else { return }
        failed = true
        throw failure
    }

    /// Waits for a background sync running, if any (tests).
    @_spi(Testing) public func waitForSync() { syncer?.waitUntilIdle() }

    /// Bytes in the current journal.
    public var journalSize: Int { journal.size }

    /// Commits, writes a snapshot of the whole state and starts an empty journal.
    public func compact() throws(QueueStoreError) {
        try writeAndSync()
        do throws(QueueStoreError) {
            snapshotSize = try Snapshot.write(
                store, coveringGeneration: journal.generation, to: snapshotPath, directory: directory)
            journal = try Journal.create(
                path: journalPath, directory: directory, generation: journal.generation + 1)
            try syncer?.follow(journal)
            unsynced = false
        } catch {
            failed = true
            throw error
        }
    }

    /// Commits and syncs; the store is then closed (release it; the lock is freed with it).
    public func close() throws(QueueStoreError) {
        try commit()
        try sync()
        lock.unlock()
        failed = true
    }
}
