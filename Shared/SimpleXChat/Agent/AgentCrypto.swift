import SimpleXCrypto
import SimpleXProtocol

/// The agent's two encryption layers around an `AgentMsgEnvelope`: the per-queue crypto_box
/// (keyed by the two sides' per-queue X25519 keys) and, inside it, the double ratchet.
enum AgentCrypto {
    /// The ratchet's padded plaintext for confirmations and for messages: the largest that
    /// still fits the per-queue padded `ClientMessage` with its headers.
    static let confirmationPaddedLength = 14_848
    static let messagePaddedLength = 15_840

    /// The largest A_MSG body: the ratchet's padded length less its 2-byte length and the agent
    /// message header ('M', sndMsgId, prevMsgHash, 'M').
    static let maxMessageBodySize = messagePaddedLength - 2 - (1 + 8 + 1 + 32 + 1)

    /// The ratchet's padded length for a message of `count` bytes: the next multiple of 512.
    ///
    /// SimpleX pads every ratchet message to one fixed length. Here the per-queue layer around it
    /// is padded to the fixed 16,000 bytes, so the relay still sees one size for every message;
    /// inside, only the recipient sees the ratchet's length. Padding that to 512-byte steps
    /// keeps the send queue in the database small (a 1 KB message is stored as 1.7 KB, not 16 KB).
    static func ratchetPaddedLength(forMessageOf count: Int) -> Int {
        min(messagePaddedLength, max(512, (count + 2 + 511) / 512 * 512))
    }

    /// A SEND body: the encoded client message, padded and boxed for `queue`, with our per-queue
    /// key in the public header when the recipient does not know it yet (the first message on
    /// the queue). Sealed when sent, with a fresh nonce each time: the stored client message
    /// stays the same across retries, which is what the recipient's duplicate check hashes.
    static func seal(
        _ clientMessage: [UInt8], for queue: SndQueue, includeKey: Bool, paddedLength: Int, store: AgentStore
    ) throws(AgentError) -> [UInt8] {
        do {
            let nonce = Random.bytes(count: ClientMsgEnvelope.nonceCount)
            let shared = try store.sharedKey(own: queue.e2eKey, peer: queue.e2ePeerKey)
            let ciphertext = try shared.seal(Padding.pad(clientMessage, to: paddedLength), nonce: nonce)
            return try ClientMsgEnvelope(
                header: PubHeader(
                    version: AgentConfig.queueVersionRange.max,
                    senderDHKey: includeKey ? queue.e2eKey.publicKey : nil),
                nonce: nonce, ciphertext: ciphertext
            ).encoded()
        } catch let error as AgentError {
            throw error
        } catch {
            throw .crypto("cannot seal a message for the queue: \(error)")
        }
    }

    /// Opens a SEND body received on `queue`: the client message (and its bytes, which identify
    /// it across resends), and the sender's per-queue key when this message introduced it.
    static func open(_ body: [UInt8], on queue: RcvQueue, store: AgentStore) throws(AgentReceiveFailure)
        -> (ClientMessage, bytes: [UInt8], newPeerKey: [UInt8]?)
    {
        let envelope: ClientMsgEnvelope
        do { envelope = try ClientMsgEnvelope.decode(body) } catch {
            throw .invalid("per-queue envelope: \(error)")
        }
        guard let peerKey = envelope.header.senderDHKey ?? queue.e2ePeerKey else {
            throw .decryption("the sender's per-queue key is unknown")
        }
        let padded: [UInt8]
        do {
            let shared = try store.sharedKey(own: queue.e2eKey, peer: peerKey)
            padded = try shared.open(envelope.ciphertext, nonce: envelope.nonce)
        } catch {
            throw .decryption("per-queue layer: \(error)")
        }
        do {
            let bytes = try Padding.unpad(padded)
            let message = try ClientMessage.decode(bytes)
            return (
                message, bytes,
                envelope.header.senderDHKey == queue.e2ePeerKey ? nil : envelope.header.senderDHKey
            )
        } catch {
            throw .invalid("client message: \(error)")
        }
    }

    // MARK: Sealed state

    static func sealRatchet(_ ratchet: RatchetState, store: AgentStore, connection: AgentConnectionID)
        -> [UInt8]
    {
        let sealed = store.sealRatchetState(ratchet, connection: connection)
        // Used only once a record holding exactly these bytes is read back, i.e. after the commit.
        store.ratchetCache[connection] = (sealed, ratchet)
        return sealed
    }

    /// The ratchet as sealed in `record`. The last state sealed for a connection is kept in
    /// memory with its sealed bytes: when the record holds those same bytes (the state was
    /// committed), it is used as is, sparing a decryption and a guarded allocation per message.
    static func openRatchet(_ record: ConnectionRecord, store: AgentStore) throws(AgentError) -> RatchetState
    {
        guard let sealed = record.ratchet else { throw .state("connection \(record.id) has no ratchet yet") }
        // Taken out of the cache, so the caller's copy is the only one and advancing it rewrites
        // its guarded buffer in place instead of copying it; sealing puts the new state back.
        if let cached = store.ratchetCache.removeValue(forKey: record.id), cached.sealed == sealed {
            return cached.state
        }
        let bytes = try store.open(sealed, column: "ratchet", row: record.id)
        do {
            return try bytes.withUnsafeBytes { raw throws(RatchetError) in try RatchetState(decoding: raw) }
        } catch {
            throw .store("the ratchet of \(record.id) cannot be read: \(error)")
        }
    }

    static func sealX3DH(_ keys: RatchetKeyPairs, store: AgentStore, connection: AgentConnectionID) -> [UInt8]
    {
        var both = keys.first.privateKey.withUnsafeBytes { Array($0) }
        both += keys.second.privateKey.withUnsafeBytes { Array($0) }
        defer { for index in both.indices { both[index] = 0 } }
        return store.sealBytes(both, column: "x3dh_keys", row: connection)
    }

    static func openX3DH(_ record: ConnectionRecord, store: AgentStore) throws(AgentError) -> RatchetKeyPairs
    {
        guard let sealed = record.x3dhKeys else { throw .state("connection \(record.id) has no X3DH keys") }
        let both = try store.open(sealed, column: "x3dh_keys", row: record.id)
        do {
            let (first, second) = both.withUnsafeBytes {
                (SecureBytes(copying: Array($0[0..<32])), SecureBytes(copying: Array($0[32..<64])))
            }
            return RatchetKeyPairs(
                first: try X25519.keyPair(fromPrivateKey: first),
                second: try X25519.keyPair(fromPrivateKey: second))
        } catch {
            throw .store("the X3DH keys of \(record.id) cannot be read: \(error)")
        }
    }
}
