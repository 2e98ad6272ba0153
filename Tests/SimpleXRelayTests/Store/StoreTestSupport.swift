import Foundation
import SimpleXRelay
import Synchronization

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_750_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(seconds: Double) { current.withLock { $0 += seconds } }
}

/// Ids 1, 2, 3, ... so a test can predict and reproduce them.
final class CountingIDs: Sendable {
    private let counter = Mutex<UInt64>(0)
    func next() -> QueueID {
        let n = counter.withLock { value -> UInt64 in
            value += 1
            return value
        }
        return QueueID(w0: n, w1: 0x5151_5151, w2: ~n)
    }
}

func testEnvironment(clock: TestClock = TestClock(), ids: CountingIDs = CountingIDs()) -> StoreEnvironment {
    StoreEnvironment(now: { clock.now }, randomID: { ids.next() })
}

func testKey(_ seed: UInt64, _ algorithm: AuthKey.Algorithm = .ed25519) -> AuthKey {
    AuthKey(algorithm: algorithm, key: Key32(w0: seed, w1: seed &* 31, w2: seed &* 131, w3: seed &* 1031))
}

let testSecret = Key32(w0: 0xDEAD, w1: 0xBEEF, w2: 0xCAFE, w3: 0xF00D)

extension QueueStore {
    mutating func newQueue(_ mode: QueueMode = .messaging, seed: UInt64 = 1) -> QueueRecord {
        createQueue(recipientKey: testKey(seed), recipientDHSecret: testSecret, mode: mode)
    }

    /// SEND of `text`; the stored message id, or nil when refused.
    mutating func send(_ text: String, to queue: QueueRecord, flags: StoredMessageFlags = []) -> SendResult {
        send(senderID: queue.senderID, flags: flags, body: Array(text.utf8))
    }

    /// Everything a restart must reproduce: queues and their messages, by recipient id.
    var contents: [String: Contents] {
        var result: [String: Contents] = [:]
        for queue in allQueues() {
            result[queue.recipientID.description] = Contents(
                queue: queue, messages: messages(recipientID: queue.recipientID) ?? [])
        }
        return result
    }

    /// deliverNext that must deliver.
    mutating func deliver(_ recipientID: QueueID) throws -> StoredMessage {
        guard let message = deliverNext(recipientID: recipientID) else {
            throw StoreTestError("nothing delivered")
        }
        return message
    }

    /// SUB that must find a message.
    mutating func deliverBySubscribing(_ recipientID: QueueID) throws -> StoredMessage {
        guard case .message(let message) = subscribe(recipientID: recipientID) else {
            throw StoreTestError("SUB found no message")
        }
        return message
    }

    struct Contents: Equatable {
        var queue: QueueRecord
        var messages: [StoredMessage]
    }
}

extension StoredMessage {
    var text: String? {
        if case .message(_, let body) = content { return String(decoding: body, as: UTF8.self) }
        return nil
    }
}

struct StoreTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
