import Foundation
import SimpleXCrypto
import SimpleXProtocol

/// A queue we receive from (a row of `rcv_queues`), with its secrets opened.
struct RcvQueue: Sendable {
    let connectionID: AgentConnectionID
    let server: SMPServerAddress
    let recipientID: EntityID
    let senderID: EntityID
    let mode: SMPQueueMode
    /// Authorizes our commands on the queue (X25519 authenticators: cheaper for the relay).
    let authKey: QueueAuthKey
    /// Opens the relay's per-queue layer of each delivery.
    let messageKey: CryptoBox.SharedKey
    /// Our per-queue e2e key pair; its public half is the `dh=` of the queue URI.
    let e2eKey: X25519.KeyPair
    /// The sender's per-queue e2e public key, learnt from its first message.
    var e2ePeerKey: [UInt8]?

    /// The URI the sender uses (in a link, or in the reply queues of a confirmation).
    var uri: SMPQueueURI {
        get throws(ProtocolError) {
            try SMPQueueURI(
                server: server, senderID: senderID, versionRange: AgentConfig.queueVersionRange,
                dhPublicKey: e2eKey.publicKey, queueMode: mode)
        }
    }
}

/// A queue we send to (a row of `snd_queues`).
struct SndQueue: Sendable {
    let connectionID: AgentConnectionID
    let server: SMPServerAddress
    let senderID: EntityID
    /// nil for a contact address: such queues are never secured, SEND goes unauthorized.
    let authKey: QueueAuthKey?
    let e2eKey: X25519.KeyPair
    let e2ePeerKey: [UInt8]
    var secured: Bool
}

extension AgentStore {
    private func queueRow(_ server: SMPServerAddress, _ id: EntityID) -> String {
        text(of: server) + "/" + id.description
    }

    func insert(_ queue: RcvQueue, rcvDHPrivateKey: SecureBytes, serverDHKey: [UInt8]) throws(AgentError) {
        let key = queueRow(queue.server, queue.recipientID)
        guard case .x25519(let auth) = queue.authKey else { throw .state("receive queues use X25519 keys") }
        try run(
            """
            INSERT INTO rcv_queues (conn_id, server, rcv_id, snd_id, queue_mode, rcv_auth_key, rcv_dh_key, server_dh_key,
              e2e_key, e2e_peer_key, status) VALUES (?,?,?,?,?,?,?,?,?,?, 'active')
            """,
            [
                queue.connectionID, text(of: queue.server), queue.recipientID.bytes, queue.senderID.bytes,
                queue.mode == .contact ? "contact" : "messaging",
                seal(auth.privateKey, column: "rcv_auth_key", row: key),
                seal(rcvDHPrivateKey, column: "rcv_dh_key", row: key),
                serverDHKey, seal(queue.e2eKey.privateKey, column: "e2e_key", row: key), queue.e2ePeerKey,
            ])
    }

    func setPeerKey(_ peerKey: [UInt8], of queue: RcvQueue) throws(AgentError) {
        rcvQueueCache[QueueCacheKey(queue)] = nil
        try run(
            "UPDATE rcv_queues SET e2e_peer_key = ? WHERE server = ? AND rcv_id = ?",
            [peerKey, text(of: queue.server), queue.recipientID.bytes])
    }

    func rcvQueues(connection: AgentConnectionID? = nil) throws(AgentError) -> [RcvQueue] {
        let sql = """
            SELECT conn_id, server, rcv_id, snd_id, queue_mode, rcv_auth_key, rcv_dh_key, server_dh_key, e2e_key, e2e_peer_key
            FROM rcv_queues WHERE status = 'active'
            """
        let found = try connection == nil ? rows(sql) : rows(sql + " AND conn_id = ?", [connection])
        // Through the cache both ways: a queue read here (all of them, when the agent starts) is
        // not decoded again for its first message, nor when the agent resubscribes.
        var queues: [RcvQueue] = []
        for row in found {
            let key = try? QueueCacheKey(
                server: address(row.decode(String.self, at: 1)), id: EntityID(row.decode([UInt8].self, at: 2))
            )
            if let key, let cached = rcvQueueCache[key] {
                queues.append(cached)
                continue
            }
            let queue = try rcvQueue(row)  // a row that cannot be read throws here
            rcvQueueCache[QueueCacheKey(queue)] = queue
            queues.append(queue)
        }
        return queues
    }

    func rcvQueue(server: SMPServerAddress, recipientID: EntityID) throws(AgentError) -> RcvQueue? {
        let key = QueueCacheKey(server: server, id: recipientID)
        if let cached = rcvQueueCache[key] { return cached }
        let queue = try readRcvQueue(server: server, recipientID: recipientID)
        rcvQueueCache[key] = queue
        return queue
    }

    private func readRcvQueue(server: SMPServerAddress, recipientID: EntityID) throws(AgentError) -> RcvQueue?
    {
        try row(
            """
            SELECT conn_id, server, rcv_id, snd_id, queue_mode, rcv_auth_key, rcv_dh_key, server_dh_key, e2e_key, e2e_peer_key
            FROM rcv_queues WHERE status = 'active' AND server = ? AND rcv_id = ?
            """, [text(of: server), recipientID.bytes]
        ).map { row throws(AgentError) in try rcvQueue(row) }
    }

