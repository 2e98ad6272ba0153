import Dispatch
import Foundation
import Glibc
import SimpleXSystem
import Synchronization
import Testing
import TestSupport

@_spi(Testing) import SimpleXRelay

/// Under the interval policy the journal is synced on a thread of its own: commits (and so the
/// relay's replies) never wait for the disk, a failed sync stops the store, and a compaction
/// never pulls the journal out from under a sync.
@Suite struct JournalSyncTests {
    /// A sync held until `release()`, counting the syncs that began and ended and the failures.
    final class HeldSync: Sendable {
        let began = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)
        let failNext = Atomic<Bool>(false)
        let started = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let errors = Mutex<[String]>([])

        func release() { gate.signal() }

        /// Waits (at most 10 s) for the next sync to begin.
        func waitForBegin() throws {
            try #require(began.wait(timeout: .now() + 10) == .success, "no sync began")
        }

        var syncFile: @Sendable (Int32, String) throws(QueueStoreError) -> Void {
            { [self] fd, path throws(QueueStoreError) in
                started.add(1, ordering: .relaxed)
                began.signal()
                gate.wait()
                defer { finished.add(1, ordering: .relaxed) }
                if failNext.exchange(false, ordering: .relaxed) {
                    throw .system(SystemError(errno: EIO, call: "fdatasync", path: path))
                }
                // The real call: a descriptor closed under it would fail here (EBADF).
                if fdatasync(fd) != 0 {
                    errors.withLock { $0.append("fdatasync: errno \(errno)") }
                }
            }
        }
    }

    func open(_ dir: TemporaryDirectory, _ held: HeldSync) throws -> DurableQueueStore {
        var options = DurableQueueStore.Options(
            syncPolicy: .interval(milliseconds: 0), autoCompact: false)
        options.compactOnOpen = false
        options.syncFile = held.syncFile
        return try DurableQueueStore(directory: dir.path, environment: testEnvironment(), options: options)
    }

    @Test func commitsGoOnWhileASyncIsRunningAndTheNextSyncCoversThem() throws {
        let dir = try TemporaryDirectory("relay-journal-sync")
        let held = HeldSync()
        let durable = try open(dir, held)
        let queue = try durable.update { $0.newQueue() }
        try durable.commit()  // due at once: a sync starts, and is held
        try held.waitForBegin()

        // The disk is "slow": commits go on without waiting for it, and start no second sync.
        for n in 0..<20 {
            _ = try durable.update { $0.send("m\(n)", to: queue) }
            try durable.commit()
        }
        try durable.syncIfDue()
        #expect(held.started.load(ordering: .relaxed) == 1)
        #expect(held.finished.load(ordering: .relaxed) == 0)

        // Once it ends, the next one starts for what was written meanwhile.
        held.release()
        durable.waitForSync()
        try durable.syncIfDue()
        try held.waitForBegin()
        #expect(held.started.load(ordering: .relaxed) == 2)
        held.release()
        try durable.close()
        #expect(held.errors.withLock { $0 }.isEmpty)
        let reopened = try DurableQueueStore(
            directory: dir.path, environment: testEnvironment(), options: .init(compactOnOpen: false))
        #expect(reopened.store.messages(recipientID: queue.recipientID)?.count == 20)
    }

    @Test func aFailedBackgroundSyncStopsTheStore() throws {
        let dir = try TemporaryDirectory("relay-journal-sync")
        let held = HeldSync()
        let durable = try open(dir, held)
        let queue = try durable.update { $0.newQueue() }
        held.failNext.store(true, ordering: .relaxed)
        try durable.commit()
        try held.waitForBegin()
        held.release()
        durable.waitForSync()

        // What was acknowledged may not be on disk: the store refuses to go on (the relay exits
        // and restarts from what is on disk).
        _ = try? durable.update { $0.send("after the failure", to: queue) }
        #expect(throws: QueueStoreError.self) { try durable.commit() }
        #expect(throws: QueueStoreError.failed) { try durable.commit() }
    }

    @Test func aCompactionWaitsForTheSyncOfTheJournalItReplaces() throws {
        let dir = try TemporaryDirectory("relay-journal-sync")
        let held = HeldSync()
        let durable = try open(dir, held)
        let queue = try durable.update { $0.newQueue() }
        _ = try durable.update { $0.send("before", to: queue) }
        try durable.commit()
        try held.waitForBegin()

        // The sync is still running on the old journal when the compaction replaces it.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { held.release() }
        try durable.compact()
        #expect(held.finished.load(ordering: .relaxed) == 1)
        #expect(held.errors.withLock { $0 }.isEmpty, "the sync lost its journal")

        _ = try durable.update { $0.send("after", to: queue) }
        try durable.commit()
        try held.waitForBegin()
        held.release()
        try durable.close()
        #expect(held.errors.withLock { $0 }.isEmpty)
        let reopened = try DurableQueueStore(
            directory: dir.path, environment: testEnvironment(), options: .init(compactOnOpen: false))
        #expect(reopened.store.messages(recipientID: queue.recipientID)?.map(\.text) == ["before", "after"])
    }
}
