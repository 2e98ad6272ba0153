import SimpleXProtocol

extension Agent {
    /// Test hook: SENDs the connection's last sent message again (sealed afresh, as a resend
    /// after a lost OK is, so the bytes on the wire differ but the message is the same), as an
    /// attacker holding the queue key could; with `tamper`, one ciphertext byte is flipped first. The receiving agent must detect both (duplicate; decryption failure).
    @_spi(Testing)
    public func resendLastMessage(_ id: AgentConnectionID, tamper: Bool) async throws(AgentError) {
        guard let last = try store.lastSentMessage(connection: id),
            let queue = try store.sndQueue(server: last.server, senderID: last.senderID)
        else { throw .notFound("a sent message on \(id)") }
        var body = try last.sealed(for: queue, store: store)
        if tamper { body[body.count - 40] ^= 0x01 }
        do {
            try await client(for: queue.server).sendMessage(
                senderID: queue.senderID, key: queue.authKey, body: body)
        } catch let error as AgentError {
            throw error
        } catch {
            throw .relay("\(error)")
        }
    }
}

extension Agent {
    /// Test hook: encrypts a message as `sendMessage` does (its id, hash chain and ratchet step
    /// are used up) but never sends it, as if the relay lost it; the receiver must report the
    /// gap (`skipped`) on the next message and still decrypt it.
    @_spi(Testing)
    public func loseMessage(_ id: AgentConnectionID, body: [UInt8]) throws(AgentError) {
        let agentMsgID = try enqueueMessage(id, .message(body: body), kind: .message)
        try store.run("DELETE FROM snd_messages WHERE conn_id = ? AND agent_msg_id = ?", [id, agentMsgID])
    }
}

extension AgentStore {
    func lastSentMessage(connection: AgentConnectionID) throws(AgentError) -> SndMessage? {
        try flushDeferred()
        guard
            let row = try row(
                """
                SELECT snd_message_id FROM snd_messages WHERE conn_id = ? AND kind = 'message' AND status != 'pending'
                ORDER BY snd_message_id DESC LIMIT 1
                """, [connection])
        else { return nil }
        let id: Int64 = try value(row, "snd_message_id")
        return try sndMessage(id: id)
    }
}

extension Agent {
    /// Test hook: the next group commit (of received or sent messages) fails and is rolled
    /// back, as a full disk would make it; none of its messages may reach the app or the relay.
    @_spi(Testing)
    public func failNextGroupCommit() { store.failNextBatchCommit = true }
}
