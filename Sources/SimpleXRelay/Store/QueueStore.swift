import Foundation

/// The relay's queues and their undelivered messages, in memory: a value type, changed only by its
/// owner (the server's event loop, or `DurableQueueStore`, which journals every change).
///
/// Queues live in one array of slots (a slot freed by DEL is reused), found by recipient id and by
/// sender id through two dictionaries of 24-byte keys to 32-bit slot numbers. An idle queue with
/// no messages costs its slot (~170 bytes) and two dictionary entries; no heap object of its own.
///
/// Delivery state per queue: the head (first message not ACKed) and whether it was delivered and
/// not yet ACKed; at most one message is outstanding. Which connection is subscribed is not here.
/// The "delivered" flag is not persisted: after a restart no connection is subscribed, and the
/// head is delivered again on the next SUB (SMP delivery is at least once; clients dedupe by id).
public struct QueueStore: Sendable {
    struct Slot: Sendable {
        var record: QueueRecord
        var messages: [StoredMessage] = []
        var headDelivered = false
    }

    public let configuration: QueueStoreConfiguration
    public let environment: StoreEnvironment
    var slots: [Slot] = []
    var freeSlots: [Int32] = []
    var byRecipient: [QueueID: Int32] = [:]
    var bySender: [QueueID: Int32] = [:]
    /// Events not yet taken by the journal; recorded only when `recordsEvents` (set by the owner
    /// that persists them), so a store used without persistence does not accumulate them.
    var recordsEvents = false
    var pendingEvents: [StoreEvent] = []

    public init(configuration: QueueStoreConfiguration = .init(), environment: StoreEnvironment = .live) {
        self.configuration = configuration
        self.environment = environment
    }

    /// Number of live queues.
    public var queueCount: Int { byRecipient.count }

    public func queue(recipientID: QueueID) -> QueueRecord? {
        byRecipient[recipientID].map { slots[Int($0)].record }
    }

    public func queue(senderID: QueueID) -> QueueRecord? {
        bySender[senderID].map { slots[Int($0)].record }
    }

    /// Every live queue, in slot order.
    public func allQueues() -> [QueueRecord] {
        slots.filter { $0.record.status != .deleted }.map(\.record)
    }

    /// The queue's messages from the head (nil when there is no such queue).
    public func messages(recipientID: QueueID) -> [StoredMessage]? {
        byRecipient[recipientID].map { slots[Int($0)].messages }
    }

    /// Whether the queue's head message was delivered and awaits its ACK.
    public func isHeadDelivered(recipientID: QueueID) -> Bool {
        byRecipient[recipientID].map { slots[Int($0)].headDelivered } ?? false
    }

    // MARK: Queue lifecycle

    /// NEW: a queue with fresh random recipient and sender ids (unique in this store).
    public mutating func createQueue(
        recipientKey: AuthKey, recipientDHSecret: Key32, mode: QueueMode
    ) -> QueueRecord {
        var recipientID = environment.randomID()
        while byRecipient[recipientID] != nil { recipientID = environment.randomID() }
        var senderID = environment.randomID()
        while bySender[senderID] != nil || senderID == recipientID { senderID = environment.randomID() }
        let record = QueueRecord(
            recipientID: recipientID, senderID: senderID, recipientKey: recipientKey,
            recipientDHSecret: recipientDHSecret, mode: mode)
        commit(.queueCreated(record))
        return record
    }

    public enum SecureResult: Equatable, Sendable {
        case ok
        case noQueue
        /// Already secured with another key, or a contact queue (never secured).
        case auth
    }

    /// KEY (recipient) sets the sender key once. Repeating it with the same key is OK, so a
    /// retried KEY succeeds (as in simplexmq); another key is AUTH.
    public mutating func secure(recipientID: QueueID, senderKey: AuthKey) -> SecureResult {
        guard let slot = byRecipient[recipientID] else { return .noQueue }
        return secure(slot: slot, senderKey: senderKey)
    }

    /// SKEY (sender) sets the sender key once, on a messaging queue; same rules as KEY.
    public mutating func secure(senderID: QueueID, senderKey: AuthKey) -> SecureResult {
        guard let slot = bySender[senderID] else { return .noQueue }
        return secure(slot: slot, senderKey: senderKey)
    }

    private mutating func secure(slot: Int32, senderKey: AuthKey) -> SecureResult {
        let record = slots[Int(slot)].record
        guard record.mode == .messaging else { return .auth }
        if let existing = record.senderKey { return existing == senderKey ? .ok : .auth }
        commit(.queueSecured(recipientID: record.recipientID, senderKey: senderKey))
        return .ok
    }

    public enum QueueResult: Equatable, Sendable {
        case ok
        case noQueue
    }

    /// OFF: SENDs are refused from now on; the recipient still gets the messages already there.
    public mutating func suspend(recipientID: QueueID) -> QueueResult {
        guard let slot = byRecipient[recipientID] else { return .noQueue }
        if slots[Int(slot)].record.status != .off { commit(.queueSuspended(recipientID: recipientID)) }
        return .ok
    }

    /// DEL: the queue and its messages are gone; both ids are unknown from now on.
    public mutating func delete(recipientID: QueueID) -> QueueResult {
        guard byRecipient[recipientID] != nil else { return .noQueue }
        commit(.queueDeleted(recipientID: recipientID))
        return .ok
    }

    // MARK: Events

    /// Applies `event` and records it for the journal.
    mutating func commit(_ event: StoreEvent) {
        let applied = apply(event)
        assert(applied, "a decided event must apply: \(event)")
        if recordsEvents { pendingEvents.append(event) }
    }

    /// Applies one event; false when it does not fit the state (a corrupt or foreign journal).
    mutating func apply(_ event: StoreEvent) -> Bool {
        switch event {
        case .queueCreated(let record):
            guard byRecipient[record.recipientID] == nil, bySender[record.senderID] == nil,
                record.status != .deleted
            else { return false }
            let slot: Int32
            if let free = freeSlots.popLast() {
                slot = free
                slots[Int(slot)] = Slot(record: record)
            } else {
                slot = Int32(slots.count)
                slots.append(Slot(record: record))
            }
            byRecipient[record.recipientID] = slot
            bySender[record.senderID] = slot
        case .queueSecured(let recipientID, let senderKey):
            guard let slot = byRecipient[recipientID] else { return false }
            slots[Int(slot)].record.senderKey = senderKey
        case .queueSuspended(let recipientID):
            guard let slot = byRecipient[recipientID] else { return false }
            slots[Int(slot)].record.status = .off
        case .queueDeleted(let recipientID):
            guard let slot = byRecipient.removeValue(forKey: recipientID) else { return false }
            bySender[slots[Int(slot)].record.senderID] = nil
            slots[Int(slot)].record.status = .deleted
            slots[Int(slot)].messages = []
            slots[Int(slot)].headDelivered = false
            freeSlots.append(slot)
        case .messageAdded(let recipientID, let message):
            guard let slot = byRecipient[recipientID] else { return false }
            slots[Int(slot)].messages.append(message)
        case .messagesRemoved(let recipientID, let through):
            guard let slot = byRecipient[recipientID],
                let index = slots[Int(slot)].messages.firstIndex(where: { $0.id == through })
            else { return false }
            if index + 1 == slots[Int(slot)].messages.count {
                slots[Int(slot)].messages = []  // releases the buffer: idle queues hold no memory
            } else {
                slots[Int(slot)].messages.removeFirst(index + 1)
            }
            slots[Int(slot)].headDelivered = false
        }
        return true
    }
}
