import Foundation
import SimpleXProtocol

/// What a row of the send queue carries.
enum SndMessageKind: String, Sendable {
    /// The joiner's confirmation, the inviter's reply confirmation, a request to a contact address.
    case confirmation, replyConfirmation = "reply_confirmation", invitation
    case message, receipt, hello
    /// A_QCONT: the queue the peer sends to was full and is drained (`Agent.queueDrained`).
    case queueContinue = "queue_continue"
}

/// A message waiting in (or done with) the persistent send queue.
struct SndMessage: Sendable {
    let id: Int64
    let connectionID: AgentConnectionID
    let server: SMPServerAddress
    let senderID: EntityID
    let kind: SndMessageKind
    let agentMsgID: Int64?
    let body: [UInt8]
}

/// A received message as the agent stored it.
struct RcvMessage: Sendable {
    let connectionID: AgentConnectionID
    let agentMsgID: Int64
    let body: [UInt8]
    let integrity: MessageIntegrity
    let server: SMPServerAddress
    let recipientID: EntityID
    let serverMsgID: [UInt8]
    let userAck: Bool
    let relayAck: Bool
    /// The hash of its AgentMessage, which a receipt for it carries.
    let msgHash: [UInt8]

    /// The message as the app is given it.
    var forApp: AgentReceivedMessage {
        AgentReceivedMessage(agentMsgID: agentMsgID, integrity: integrity, body: body)
    }
}

/// A received message, by its connection and agent message id.
struct AppMessage: Hashable, Sendable {
    let connection: AgentConnectionID
    let agentMsgID: Int64
}

extension AgentStore {
    // MARK: Send queue

    @discardableResult
    func enqueue(
        connection: AgentConnectionID, queue: SndQueue, kind: SndMessageKind, agentMsgID: Int64?,
        msgHash: [UInt8]?, body: [UInt8]
    ) throws(AgentError) -> Int64 {
        try run(
            """
            INSERT INTO snd_messages (conn_id, server, snd_id, kind, agent_msg_id, msg_hash, body, status, created_at)
            VALUES (?,?,?,?,?,?,?, 'pending', ?)
            """,
            [
                connection, text(of: queue.server), queue.senderID.bytes, kind.rawValue, agentMsgID, msgHash,
                body, now(),
            ])
        return database.lastInsertRowID
    }

    /// The oldest pending message of a connection: messages leave in the order they were enqueued
    /// (after the last one sent, whose status may not be written yet).
    func nextPending(connection: AgentConnectionID) throws(AgentError) -> SndMessage? {
        guard
            let row = try row(
                """
                SELECT \(Self.sndMessageColumns) FROM snd_messages
                WHERE conn_id = ? AND status = 'pending' AND snd_message_id > ?
                ORDER BY snd_message_id LIMIT 1
                """, [connection, sentNotRecorded[connection] ?? 0])
        else { return nil }
        return try sndMessage(row)
    }

    func sndMessage(id: Int64) throws(AgentError) -> SndMessage? {
        guard
            let row = try row(
                "SELECT \(Self.sndMessageColumns) FROM snd_messages WHERE snd_message_id = ?", [id])
        else { return nil }
        return try sndMessage(row)
    }

    private static let sndMessageColumns = "snd_message_id, server, snd_id, kind, agent_msg_id, body, conn_id"

    private func sndMessage(_ row: Row) throws(AgentError) -> SndMessage {
        do {
            let connection = try row.decode(String.self, at: 6)
            guard let kind = SndMessageKind(rawValue: try row.decode(String.self, at: 3)) else {
                throw AgentError.store("a queued message of an unknown kind")
            }
            return SndMessage(
                id: try row.decode(Int64.self, at: 0), connectionID: connection,
                server: try address(try row.decode(String.self, at: 1)),
                senderID: EntityID(try row.decode([UInt8].self, at: 2)),
                kind: kind, agentMsgID: try row.decode(Int64?.self, at: 4),
                body: try row.decode([UInt8].self, at: 5))
        } catch let error as AgentError {
            throw error
        } catch {
            throw .store("a queued message cannot be read: \(error)")
        }
    }

    func connectionsWithPendingMessages() throws(AgentError) -> [AgentConnectionID] {
        try column("conn_id", "SELECT DISTINCT conn_id FROM snd_messages WHERE status = 'pending'")
    }

    func setStatus(_ status: String, sndMessage id: Int64) throws(AgentError) {
        try run("UPDATE snd_messages SET status = ? WHERE snd_message_id = ?", [status, id])
    }

