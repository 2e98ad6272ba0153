import Foundation
import SimpleXCrypto
import SimpleXProtocol

/// SMP commands against the store (loop thread). Replies go into the session's pending list and
/// leave after the turn's journal commit; deliveries to other subscribers likewise.
extension RelayCore {
    func process(_ bytes: [UInt8], on session: RelaySession, transport: TransportSession) {
        let transmission: SMPTransmission
        do {
            transmission = try SMPTransmission.decode(bytes)
        } catch {
            statistics.badBlocks += 1
            return session.enqueue(.err(.block), correlationID: .empty, entityID: .empty)
        }
        let reply = { (response: SMPResponse) in
            session.enqueue(response, correlationID: transmission.correlationID, entityID: transmission.entityID)
        }
        let command: SMPCommand
        switch transmission.decodeCommand() {
        case .failure(let error): return reply(.err(error))
        case .success(let decoded): command = decoded
        }
        // SimpleX accepts no authorization, a 64-byte signature or an 80-byte authenticator.
        guard [0, 64, CommandAuthorization.authenticatorCount].contains(transmission.authorization.count) else {
            return reply(.err(.block))
        }
        let context = CommandContext(server: self, session: session, transport: transport, transmission: transmission)
        reply(context.run(command))
    }
}

/// One command's execution: authorization, then the store.
struct CommandContext {
    let server: RelayCore
    let session: RelaySession
    let transport: TransportSession
    let transmission: SMPTransmission

    var store: DurableQueueStore { server.store }

    func run(_ command: SMPCommand) -> SMPResponse {
        switch command {
        case .ping: return .pong
        case .new(let authKey, let dhKey, let subscriptionMode, let queueMode):
            return create(authKey: authKey, dhKey: dhKey, subscriptionMode: subscriptionMode, queueMode: queueMode)
        case .skey(let senderKey):
            return secureBySender(senderKey)
        case .send(let flags, let body):
            return send(flags: flags, body: body)
        case .sub, .key, .ack, .get, .off, .del:
            guard let id = QueueID(bytes: transmission.entityID.bytes),
                let record = store.store.queue(recipientID: id), authorized(by: record.recipientKey)
            else {
                server.statistics.authFailures += 1
                return .err(.auth)
            }
            return recipientCommand(command, queue: id)
        }
    }

    // MARK: Recipient

    private func recipientCommand(_ command: SMPCommand, queue id: QueueID) -> SMPResponse {
        switch command {
        case .sub:
            server.statistics.subscriptions += 1
            subscribe(id)
            switch update({ $0.subscribe(recipientID: id) }) {
            case .message(let message)?: return delivery(message, queue: id) ?? .err(.internal)
            case .empty?: return .ok
            case .noQueue?, nil: return .err(.auth)
            }
        case .key(let senderKey):
            guard let key = AuthKey(senderKey) else { return .err(.cmd(.syntax)) }
            return secureResult(update { $0.secure(recipientID: id, senderKey: key) })
        case .ack(let messageIDBytes):
            guard let messageID = MessageID(bytes: messageIDBytes) else { return .err(.noMsg) }
            switch update({ $0.ack(recipientID: id, messageID: messageID) }) {
            case .ok?:
                // The next message goes to the subscriber: as this reply when it is this session.
                guard let subscriber = server.subscribers[id],
                    let next = update({ $0.deliverNext(recipientID: id) }) ?? nil
                else { return .ok }
                if subscriber === session { return delivery(next, queue: id) ?? .ok }
                deliver(next, queue: id, to: subscriber)
                return .ok
            case .noMessage?: return .err(.noMsg)
            case .noQueue?, nil: return .err(.auth)
            }
        case .get:
            server.statistics.gets += 1
            switch update({ $0.get(recipientID: id) }) {
            case .message(let message)?: return delivery(message, queue: id) ?? .err(.internal)
            case .empty?: return .ok
            case .noQueue?, nil: return .err(.auth)
            }
        case .off:
            return update({ $0.suspend(recipientID: id) }) == .ok ? .ok : .err(.auth)
        case .del:
            guard update({ $0.delete(recipientID: id) }) == .ok else { return .err(.auth) }
            if let subscriber = server.subscribers.removeValue(forKey: id) {
                subscriber.subscriptions.remove(id)
                if subscriber !== session {
                    subscriber.enqueue(.deld, correlationID: .empty, entityID: transmission.entityID)
                }
            }
            server.statistics.queuesDeleted += 1
            return .ok
        default:
            return .err(.internal)
        }
    }

    /// Makes this session the queue's subscriber; the previous one gets END.
    private func subscribe(_ id: QueueID) {
        if let previous = server.subscribers[id], previous !== session {
            previous.subscriptions.remove(id)
            previous.enqueue(.end, correlationID: .empty, entityID: EntityID(id.bytes))
            server.statistics.subscriptionsEnded += 1
        }
        server.subscribers[id] = session
        session.subscriptions.insert(id)
    }

    // MARK: NEW, SKEY, SEND

