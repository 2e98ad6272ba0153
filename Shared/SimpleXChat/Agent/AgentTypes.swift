import Foundation
import SimpleXCrypto
import SimpleXProtocol

/// A connection's id in the agent: 12 random bytes, base64url (as SimpleX's agent connection ids).
public typealias AgentConnectionID = String

/// What the agent tells its user (the chat core, or a test) without being asked.
public enum AgentEvent: Equatable, Sendable {
    /// The joiner's confirmation arrived on an invitation we made: its connInfo (profile) is
    /// here; `allowConnection` completes the connection (SimpleX `CONF`).
    case confirmation(connection: AgentConnectionID, peerInfo: [UInt8])
    /// The inviting side's connInfo arrived on a connection we joined (SimpleX `INFO`).
    case info(connection: AgentConnectionID, peerInfo: [UInt8])
    /// Both sides can now send (SimpleX `CON`).
    case connected(connection: AgentConnectionID)
    /// Someone used our contact address; accept with `acceptContact`, or `rejectContact` (SimpleX `REQ`).
    case contactRequest(address: AgentConnectionID, invitationID: String, peerInfo: [UInt8])
    /// A message, in order; acknowledge with `ackMessage` once processed (SimpleX `MSG`). Until
    /// then it is delivered again after a restart.
    case message(connection: AgentConnectionID, message: AgentReceivedMessage)
    /// The relay accepted a message we sent (SimpleX `SENT`).
    case sent(connection: AgentConnectionID, agentMsgID: Int64)
    /// The peer's receipt for a message we sent (SimpleX `RCVD`): ok, or the hash did not match.
    case delivered(connection: AgentConnectionID, agentMsgID: Int64, hashMatched: Bool)
    /// A message we sent could not be delivered and will not be retried (SimpleX `MERR`).
    case sendFailed(connection: AgentConnectionID, agentMsgID: Int64?, reason: String)
    /// A message arrived that the agent dropped: a duplicate, or one that failed to decrypt or parse.
    case receiveFailed(connection: AgentConnectionID, reason: AgentReceiveFailure)
    /// Another process subscribed to this connection's queue; this one stops receiving on it (SimpleX `END`).
    case subscriptionEnded(connection: AgentConnectionID)
    /// A relay connection went down or came back (SimpleX `DOWN` / `UP`).
    case relayDown(server: String)
    case relayUp(server: String)
}

/// Why a received message was dropped.
public enum AgentReceiveFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The same encrypted message arrived again (a replay, or a resend whose OK was lost).
    case duplicate
    /// It did not decrypt (tampered, or not for this queue).
    case decryption(String)
    /// Its double-ratchet layer did not decrypt: the ratchet's reason (a header no key opens, a
    /// message key used already, too many skipped).
    case ratchet(RatchetError)
    /// It decrypted but its structure is invalid or unknown.
    case invalid(String)

    public var description: String {
        switch self {
        case .duplicate: "duplicate message"
        case .decryption(let why): "cannot decrypt: \(why)"
        case .ratchet(let error): "cannot decrypt: \(error)"
        case .invalid(let why): "invalid message: \(why)"
        }
    }
}

/// A message as the agent delivers it.
public struct AgentReceivedMessage: Equatable, Sendable {
    /// The sender's message number on this connection; `ackMessage` takes it back.
    public let agentMsgID: Int64
    /// Whether the ids and the hash chain were as expected.
    public let integrity: MessageIntegrity
    /// The A_MSG body (for the chat core, its chat protocol JSON).
    public let body: [UInt8]

    public init(agentMsgID: Int64, integrity: MessageIntegrity, body: [UInt8]) {
        self.agentMsgID = agentMsgID
        self.integrity = integrity
        self.body = body
    }
}

/// The integrity check of one received message against the one before it (SimpleX `MsgIntegrity`).
public enum MessageIntegrity: Equatable, Sendable, CustomStringConvertible {
    case ok
    /// Messages `from...to` never arrived (SimpleX `MsgSkipped`).
    case skipped(from: Int64, to: Int64)
    /// The id is lower than expected (SimpleX `MsgBadId`).
    case badID(Int64)
    /// The id is right but the previous message's hash is not (SimpleX `MsgBadHash`).
    case badHash
    /// The id is the previous message's again, but the message is another (SimpleX
    /// `MsgDuplicate`; the same message again is dropped before this check).
    case duplicate

    public var description: String {
        switch self {
        case .ok: "ok"
        case .skipped(let from, let to): "skipped \(from)-\(to)"
        case .badID(let id): "badId \(id)"
        case .badHash: "badHash"
        case .duplicate: "duplicate"
        }
    }

    init?(stored: String) {
        let parts = stored.split(separator: " ")
        switch parts.first {
        case "ok": self = .ok
        case "badHash": self = .badHash
        case "duplicate": self = .duplicate
        case "badId" where parts.count == 2:
            if let id = Int64(parts[1]) { self = .badID(id) } else { return nil }
        case "skipped" where parts.count == 2:
            let range = parts[1].split(separator: "-")
            guard range.count == 2, let from = Int64(range[0]), let to = Int64(range[1]) else { return nil }
            self = .skipped(from: from, to: to)
        default: return nil
        }
    }

    /// The check for a message with `id` and `previousHash` after `lastID`/`lastHash` (reference §3).
    /// A repeated id never reaches here: duplicates are dropped by their hash first.
    public static func check(id: Int64, previousHash: [UInt8], lastID: Int64, lastHash: [UInt8])
        -> MessageIntegrity
    {
        if id < lastID { return .badID(id) }
        if id == lastID { return .duplicate }
        if id > lastID + 1 { return .skipped(from: lastID + 1, to: id - 1) }
        return previousHash == lastHash ? .ok : .badHash
    }
}

/// Errors of agent commands.
public enum AgentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The link is malformed, foreign, or of an incompatible version.
    case link(String)
    /// No connection (or contact request) with this id.
    case notFound(String)
    /// The command does not fit the connection's state (e.g. sending before it is connected).
    case state(String)
    /// The relay refused or could not be reached.
    case relay(String)
    /// The agent database or its secrets.
    case store(String)
    /// Encryption or decryption failed.
    case crypto(String)
    /// The user has no relays configured.
    case noServers

    public var description: String {
        switch self {
        case .link(let why): "bad link: \(why)"
        case .notFound(let what): "not found: \(what)"
        case .state(let why): "not possible now: \(why)"
        case .relay(let why): "relay: \(why)"
        case .store(let why): "agent store: \(why)"
        case .crypto(let why): "encryption: \(why)"
        case .noServers: "no relays configured: add one with -s smp://..."
        }
    }
}
