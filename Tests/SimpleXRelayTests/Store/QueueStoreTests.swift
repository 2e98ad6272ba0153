import Foundation
import SimpleXRelay
import Synchronization
import Testing

@Suite struct QueueStoreTests {
    @Test func createdQueueIsFoundByBothIdsUntilDeleted() {
        var store = QueueStore(environment: testEnvironment())
        let queue = store.newQueue()
        #expect(queue.recipientID != queue.senderID)
        #expect(queue.status == .active && queue.senderKey == nil)
        #expect(store.queue(recipientID: queue.recipientID) == queue)
        #expect(store.queue(senderID: queue.senderID) == queue)
        #expect(store.queue(recipientID: queue.senderID) == nil)
        #expect(store.send("hello", to: queue) != .noQueue)

        #expect(store.delete(recipientID: queue.recipientID) == .ok)
        #expect(store.queue(recipientID: queue.recipientID) == nil)
        #expect(store.queue(senderID: queue.senderID) == nil)
        #expect(store.send("again", to: queue) == .noQueue)
        #expect(store.get(recipientID: queue.recipientID) == .noQueue)
        #expect(
            store.ack(recipientID: queue.recipientID, messageID: MessageID(w0: 1, w1: 1, w2: 1)) == .noQueue)
        #expect(store.delete(recipientID: queue.recipientID) == .noQueue)
        #expect(store.queueCount == 0)
    }

    @Test func createRetriesIdsThatAreTaken() {
        // A generator that repeats itself: 1, 1, 2, 1, 3, 2, 4.
        let sequence = Mutex([1, 1, 2, 1, 3, 2, 4] as [UInt64])
        let repeating = StoreEnvironment(
            now: { Date() }, randomID: { QueueID(w0: sequence.withLock { $0.removeFirst() }, w1: 0, w2: 0) })
        var store = QueueStore(environment: repeating)
        let first = store.newQueue()
        let second = store.newQueue(seed: 2)
        #expect([first.recipientID.w0, first.senderID.w0] == [1, 2])
        #expect([second.recipientID.w0, second.senderID.w0] == [3, 4])
    }

    @Test func secureSetsTheSenderKeyOnlyOnce() {
        var store = QueueStore(environment: testEnvironment())
        let queue = store.newQueue()
        #expect(store.secure(recipientID: queue.recipientID, senderKey: testKey(7)) == .ok)
        #expect(store.queue(recipientID: queue.recipientID)?.senderKey == testKey(7))
        // A retried KEY with the same key is fine; any other key, by KEY or SKEY, is refused.
        #expect(store.secure(recipientID: queue.recipientID, senderKey: testKey(7)) == .ok)
        #expect(store.secure(recipientID: queue.recipientID, senderKey: testKey(8)) == .auth)
        #expect(store.secure(senderID: queue.senderID, senderKey: testKey(8)) == .auth)
        #expect(store.queue(recipientID: queue.recipientID)?.senderKey == testKey(7))

        let second = store.newQueue(seed: 2)
        #expect(store.secure(senderID: second.senderID, senderKey: testKey(9, .x25519)) == .ok)
        #expect(store.secure(recipientID: second.recipientID, senderKey: testKey(10)) == .auth)
        #expect(store.queue(senderID: second.senderID)?.senderKey == testKey(9, .x25519))
        #expect(store.secure(senderID: queue.recipientID, senderKey: testKey(9)) == .noQueue)
    }

    @Test func contactQueuesAreNeverSecured() {
        var store = QueueStore(environment: testEnvironment())
        let address = store.newQueue(.contact)
        #expect(store.secure(recipientID: address.recipientID, senderKey: testKey(3)) == .auth)
        #expect(store.secure(senderID: address.senderID, senderKey: testKey(3)) == .auth)
        #expect(store.queue(recipientID: address.recipientID)?.senderKey == nil)
    }

    @Test func messagesAreDeliveredInOrderOneAtATime() throws {
        var store = QueueStore(environment: testEnvironment())
        let queue = store.newQueue()
        let rid = queue.recipientID
        #expect(store.subscribe(recipientID: rid) == .empty)
        #expect(store.deliverNext(recipientID: rid) == nil)
        for text in ["one", "two", "three"] {
            guard case .stored = store.send(text, to: queue, flags: text == "two" ? .notification : []) else {
                Issue.record("SEND \(text) refused")
                return
            }
        }
        let first = try store.deliver(rid)
        #expect(first.text == "one")
        #expect(store.isHeadDelivered(recipientID: rid))
        // One outstanding: nothing more until the ACK.
        #expect(store.deliverNext(recipientID: rid) == nil)
        #expect(store.ack(recipientID: rid, messageID: MessageID(w0: 9, w1: 9, w2: 9)) == .noMessage)
        #expect(store.ack(recipientID: rid, messageID: first.id) == .ok)
        #expect(store.ack(recipientID: rid, messageID: first.id) == .noMessage)

        let second = try store.deliver(rid)
        #expect(second.text == "two")
        #expect(second.content == .message(flags: .notification, body: Array("two".utf8)))
        // A new subscription (another connection) gets the outstanding message again.
        #expect(store.subscribe(recipientID: rid) == .message(second))
        #expect(store.ack(recipientID: rid, messageID: second.id) == .ok)
        let third = try store.deliver(rid)
        #expect(third.text == "three")
        #expect(store.ack(recipientID: rid, messageID: third.id) == .ok)
        #expect(store.deliverNext(recipientID: rid) == nil)
        #expect(store.messages(recipientID: rid) == [])
    }

    @Test func getNeverDisturbsTheSubscriptionsDelivery() throws {
        var store = QueueStore(environment: testEnvironment())
        let queue = store.newQueue()
        let rid = queue.recipientID
        _ = store.send("one", to: queue)
        _ = store.send("two", to: queue)
        guard case .message(let got) = store.get(recipientID: rid) else {
            Issue.record("GET found nothing")
            return
        }
        #expect(got.text == "one")
        #expect(!store.isHeadDelivered(recipientID: rid))
        // The subscriber still gets the head it has not seen.
        #expect(store.deliverNext(recipientID: rid) == got)
        #expect(store.get(recipientID: rid) == .message(got))
        #expect(store.ack(recipientID: rid, messageID: got.id) == .ok)
        #expect(store.get(recipientID: rid).message?.text == "two")
    }

    @Test func quotaRefusesTheSendAfterTheLimitAndAppendsOneMarker() throws {
        var store = QueueStore(environment: testEnvironment())
        let queue = store.newQueue()
        let rid = queue.recipientID
        for n in 1...128 {
            guard case .stored = store.send("m\(n)", to: queue) else {
                Issue.record("SEND \(n) refused")
                return
            }
        }
        #expect(store.send("m129", to: queue) == .quotaExceeded)
        #expect(store.send("m130", to: queue) == .quotaExceeded)
        var messages = try #require(store.messages(recipientID: rid))
        #expect(messages.count == 129)
        #expect(messages.filter(\.isQuotaMarker).count == 1)
        #expect(messages.last?.isQuotaMarker == true)

        // Draining all but the marker does not reopen the queue.
        for n in 1...128 {
            let message = try store.deliver(rid)
            #expect(message.text == "m\(n)")
            #expect(store.ack(recipientID: rid, messageID: message.id) == .ok)
            if n == 64 { #expect(store.send("while draining", to: queue) == .quotaExceeded) }
        }
        #expect(store.send("before marker ACK", to: queue) == .quotaExceeded)
        let marker = try store.deliver(rid)
        #expect(marker.isQuotaMarker)
        #expect(store.ack(recipientID: rid, messageID: marker.id) == .ok)

        // Drained: accepted again, and the quota is whole again.
        guard case .stored = store.send("after", to: queue) else {
            Issue.record("SEND after draining refused")
            return
        }
        messages = try #require(store.messages(recipientID: rid))
        #expect(messages.map(\.text) == ["after"])
    }

    @Test func quotaIsConfigurable() {
        var store = QueueStore(configuration: .init(quota: 2), environment: testEnvironment())
        let queue = store.newQueue()
        #expect(store.send("a", to: queue) != .quotaExceeded)
        #expect(store.send("b", to: queue) != .quotaExceeded)
        #expect(store.send("c", to: queue) == .quotaExceeded)
        #expect(store.messages(recipientID: queue.recipientID)?.count == 3)
    }

    @Test func expiredMessagesAreRemovedOnAccessAndBySweep() throws {
        let clock = TestClock()
        var store = QueueStore(
            configuration: .init(messageTTL: .seconds(3600)), environment: testEnvironment(clock: clock))
        let queue = store.newQueue()
        let other = store.newQueue(seed: 2)
        _ = store.send("old", to: queue)
        _ = store.send("other old", to: other)
        clock.advance(seconds: 1800)
        _ = store.send("newer", to: queue)
        clock.advance(seconds: 1800)
        // Exactly the TTL old: kept (expired means older than now - TTL).
        #expect(store.get(recipientID: queue.recipientID).message?.text == "old")
        clock.advance(seconds: 1)
        #expect(store.get(recipientID: queue.recipientID).message?.text == "newer")
        #expect(store.messages(recipientID: queue.recipientID)?.count == 1)
        // The other queue was not accessed: the sweep removes its message.
        #expect(store.messages(recipientID: other.recipientID)?.count == 1)
        #expect(store.expireMessages() == 1)
        #expect(store.messages(recipientID: other.recipientID) == [])
        clock.advance(seconds: 1800)
        #expect(store.subscribe(recipientID: queue.recipientID) == .empty)
    }

    @Test func expiryFreesTheQuotaOnTheNextSend() {
        let clock = TestClock()
        var store = QueueStore(
            configuration: .init(quota: 2, messageTTL: .seconds(60)),
            environment: testEnvironment(clock: clock))
        let queue = store.newQueue()
        _ = store.send("a", to: queue)
        _ = store.send("b", to: queue)
        #expect(store.send("c", to: queue) == .quotaExceeded)
        clock.advance(seconds: 61)
        guard case .stored = store.send("d", to: queue) else {
            Issue.record("SEND after expiry refused")
            return
        }
        #expect(store.messages(recipientID: queue.recipientID)?.map(\.text) == ["d"])
    }

    @Test func suspendedQueueRefusesSendsButKeepsItsMessages() throws {
        var store = QueueStore(environment: testEnvironment())
        let queue = store.newQueue()
        _ = store.send("kept", to: queue)
        #expect(store.suspend(recipientID: queue.recipientID) == .ok)
        #expect(store.queue(recipientID: queue.recipientID)?.status == .off)
        #expect(store.send("refused", to: queue) == .auth)
        let message = try store.deliverBySubscribing(queue.recipientID)
        #expect(message.text == "kept")
        #expect(store.ack(recipientID: queue.recipientID, messageID: message.id) == .ok)
        #expect(store.get(recipientID: queue.recipientID) == .empty)
        #expect(store.suspend(recipientID: queue.senderID) == .noQueue)
    }

    @Test func deleteDropsMessagesAndTheSlotIsReused() {
        var store = QueueStore(environment: testEnvironment())
        let queue = store.newQueue()
        _ = store.send("gone", to: queue)
        #expect(store.delete(recipientID: queue.recipientID) == .ok)
        let next = store.newQueue(seed: 2)
        #expect(store.allQueues() == [next])
        #expect(store.messages(recipientID: next.recipientID) == [])
        #expect(store.messages(recipientID: queue.recipientID) == nil)
    }
}

extension QueueStore.FetchResult {
    var message: StoredMessage? {
        if case .message(let message) = self { return message }
        return nil
    }
}