    private func create(
        authKey: AuthPublicKey, dhKey: [UInt8], subscriptionMode: SubscriptionMode, queueMode: SMPQueueMode
    ) -> SMPResponse {
        guard let recipientKey = AuthKey(authKey), authorized(by: recipientKey) else {
            server.statistics.authFailures += 1
            return .err(.auth)
        }
        let serverDH = X25519.generateKeyPair()
        guard let shared = try? CryptoBox.SharedKey(publicKey: dhKey, privateKey: serverDH.privateKey),
            let secret = shared.precomputed.withUnsafeBytes({ Key32(bytes: Array($0)) })
        else { return .err(.cmd(.syntax)) }
        let mode: QueueMode = queueMode == .messaging ? .messaging : .contact
        guard let record = update({ $0.createQueue(recipientKey: recipientKey, recipientDHSecret: secret, mode: mode) })
        else { return .err(.internal) }
        server.statistics.queuesCreated += 1
        if subscriptionMode == .subscribe { subscribe(record.recipientID) }
        return .ids(
            recipientID: EntityID(record.recipientID.bytes), senderID: EntityID(record.senderID.bytes),
            serverDHKey: serverDH.publicKey, queueMode: queueMode)
    }

    private func secureBySender(_ senderKey: AuthPublicKey) -> SMPResponse {
        // SKEY is signed by the key it sets, like NEW.
        guard let id = QueueID(bytes: transmission.entityID.bytes), let key = AuthKey(senderKey),
            store.store.queue(senderID: id) != nil, authorized(by: key)
        else {
            server.statistics.authFailures += 1
            return .err(.auth)
        }
        return secureResult(update { $0.secure(senderID: id, senderKey: key) })
    }

    private func send(flags: MessageFlags, body: [UInt8]) -> SMPResponse {
        guard let id = QueueID(bytes: transmission.entityID.bytes), let record = store.store.queue(senderID: id)
        else {
            server.statistics.authFailures += 1
            return .err(.auth)
        }
        // A secured queue takes only its sender's signed SENDs; an unsecured one only unsigned.
        let allowed = record.senderKey.map(authorized(by:)) ?? transmission.authorization.isEmpty
        guard allowed else {
            server.statistics.authFailures += 1
            return .err(.auth)
        }
        guard body.count <= ReceivedMessageBody.maxBodySize else { return .err(.largeMsg) }
        let stored = StoredMessageFlags(rawValue: flags.notification ? StoredMessageFlags.notification.rawValue : 0)
        switch update({ $0.send(senderID: id, flags: stored, body: body) }) {
        case .stored?:
            server.statistics.messagesIn += 1
            let recipientID = record.recipientID
            if let subscriber = server.subscribers[recipientID],
                let next = update({ $0.deliverNext(recipientID: recipientID) }) ?? nil
            {
                deliver(next, queue: recipientID, to: subscriber)
            }
            return .ok
        case .quotaExceeded?:
            server.statistics.quotaExceeded += 1
            return .err(.quota)
        case .noQueue?, .auth?, nil:
            return .err(.auth)
        }
    }

    // MARK: Helpers

    /// Whether the transmission carries a valid signature or authenticator by `key`.
    private func authorized(by key: AuthKey) -> Bool {
        let authorization = transmission.authorization
        let signed = transmission.signedBytes(sessionID: transport.sessionID)
        switch key.algorithm {
        case .ed25519:
            return authorization.count == 64
                && CommandAuthorization.verify(authorization, signedBytes: signed, publicKey: key.key.bytes)
        case .x25519:
            guard authorization.count == CommandAuthorization.authenticatorCount else { return false }
            let authenticatorKey: QueueAuthenticatorKey
            if let cached = session.authenticatorKeys[key.key] {
                authenticatorKey = cached
            } else {
                guard let made = try? QueueAuthenticatorKey(session: transport, queueAuthPublicKey: key.key.bytes)
                else { return false }
                session.authenticatorKeys[key.key] = made
                authenticatorKey = made
            }
            return CommandAuthorization.verify(
                authorization, signedBytes: signed, correlationID: transmission.correlationID.bytes, key: authenticatorKey)
        }
    }

    private func secureResult(_ result: QueueStore.SecureResult?) -> SMPResponse {
        result == .ok ? .ok : .err(.auth)
    }

    /// Runs a store operation; nil when the store has failed (it then refuses everything).
    private func update<Result>(_ body: (inout QueueStore) -> Result) -> Result? {
        try? store.update(body)
    }

    /// The MSG for `message`, encrypted for the queue's recipient.
    private func delivery(_ message: StoredMessage, queue id: QueueID) -> SMPResponse? {
        guard let record = store.store.queue(recipientID: id) else { return nil }
        let content: ReceivedMessageBody.Content
        switch message.content {
        case .message(let flags, let body):
            content = .message(flags: MessageFlags(notification: flags.contains(.notification)), body: body)
        case .quotaExceeded:
            content = .quota
        }
        let body = ReceivedMessageBody(timestamp: message.timestamp, content: content)
        // The secret is already in the store's plain memory (QueueRecord), so it is used where it is
        // rather than copied into a guarded allocation per message.
        let messageID = message.id.bytes
        guard
            let encrypted = try? record.recipientDHSecret.withUnsafeBytes({ key in
                try MessageEncryption.seal(body, messageID: messageID, precomputedKey: key)
            })
        else { return nil }
        server.statistics.messagesOut += 1
        return .msg(messageID: messageID, encryptedBody: encrypted)
    }

    /// Sends `message` to the queue's subscriber as an event.
    private func deliver(_ message: StoredMessage, queue id: QueueID, to subscriber: RelaySession) {
        guard let response = delivery(message, queue: id) else { return }
        subscriber.enqueue(response, correlationID: .empty, entityID: EntityID(id.bytes))
    }
}

extension AuthKey {
    /// The store's form of a key from the wire.
    init?(_ key: AuthPublicKey) {
        guard let raw = Key32(bytes: key.raw) else { return nil }
        self.init(algorithm: key.algorithm == .ed25519 ? .ed25519 : .x25519, key: raw)
    }
}
