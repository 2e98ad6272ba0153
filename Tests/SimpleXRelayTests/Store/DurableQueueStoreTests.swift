import Foundation
import Glibc
import SimpleXRelay
import Testing
import TestSupport

@Suite struct DurableQueueStoreTests {
    let clock = TestClock()
    let ids = CountingIDs()

    /// Opens the store in `dir`. A store just released may still look locked for a moment: a
    /// child process that another test is starting has a copy of every descriptor (the lock's
    /// too, though close-on-exec) until it execs, so `open` waits a little for that to pass.
    func open(
        _ dir: TemporaryDirectory, _ options: DurableQueueStore.Options = .init(compactOnOpen: false),
        waitingForChildren: Bool = true
    ) throws -> DurableQueueStore {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let result = Result { () throws -> DurableQueueStore in
                try DurableQueueStore(
                    directory: dir.path, environment: testEnvironment(clock: clock, ids: ids),
                    options: options)
            }
            if case .failure(QueueStoreError.locked) = result, waitingForChildren,
                ContinuousClock.now < deadline
            {
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            return try result.get()
        }
    }

    /// Queues in every state, messages, ACKs, a quota marker, a deletion.
    func populate(_ durable: DurableQueueStore) throws -> [QueueRecord] {
        try durable.update { store in
            let a = store.newQueue(seed: 1)
            let b = store.newQueue(.contact, seed: 2)
            let c = store.newQueue(seed: 3)
            let d = store.newQueue(seed: 4)
            _ = store.secure(recipientID: a.recipientID, senderKey: testKey(11))
            for n in 0..<5 { _ = store.send("a\(n)", to: a, flags: n == 2 ? .notification : []) }
            if let first = store.deliverNext(recipientID: a.recipientID) {
                _ = store.ack(recipientID: a.recipientID, messageID: first.id)
            }
            _ = store.deliverNext(recipientID: a.recipientID)  // delivered, not ACKed
            for n in 0..<129 { _ = store.send("b\(n)", to: b) }  // full, with the marker
            _ = store.send("c", to: c)
            _ = store.suspend(recipientID: c.recipientID)
            _ = store.delete(recipientID: d.recipientID)
            return [a, b, c]
        }
    }

    @Test func replayAfterCleanRestartReproducesTheState() throws {
        let dir = try TemporaryDirectory("relay-store")
        let durable = try open(dir)
        let queues = try populate(durable)
        try durable.commit()
        let before = durable.store.contents
        #expect(before.count == 3)
        try durable.close()

        let reopened = try open(dir)
        #expect(reopened.store.contents == before)
        // Delivery position survives: the head is the un-ACKed message, delivered again on SUB.
        let a = queues[0].recipientID
        #expect(!reopened.store.isHeadDelivered(recipientID: a))
        let head = try reopened.update { store in store.subscribe(recipientID: a) }
        #expect(head.message?.text == "a1")
        #expect(try reopened.update { $0.send("b-more", to: queues[1]) } == .quotaExceeded)
        #expect(try reopened.update { $0.send("c-more", to: queues[2]) } == .auth)
    }

    @Test func uncommittedChangesAreNotOnDisk() throws {
        let dir = try TemporaryDirectory("relay-store")
        var durable: DurableQueueStore? = try open(dir)
        let queue = try durable!.update { $0.newQueue() }
        try durable!.commit()
        _ = try durable!.update { $0.send("never committed", to: queue) }
        durable = nil
        let reopened = try open(dir)
        #expect(reopened.store.messages(recipientID: queue.recipientID) == [])
    }

