import Foundation

extension QueueStore {
    public enum SendResult: Equatable, Sendable {
        case stored(MessageID)
        /// ERR QUOTA: the queue is full (see `send`).
        case quotaExceeded
        case noQueue
        /// The queue is suspended (OFF): SMP answers ERR AUTH.
        case auth
    }

    /// SEND: stores the message at the tail of the queue.
    ///
    /// Quota, as simplexmq's `writeMsg`: expired messages are removed first; then, if the queue
    /// ends with the quota marker, the SEND is refused and nothing changes; else if it holds fewer
    /// than `quota` messages the message is stored; else (exactly `quota` messages) the quota
    /// marker (a fresh id, the current time) is appended and the SEND is refused. So the sender
    /// gets ERR QUOTA from the first refused SEND on, the recipient receives the `quota` messages
    /// and then the marker, and SENDs are accepted again only once the recipient has ACKed the
    /// marker (the queue is empty); the marker counts toward nothing else.
    public mutating func send(senderID: QueueID, flags: StoredMessageFlags, body: [UInt8]) -> SendResult {
        guard let slot = bySender[senderID] else { return .noQueue }
        guard slots[Int(slot)].record.status == .active else { return .auth }
        expire(slot: slot, now: currentTime())
        let recipientID = slots[Int(slot)].record.recipientID
        let messages = slots[Int(slot)].messages
        if messages.last?.isQuotaMarker == true { return .quotaExceeded }
        let id = newMessageID()
        if messages.count < configuration.quota {
            let message = StoredMessage(
                id: id, timestamp: currentTime(), content: .message(flags: flags, body: body))
            commit(.messageAdded(recipientID: recipientID, message))
            return .stored(id)
        }
        let marker = StoredMessage(id: id, timestamp: currentTime(), content: .quotaExceeded)
        commit(.messageAdded(recipientID: recipientID, marker))
        return .quotaExceeded
    }

    /// The head message, without expiring or marking anything (for inspection).
    public func peek(recipientID: QueueID) -> StoredMessage? {
        byRecipient[recipientID].flatMap { slots[Int($0)].messages.first }
    }

    public enum FetchResult: Equatable, Sendable {
        case message(StoredMessage)
        case empty
        case noQueue
    }

    /// SUB: the head message, delivered now even if it was delivered before (a new subscription
    /// gets the outstanding message again); marks it delivered.
    public mutating func subscribe(recipientID: QueueID) -> FetchResult {
        guard let slot = byRecipient[recipientID] else { return .noQueue }
        expire(slot: slot, now: currentTime())
        guard let head = slots[Int(slot)].messages.first else { return .empty }
        slots[Int(slot)].headDelivered = true
        return .message(head)
    }

    /// After a SEND or an ACK, for a subscribed queue: the head message if it was not delivered
    /// yet (marking it delivered), else nil: one message outstanding at a time.
    public mutating func deliverNext(recipientID: QueueID) -> StoredMessage? {
        guard let slot = byRecipient[recipientID] else { return nil }
        expire(slot: slot, now: currentTime())
        guard !slots[Int(slot)].headDelivered, let head = slots[Int(slot)].messages.first else { return nil }
        slots[Int(slot)].headDelivered = true
        return head
    }

    /// GET: the head message, leaving the delivery state alone, so a GET from one connection
    /// never disturbs (nor ends) another connection's subscription.
    public mutating func get(recipientID: QueueID) -> FetchResult {
        guard let slot = byRecipient[recipientID] else { return .noQueue }
        expire(slot: slot, now: currentTime())
        return slots[Int(slot)].messages.first.map { .message($0) } ?? .empty
    }

    public enum AckResult: Equatable, Sendable {
        case ok
        /// ERR NO_MSG: `messageID` is not the head (already ACKed, expired, or never sent).
        case noMessage
        case noQueue
    }

    /// ACK: removes the head message when it is `messageID`. The caller then delivers
    /// `deliverNext` to the subscriber, after committing this ACK to the journal.
    public mutating func ack(recipientID: QueueID, messageID: MessageID) -> AckResult {
        guard let slot = byRecipient[recipientID] else { return .noQueue }
        guard slots[Int(slot)].messages.first?.id == messageID else { return .noMessage }
        commit(.messagesRemoved(recipientID: recipientID, through: messageID))
        return .ok
    }

    /// The periodic sweep: removes expired messages from every queue; returns how many.
    @discardableResult
    public mutating func expireMessages() -> Int {
        let now = currentTime()
        var removed = 0
        for slot in slots.indices where slots[slot].record.status != .deleted && !slots[slot].messages.isEmpty
        {
            removed += expire(slot: Int32(slot), now: now)
        }
        return removed
    }

    /// Removes the messages older than the TTL from the head of one queue (timestamps only grow
    /// along a queue, so the expired ones are a prefix), as simplexmq: `ts < now - ttl`.
    @discardableResult
    mutating func expire(slot: Int32, now: Int64) -> Int {
        let cutoff = now - configuration.messageTTL.components.seconds
        let messages = slots[Int(slot)].messages
        guard let first = messages.first, first.timestamp < cutoff else { return 0 }
        let count = messages.firstIndex(where: { $0.timestamp >= cutoff }) ?? messages.count
        commit(
            .messagesRemoved(
                recipientID: slots[Int(slot)].record.recipientID, through: messages[count - 1].id))
        return count
    }

    func currentTime() -> Int64 {
        Int64(environment.now().timeIntervalSince1970.rounded(.down))
    }

    func newMessageID() -> MessageID {
        let raw = environment.randomID()
        return MessageID(w0: raw.w0, w1: raw.w1, w2: raw.w2)
    }
}