    private func rcvQueue(_ row: Row) throws(AgentError) -> RcvQueue {
        do {
            let server = try address(try row.decode(String.self, at: 1))
            let recipientID = EntityID(try row.decode([UInt8].self, at: 2))
            let key = queueRow(server, recipientID)
            let auth = try X25519.keyPair(
                fromPrivateKey: try open(
                    try row.decode([UInt8].self, at: 5), column: "rcv_auth_key", row: key))
            let dhPrivate = try open(try row.decode([UInt8].self, at: 6), column: "rcv_dh_key", row: key)
            let e2e = try X25519.keyPair(
                fromPrivateKey: try open(try row.decode([UInt8].self, at: 8), column: "e2e_key", row: key))
            return RcvQueue(
                connectionID: try row.decode(String.self, at: 0), server: server, recipientID: recipientID,
                senderID: EntityID(try row.decode([UInt8].self, at: 3)),
                mode: try row.decode(String.self, at: 4) == "contact" ? .contact : .messaging,
                authKey: .x25519(auth),
                messageKey: try CryptoBox.SharedKey(
                    publicKey: try row.decode([UInt8].self, at: 7), privateKey: dhPrivate),
                e2eKey: e2e, e2ePeerKey: try row.decode([UInt8]?.self, at: 9))
        } catch let error as AgentError {
            throw error
        } catch {
            throw .store("a receive queue cannot be read: \(error)")
        }
    }

    func deleteRcvQueue(_ queue: RcvQueue) throws(AgentError) {
        rcvQueueCache[QueueCacheKey(queue)] = nil
        try run(
            "DELETE FROM rcv_queues WHERE server = ? AND rcv_id = ?",
            [text(of: queue.server), queue.recipientID.bytes])
    }

    func insert(_ queue: SndQueue) throws(AgentError) {
        let key = queueRow(queue.server, queue.senderID)
        var sealedAuth: [UInt8]?
        if let authKey = queue.authKey {
            guard case .x25519(let auth) = authKey else { throw .state("send queues use X25519 keys") }
            sealedAuth = seal(auth.privateKey, column: "snd_auth_key", row: key)
        }
        try run(
            """
            INSERT INTO snd_queues (conn_id, server, snd_id, snd_auth_key, e2e_key, e2e_peer_key, status)
            VALUES (?,?,?,?,?,?,?)
            """,
            [
                queue.connectionID, text(of: queue.server), queue.senderID.bytes, sealedAuth,
                seal(queue.e2eKey.privateKey, column: "e2e_key", row: key), queue.e2ePeerKey,
                queue.secured ? "secured" : "new",
            ])
    }

    func setSecured(_ queue: SndQueue) throws(AgentError) {
        sndQueueCache[QueueCacheKey(queue)] = nil
        sndQueueByConnection = sndQueueByConnection.filter { $0.value.senderID != queue.senderID }
        try run(
            "UPDATE snd_queues SET status = 'secured' WHERE server = ? AND snd_id = ?",
            [text(of: queue.server), queue.senderID.bytes])
    }

    /// The queue a connection's messages go to (not the contact address a request went to).
    func sndQueue(connection: AgentConnectionID) throws(AgentError) -> SndQueue? {
        if let cached = sndQueueByConnection[connection] { return cached }
        let queue = try readSndQueue(connection: connection)
        sndQueueByConnection[connection] = queue
        return queue
    }

    private func readSndQueue(connection: AgentConnectionID) throws(AgentError) -> SndQueue? {
        try row(
            """
            SELECT conn_id, server, snd_id, snd_auth_key, e2e_key, e2e_peer_key, status FROM snd_queues
            WHERE conn_id = ? AND snd_auth_key IS NOT NULL
            """, [connection]
        ).map { row throws(AgentError) in try sndQueue(row) }
    }

    func sndQueue(server: SMPServerAddress, senderID: EntityID) throws(AgentError) -> SndQueue? {
        let key = QueueCacheKey(server: server, id: senderID)
        if let cached = sndQueueCache[key] { return cached }
        let queue = try readSndQueue(server: server, senderID: senderID)
        sndQueueCache[key] = queue
        return queue
    }

    private func readSndQueue(server: SMPServerAddress, senderID: EntityID) throws(AgentError) -> SndQueue? {
        try row(
            """
            SELECT conn_id, server, snd_id, snd_auth_key, e2e_key, e2e_peer_key, status FROM snd_queues
            WHERE server = ? AND snd_id = ?
            """, [text(of: server), senderID.bytes]
        ).map { row throws(AgentError) in try sndQueue(row) }
    }

    private func sndQueue(_ row: Row) throws(AgentError) -> SndQueue {
        do {
            let connection = try row.decode(String.self, at: 0)
            let server = try address(try row.decode(String.self, at: 1))
            let senderID = EntityID(try row.decode([UInt8].self, at: 2))
            let key = queueRow(server, senderID)
            let auth = try row.decode([UInt8]?.self, at: 3).map { sealed in
                QueueAuthKey.x25519(
                    try X25519.keyPair(fromPrivateKey: try open(sealed, column: "snd_auth_key", row: key)))
            }
            return SndQueue(
                connectionID: connection, server: server, senderID: senderID, authKey: auth,
                e2eKey: try X25519.keyPair(
                    fromPrivateKey: try open(try row.decode([UInt8].self, at: 4), column: "e2e_key", row: key)
                ),
                e2ePeerKey: try row.decode([UInt8].self, at: 5),
                secured: try row.decode(String.self, at: 6) == "secured")
        } catch let error as AgentError {
            throw error
        } catch {
            throw .store("a send queue cannot be read: \(error)")
        }
    }
}

extension AgentStore.QueueCacheKey {
    /// A receive queue's key: its relay and recipient id.
    init(_ queue: RcvQueue) { self.init(server: queue.server, id: queue.recipientID) }
    /// A send queue's key: its relay and sender id.
    init(_ queue: SndQueue) { self.init(server: queue.server, id: queue.senderID) }
}