    /// A message the relay accepted (a deferred write): its bytes are no longer needed, except the
    /// connection's latest (kept so a test can replay it), so the send queue's size stays bounded.
    func markSent(_ message: SndMessage) {
        // Only from pending: a receipt may have marked it delivered before this is written.
        deferWrite(
            "UPDATE snd_messages SET status = 'sent' WHERE snd_message_id = ? AND status = 'pending'",
            [message.id])
        deferWrite(
            "UPDATE snd_messages SET body = x'' WHERE conn_id = ? AND snd_message_id < ? AND status != 'pending' AND length(body) > 0",
            [message.connectionID, message.id])
        sentNotRecorded[message.connectionID] = max(sentNotRecorded[message.connectionID] ?? 0, message.id)
    }

    /// The hash a receipt should carry for `agentMsgID`, and whether it is still waiting for one.
    func sentMessageHash(connection: AgentConnectionID, agentMsgID: Int64) throws(AgentError) -> [UInt8]? {
        let hashes: [[UInt8]] = try column(
            "msg_hash",
            "SELECT msg_hash FROM snd_messages WHERE conn_id = ? AND agent_msg_id = ? AND kind = 'message'",
            [connection, agentMsgID])
        return hashes.first
    }

    func markDelivered(connection: AgentConnectionID, agentMsgID: Int64) throws(AgentError) {
        try run(
            "UPDATE snd_messages SET status = 'delivered' WHERE conn_id = ? AND agent_msg_id = ?",
            [connection, agentMsgID])
    }

    // MARK: Received messages

    /// A message received earlier with the same encrypted bytes, if any.
    func receivedMessage(connection: AgentConnectionID, encHash: [UInt8]) throws(AgentError) -> RcvMessage? {
        try row(
            """
            SELECT \(Self.rcvColumns) FROM rcv_messages r WHERE conn_id = ? AND enc_hash = ?
            """, [connection, encHash]
        ).map { row throws(AgentError) in try rcvMessage(row) }
    }

    func insertReceived(
        connection: AgentConnectionID, agentMsgID: Int64, encHash: [UInt8], msgHash: [UInt8], body: [UInt8],
        integrity: MessageIntegrity,
        queue: RcvQueue, serverMsgID: [UInt8], userAck: Bool
    ) throws(AgentError) {
        try run(
            """
            INSERT INTO rcv_messages (conn_id, agent_msg_id, enc_hash, msg_hash, body, integrity, server, rcv_id, server_msg_id,
              user_ack, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)
            """,
            [
                connection, agentMsgID, encHash, msgHash, body, integrity.description, text(of: queue.server),
                queue.recipientID.bytes,
                serverMsgID, userAck, now(),
            ])
    }

    /// What acknowledging received message `agentMsgID` by the app needs: whether the app has
    /// acknowledged it already (a write not yet committed counts) and the hash its receipt
    /// carries; nil when there is no such message. Two columns, not the row with its body.
    func appAcknowledgement(connection: AgentConnectionID, agentMsgID: Int64) throws(AgentError)
        -> (userAck: Bool, msgHash: [UInt8])?
    {
        guard
            let row = try row(
                """
                SELECT user_ack, msg_hash FROM rcv_messages WHERE conn_id = ? AND agent_msg_id = ?
                ORDER BY rcv_message_id DESC LIMIT 1
                """, [connection, agentMsgID])
        else { return nil }
        do {
            return (
                try row.decode(Bool.self, at: 0) || userAckDeferred(connection, agentMsgID),
                try row.decode([UInt8].self, at: 1)
            )
        } catch {
            throw .store("a received message cannot be read: \(error)")
        }
    }

    /// The app has processed the message (a deferred write). Its body is dropped then: it is
    /// delivered again only while unacknowledged, and kept longer it would outlive the chat item
    /// (a message deleted by the user or by its timer would still be readable here). The row
    /// stays, for duplicates. Lost in a crash, the write only means the app is given the
    /// message again at the next start, which it recognises.
    func setUserAck(connection: AgentConnectionID, agentMsgID: Int64) {
        deferWrite(
            "UPDATE rcv_messages SET user_ack = 1, body = x'' WHERE conn_id = ? AND agent_msg_id = ?",
            [connection, agentMsgID])
        userAcksNotRecorded.insert(AppMessage(connection: connection, agentMsgID: agentMsgID))
    }

    /// Whether the app's acknowledgement of the message is written but not yet committed.
    private func userAckDeferred(_ connection: AgentConnectionID, _ agentMsgID: Int64) -> Bool {
        !userAcksNotRecorded.isEmpty
            && userAcksNotRecorded.contains(AppMessage(connection: connection, agentMsgID: agentMsgID))
    }

    /// The messages the app has not acknowledged, oldest first on each connection (deleted
    /// connections left out): delivered to it again when the agent starts.
    func unacknowledgedByApp() throws(AgentError) -> [RcvMessage] {
        try rows(Self.unacknowledgedByAppSQL).map { row throws(AgentError) in try rcvMessage(row) }
    }

