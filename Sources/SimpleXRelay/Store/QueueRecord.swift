import Foundation

/// Whether anyone holding the link may send (contact address) or the queue gets secured with one
/// sender's key (messaging: the recipient's KEY or the sender's SKEY).
public enum QueueMode: UInt8, Sendable {
    case messaging = 1
    case contact = 2
}

/// A queue's status. `off` (OFF): no more SENDs, messages still retrievable. `deleted` marks a
/// freed slot inside the store; no lookup ever returns a deleted queue.
public enum QueueStatus: UInt8, Sendable {
    case active = 1
    case off = 2
    case deleted = 3
}

/// What the relay keeps per queue.
///
/// To re-encrypt every MSG for the recipient after a restart the relay needs only the DH shared
/// secret of its per-queue X25519 key and the recipient's DH public key (`crypto_box_beforenm`);
/// neither the server's private key nor the recipient's public key is used after NEW, so only the
/// 32-byte secret is stored, as simplexmq stores `rcvDhSecret`. The secret sits in the store's plain
/// memory and files (not in guarded sodium memory: a guarded allocation per queue would cost pages
/// per queue at a million queues); the store directory is 0700 and its files 0600.
public struct QueueRecord: Equatable, Sendable {
    public let recipientID: QueueID
    public let senderID: QueueID
    public let recipientKey: AuthKey
    public internal(set) var senderKey: AuthKey?
    public let recipientDHSecret: Key32
    public let mode: QueueMode
    public internal(set) var status: QueueStatus

    public init(
        recipientID: QueueID, senderID: QueueID, recipientKey: AuthKey, senderKey: AuthKey? = nil,
        recipientDHSecret: Key32, mode: QueueMode, status: QueueStatus = .active
    ) {
        self.recipientID = recipientID
        self.senderID = senderID
        self.recipientKey = recipientKey
        self.senderKey = senderKey
        self.recipientDHSecret = recipientDHSecret
        self.mode = mode
        self.status = status
    }
}

/// SEND flags (SMP `MsgFlags`): whether the recipient's notification server should be told.
public struct StoredMessageFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let notification = StoredMessageFlags(rawValue: 1)
}

/// A message waiting in a queue: a sender's message, or the quota marker the relay appends when
/// a SEND finds the queue full.
public struct StoredMessage: Equatable, Sendable {
    public enum Content: Equatable, Sendable {
        case message(flags: StoredMessageFlags, body: [UInt8])
        /// Delivered to the recipient as the QUOTA marker after the messages before it.
        case quotaExceeded
    }

    public let id: MessageID
    /// Seconds since the Unix epoch (SMP `SystemTime` as sent in MSG).
    public let timestamp: Int64
    public let content: Content

    public init(id: MessageID, timestamp: Int64, content: Content) {
        self.id = id
        self.timestamp = timestamp
        self.content = content
    }

    public var isQuotaMarker: Bool {
        if case .quotaExceeded = content { return true }
        return false
    }
}

/// Limits of a queue store.
public struct QueueStoreConfiguration: Sendable {
    /// Messages a queue holds before SEND gets quota-exceeded (SMP default 128).
    public var quota: Int
    /// Messages older than this are removed (SMP default 21 days).
    public var messageTTL: Duration

    public init(quota: Int = 128, messageTTL: Duration = .seconds(21 * 86_400)) {
        precondition(quota >= 1, "a queue must hold at least one message")
        self.quota = quota
        self.messageTTL = messageTTL
    }
}

/// The effects the store depends on, injected so tests control time and ids.
public struct StoreEnvironment: Sendable {
    public var now: @Sendable () -> Date
    /// 24 random bytes for a new recipient, sender or message id.
    public var randomID: @Sendable () -> QueueID

    public init(now: @escaping @Sendable () -> Date, randomID: @escaping @Sendable () -> QueueID) {
        self.now = now
        self.randomID = randomID
    }

    /// The system clock and the system CSPRNG (getrandom(2)).
    public static let live = StoreEnvironment(
        now: { Date() },
        randomID: {
            var generator = SystemRandomNumberGenerator()
            return QueueID(w0: generator.next(), w1: generator.next(), w2: generator.next())
        })
}

/// A change to the store, as journaled and replayed. Operations decide, then apply events;
/// replay applies the same events, so the state after a restart is the state before it.
public enum StoreEvent: Equatable, Sendable {
    case queueCreated(QueueRecord)
    case queueSecured(recipientID: QueueID, senderKey: AuthKey)
    case queueSuspended(recipientID: QueueID)
    case queueDeleted(recipientID: QueueID)
    case messageAdded(recipientID: QueueID, StoredMessage)
    /// Removes the queue's messages from the head up to and including `through` (ACK, expiry).
    case messagesRemoved(recipientID: QueueID, through: MessageID)
}
