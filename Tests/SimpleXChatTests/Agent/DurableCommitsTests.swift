import Foundation
import Synchronization
import TestSupport
import Testing

@testable import SimpleXChat

/// The agent's group commit: a sync of the WAL before a relay command covers every commit made
/// before the caller asked, is shared by the callers waiting together, and a commit made while a
/// sync runs waits for the next one.
@Suite struct DurableCommitsTests {
    /// A WAL file to sync, and a sync that can be held until the test lets it go.
    final class Fixture: Sendable {
        let directory: TemporaryDirectory
        let commits: DurableCommits
        let started = Mutex(0)
        let gate = DispatchSemaphore(value: 0)
        let holding: Bool

        init(holding: Bool) throws {
            directory = try TemporaryDirectory("durable-commits")
            let path = directory.appending("agent.db")
            FileManager.default.createFile(atPath: path + "-wal", contents: Data([1, 2, 3]))
            self.holding = holding
            let box = Box()
            commits = DurableCommits(databasePath: path) { descriptor in
                box.fixture?.started.withLock { $0 += 1 }
                if box.fixture?.holding == true { box.fixture?.gate.wait() }
                return fdatasync(descriptor)
            }
            box.fixture = self
        }

        final class Box: @unchecked Sendable {
            weak var fixture: Fixture?
        }

        var syncsStarted: Int { started.withLock { $0 } }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test func aNewRunSyncsWhatTheLastOneLeftThenOnlyNewCommits() async throws {
        let fixture = try Fixture(holding: false)
        // An earlier run may have left commits in the WAL unsynced: the first command syncs.
        await fixture.commits.durable()
        #expect(fixture.commits.syncs == 1)
        await fixture.commits.durable()
        #expect(fixture.commits.syncs == 1)
        fixture.commits.committed()
        fixture.commits.committed()
        await fixture.commits.durable()
        #expect(fixture.commits.syncs == 2)
        // Already synced: no second sync.
        await fixture.commits.durable()
        #expect(fixture.commits.syncs == 2)
    }

    @Test func callersWaitingTogetherShareASyncAndALaterCommitWaitsForTheNext() async throws {
        let fixture = try Fixture(holding: true)
        fixture.commits.committed()
        let first = Task { await fixture.commits.durable() }
        while fixture.syncsStarted == 0 { try await Task.sleep(for: .milliseconds(5)) }
        // The first sync is running; these commits come after it started.
        for _ in 0..<3 { fixture.commits.committed() }
        let released = Counter()
        let later = (0..<3).map { _ in
            Task {
                await fixture.commits.durable()
                released.add()
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        fixture.gate.signal()
        await first.value
        // The later callers are not let go by the sync that started before their commits.
        try await Task.sleep(for: .milliseconds(50))
        #expect(released.value == 0)
        #expect(fixture.syncsStarted == 2)
        fixture.gate.signal()
        for task in later { await task.value }
        #expect(released.value == 3)
        #expect(fixture.commits.syncs == 2)
    }

    /// The callback form the agent's ACKs use: run only once the sync covering the commits made
    /// before it returns, and at once, on the caller's thread, when nothing is pending.
    @Test func aCallbackRunsAfterTheSyncThatCoversItOrAtOnceWhenNothingIsPending() async throws {
        let fixture = try Fixture(holding: true)
        fixture.commits.committed()
        let ran = Counter()
        fixture.commits.whenDurable { ran.add() }
        while fixture.syncsStarted == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(30))
        #expect(ran.value == 0)
        fixture.gate.signal()
        for _ in 0..<400 where ran.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ran.value == 1)
        #expect(fixture.commits.syncs == 1)
        let atOnce = Counter()
        fixture.commits.whenDurable { atOnce.add() }
        #expect(atOnce.value == 1)
        #expect(fixture.commits.syncs == 1)
    }

    @Test func closingLetsWaitingCallersGo() async throws {
        let fixture = try Fixture(holding: true)
        fixture.commits.committed()
        let waiting = Task { await fixture.commits.durable() }
        while fixture.syncsStarted == 0 { try await Task.sleep(for: .milliseconds(5)) }
        fixture.commits.committed()
        let second = Task { await fixture.commits.durable() }
        try await Task.sleep(for: .milliseconds(20))
        fixture.commits.close()
        await second.value
        fixture.gate.signal()
        await waiting.value
        // Closed: nothing more to wait for.
        fixture.commits.committed()
        await fixture.commits.durable()
    }

    /// Through two chat users and a real relay: a message sent and received made both agents
    /// sync their WAL before talking to the relay (the send after its ratchet step, the ACK after
    /// the received message was stored).
    @Test func sendingAndAcknowledgingSyncFirst() async throws {
        let relay = try await RelayProcess()
        let pair = try await ChatControllerReadingTests.connectedPair(
            relay: relay, in: try TemporaryDirectory("durable-chat"))
        let aliceBefore = await pair.alice.chat.agent.durableSyncs
        let bobBefore = await pair.bob.chat.agent.durableSyncs
        _ = try await pair.alice.chat.send(to: pair.bobContact.localDisplayName, .text("hello"))
        _ = try await pair.bob.events.next { event -> Bool? in
            if case .newItem(_, let item) = event, item.text == "hello" { true } else { nil }
        }
        _ = try await pair.alice.events.next { event -> Bool? in
            if case .itemStatus(_, let item) = event, item.status == .sndRcvd { true } else { nil }
        }
        #expect(await pair.alice.chat.agent.durableSyncs > aliceBefore)
        #expect(await pair.bob.chat.agent.durableSyncs > bobBefore)
        await pair.alice.chat.stop()
        await pair.bob.chat.stop()
    }
}