    static let unacknowledgedByAppSQL = """
        SELECT \(rcvColumns) FROM rcv_messages r JOIN connections c ON c.conn_id = r.conn_id
        WHERE r.user_ack = 0 AND c.status != 'deleted'
        ORDER BY r.conn_id, r.agent_msg_id, r.rcv_message_id
        """

    /// The relay has been told: a deferred write.
    func setAcknowledged(connection: AgentConnectionID, agentMsgID: Int64, serverMsgID: [UInt8]) {
        deferWrite(Self.relayAcknowledged, [connection, agentMsgID, serverMsgID])
        acksNotRecorded.insert(RelayAck(connection: connection, serverMsgID: serverMsgID))
    }

    /// `setAcknowledged`'s write: the row found by its agent message id (indexed), told apart
    /// from a repeated id by the relay's.
    static let relayAcknowledged = """
        UPDATE rcv_messages SET relay_ack = 1
        WHERE conn_id = ?1 AND agent_msg_id = ?2 AND server_msg_id = ?3 AND relay_ack = 0
        """

    /// The columns `rcvMessage` reads, of `rcv_messages r`.
    static let rcvColumns = """
        r.conn_id, r.agent_msg_id, r.body, r.integrity, r.server, r.rcv_id, r.server_msg_id, r.user_ack, r.relay_ack,
          r.msg_hash
        """

    /// A row as stored, with an acknowledgement not yet written applied.
    private func rcvMessage(_ row: Row) throws(AgentError) -> RcvMessage {
        do {
            let connection = try row.decode(String.self, at: 0)
            let serverMsgID = try row.decode([UInt8].self, at: 6)
            let agentMsgID = try row.decode(Int64.self, at: 1)
            let deferredAck =
                !acksNotRecorded.isEmpty
                && acksNotRecorded.contains(RelayAck(connection: connection, serverMsgID: serverMsgID))
            return RcvMessage(
                connectionID: connection, agentMsgID: agentMsgID,
                body: try row.decode([UInt8].self, at: 2),
                integrity: MessageIntegrity(stored: try row.decode(String.self, at: 3)) ?? .ok,
                server: try address(try row.decode(String.self, at: 4)),
                recipientID: EntityID(try row.decode([UInt8].self, at: 5)),
                serverMsgID: serverMsgID,
                userAck: try row.decode(Bool.self, at: 7) || userAckDeferred(connection, agentMsgID),
                relayAck: try row.decode(Bool.self, at: 8) || deferredAck,
                msgHash: try row.decode([UInt8].self, at: 9))
        } catch {
            throw .store("a received message cannot be read: \(error)")
        }
    }

    // MARK: Contact requests

    func insertContactRequest(
        id: String, address: AgentConnectionID, connRequest: String, connInfo: [UInt8], encHash: [UInt8]
    ) throws(AgentError) {
        try run(
            "INSERT INTO contact_requests (invitation_id, conn_id, conn_request, conn_info, enc_hash, created_at) VALUES (?,?,?,?,?,?)",
            [id, address, connRequest, connInfo, encHash, now()])
    }

    func contactRequestExists(encHash: [UInt8]) throws(AgentError) -> Bool {
        try row("SELECT 1 FROM contact_requests WHERE enc_hash = ?", [encHash]) != nil
    }

    func contactRequest(_ id: String) throws(AgentError) -> (address: AgentConnectionID, connRequest: String)
    {
        guard
            let row = try row(
                "SELECT conn_id, conn_request FROM contact_requests WHERE invitation_id = ?", [id])
        else {
            throw .notFound("contact request \(id)")
        }
        return (try value(row, "conn_id"), try value(row, "conn_request"))
    }

    func deleteContactRequest(_ id: String) throws(AgentError) {
        try run("DELETE FROM contact_requests WHERE invitation_id = ?", [id])
    }

    // MARK: Expiry

    /// Deletes the records of messages done with before `cutoff`, as SimpleX's agent drops its
    /// own after 30 days, so the database does not grow with every message for good: received
    /// messages both the app and the relay have acknowledged (their hashes catch a message
    /// delivered twice; a replay of an older one fails the ratchet instead, its key long gone,
    /// and is reported as undecryptable, never shown again), and sent messages no longer waiting
    /// to leave (a receipt for one that comes later is ignored). Returns how many of each.
    func deleteExpiredRecords(before cutoff: Date) throws(AgentError) -> (received: Int, sent: Int) {
        try transaction { () throws(AgentError) -> (received: Int, sent: Int) in
            try run(
                "DELETE FROM rcv_messages WHERE created_at < ? AND user_ack = 1 AND relay_ack = 1", [cutoff])
            let received = database.changes
            try run("DELETE FROM snd_messages WHERE created_at < ? AND status != 'pending'", [cutoff])
            return (received, database.changes)
        }
    }
}