    @Test func tornOrCorruptLastRecordIsDiscardedAndEarlierRecordsKept() throws {
        for damage in ["truncate", "flip", "garbage"] {
            let dir = try TemporaryDirectory("relay-store")
            var durable: DurableQueueStore? = try open(dir)
            let queue = try durable!.update { $0.newQueue() }
            for n in 0..<3 {
                _ = try durable!.update { $0.send("m\(n)", to: queue) }
                try durable!.commit()
            }
            let journal = dir.appending("queues.journal")
            let sizeBeforeLast = try fileSize(journal)
            _ = try durable!.update { $0.send("last", to: queue) }
            try durable!.commit()
            durable = nil
            let size = try fileSize(journal)
            switch damage {
            case "truncate": #expect(truncate(journal, off_t(size - 7)) == 0)
            case "flip": try flipByte(journal, at: size - 3)
            default: try appendBytes(journal, [0x20, 0, 0, 0, 1, 2, 3, 4, 5])
            }
            var reopened: DurableQueueStore? = try open(dir)
            let texts = reopened!.store.messages(recipientID: queue.recipientID)?.map(\.text)
            let expected = damage == "garbage" ? ["m0", "m1", "m2", "last"] : ["m0", "m1", "m2"]
            #expect(texts == expected, "\(damage)")
            if damage != "garbage" { #expect(try fileSize(journal) == sizeBeforeLast, "\(damage)") }
            // Appending after the cut: the new record is reachable after another restart.
            _ = try reopened!.update { $0.send("after", to: queue) }
            try reopened!.commit()
            reopened = nil
            let again = try open(dir)
            #expect(again.store.messages(recipientID: queue.recipientID)?.map(\.text) == expected + ["after"])
        }
    }

    @Test func compactionPreservesTheStateAndEmptiesTheJournal() throws {
        let dir = try TemporaryDirectory("relay-store")
        let durable = try open(dir)
        _ = try populate(durable)
        try durable.commit()
        let before = durable.store.contents
        try durable.compact()
        #expect(durable.journalSize == 16)
        #expect(durable.store.contents == before)
        let added = try durable.update { $0.newQueue(seed: 9) }
        _ = try durable.update { $0.send("after compaction", to: added) }
        try durable.close()

        let reopened = try open(dir)
        var expected = before
        expected[added.recipientID.description] = reopened.store.contents[added.recipientID.description]
        #expect(reopened.store.contents == expected)
        #expect(reopened.store.messages(recipientID: added.recipientID)?.map(\.text) == ["after compaction"])
    }

    @Test func journalGrowingPastTheThresholdIsCompactedAutomatically() throws {
        let dir = try TemporaryDirectory("relay-store")
        let options = DurableQueueStore.Options(
            syncPolicy: .interval(milliseconds: 1000), compactionThreshold: 4096, compactOnOpen: false)
        let durable = try open(dir, options)
        let queue = try durable.update { $0.newQueue() }
        for n in 0..<100 {
            try durable.update { store in
                _ = store.send(String(repeating: "x", count: 200) + "\(n)", to: queue)
                if let m = store.deliverNext(recipientID: queue.recipientID), n % 2 == 0 {
                    _ = store.ack(recipientID: queue.recipientID, messageID: m.id)
                }
            }
            try durable.commit()
            // Compacted once past the threshold and past the last snapshot's size.
            let snapshotSize = (try? fileSize(dir.appending("queues.snapshot"))) ?? 0
            #expect(durable.journalSize <= max(4096, snapshotSize) + 400)
        }
        #expect(try fileSize(dir.appending("queues.snapshot")) > 4096)
        let before = durable.store.contents
        try durable.close()
        #expect(FileManager.default.fileExists(atPath: dir.appending("queues.snapshot")))
        #expect(try open(dir).store.contents == before)
    }

    @Test func staleJournalAfterACrashDuringCompactionIsNotReplayedTwice() throws {
        let dir = try TemporaryDirectory("relay-store")
        var durable: DurableQueueStore? = try open(dir)
        let queue = try durable!.update { $0.newQueue() }
        _ = try durable!.update { $0.send("once", to: queue) }
        try durable!.commit()
        durable = nil
        // Keep the journal as it was, compact, then put the old journal back: the state a crash
        // between the snapshot's rename and the new journal's rename leaves.
        let journal = dir.appending("queues.journal")
        let old = try Data(contentsOf: URL(fileURLWithPath: journal))
        durable = try open(dir, .init(compactOnOpen: true))
        durable = nil
        try old.write(to: URL(fileURLWithPath: journal))
        let reopened = try open(dir)
        #expect(reopened.store.messages(recipientID: queue.recipientID)?.map(\.text) == ["once"])
    }

    @Test func damagedSnapshotIsAnErrorNotSilentLoss() throws {
        let dir = try TemporaryDirectory("relay-store")
        var durable: DurableQueueStore? = try open(dir, .init(compactOnOpen: true))
        _ = try durable!.update { $0.newQueue() }
        try durable!.compact()
        durable = nil
        let snapshot = dir.appending("queues.snapshot")
        try flipByte(snapshot, at: 40)
        #expect(throws: QueueStoreError.self) { try open(dir) }
    }

    @Test func secondOpenOfTheSameDirectoryIsRefused() throws {
        let dir = try TemporaryDirectory("relay-store")
        let first = try open(dir)
        #expect(throws: QueueStoreError.locked(path: dir.path)) { try open(dir, waitingForChildren: false) }
        try first.close()
    }
}

func fileSize(_ path: String) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
}

func flipByte(_ path: String, at offset: Int) throws {
    var data = try Data(contentsOf: URL(fileURLWithPath: path))
    data[offset] ^= 0xFF
    try data.write(to: URL(fileURLWithPath: path))
}

func appendBytes(_ path: String, _ bytes: [UInt8]) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
}
