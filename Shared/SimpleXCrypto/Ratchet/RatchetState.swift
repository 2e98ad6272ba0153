internal import CSodium

/// One side of a connection's double ratchet with header encryption (Signal's "Double Ratchet with
/// header encryption", as SimpleX's Ratchet.hs implements it), with X25519 and XChaCha20-Poly1305.
///
/// A value: `encrypt` and `decrypt` are mutating and change nothing when they throw, so the agent
/// can keep the state it had, or store `encoded()` together with the message in one transaction.
/// The secret keys live in one guarded buffer that is rewritten in place while this value is its
/// only owner; a copy of the state shares it until either side writes (copy-on-write).
public struct RatchetState: Sendable {
    /// The most message keys one message may make this ratchet skip, and the most it keeps in total.
    public static let maxSkip = 512

    /// The ratchet version written in encrypted headers.
    public internal(set) var version: UInt16
    /// raw(joiner's first key) ‖ raw(initiator's first key); both sides must hold the same bytes.
    public let associatedData: [UInt8]
    /// The public half of this side's current DH ratchet key, sent in every header.
    var ratchetPublicKey: [UInt8]
    /// Ns: messages sent in the current sending chain.
    var sendCount: UInt32 = 0
    /// Nr: messages received in the current receiving chain.
    var receiveCount: UInt32 = 0
    /// PN: messages sent in the previous sending chain.
    var previousSendCount: UInt32 = 0
    var hasSendingChain: Bool
    var hasReceivingChain = false
    /// Set after the first DH step that replaced a receiving chain: its header key is kept so a
    /// replayed message from that chain is reported as a duplicate rather than as garbage.
    var hasPreviousReceiveHeaderKey = false
    /// The `Slot`s, 32 bytes each.
    var secrets: SecureBuffer
    var skipped = SkippedMessageKeys()

    /// The 32-byte secrets, at `rawValue * 32` in `secrets`.
    enum Slot: Int, CaseIterable {
        case rootKey, sendChainKey, sendHeaderKey, receiveChainKey, receiveHeaderKey
        case nextSendHeaderKey, nextReceiveHeaderKey, ratchetPrivateKey, previousReceiveHeaderKey

        static let keyCount = 32
        var range: Range<Int> { rawValue * Self.keyCount..<(rawValue + 1) * Self.keyCount }
    }

    /// Whether `encrypt` can be called: always on the joining side, after the first received
    /// message on the initiating side.
    public var canSend: Bool { hasSendingChain }

    /// How many skipped message keys are held for messages that have not arrived.
    public var skippedMessageKeyCount: Int { skipped.count }

    /// The joining side's ratchet (Ratchet.hs `initSndRatchet`): a fresh DH ratchet key, and one
    /// root step with the initiator's second key so it can send at once.
    public init(joiner parameters: RatchetInitParameters, initiatorKeys: RatchetPublicKeys)
        throws(RatchetError)
    {
        let ratchetKey = X25519.generateKeyPair()
        try self.init(joiner: parameters, initiatorKeys: initiatorKeys, ratchetKey: ratchetKey)
    }

    /// The joining side with a given ratchet key pair (tests use it for fixed keys).
    init(
        joiner parameters: RatchetInitParameters, initiatorKeys: RatchetPublicKeys, ratchetKey: X25519.KeyPair
    ) throws(RatchetError) {
        version = RatchetVersion.current
        associatedData = parameters.associatedData
        ratchetPublicKey = ratchetKey.publicKey
        hasSendingChain = true
        secrets = SecureBuffer(count: Slot.allCases.count * Slot.keyCount)
        let keys = secrets
        try keys.withMutableBytes { (slots: UnsafeMutableRawBufferPointer) throws(RatchetError) in
            Self.store(ratchetKey.privateKey, in: slots, .ratchetPrivateKey)
            Self.store(parameters.sendHeaderKey, in: slots, .sendHeaderKey)
            Self.store(parameters.nextReceiveHeaderKey, in: slots, .nextReceiveHeaderKey)
            // RK, CKs, NHKs = KDF_RK_HE(SK, DH(DHRs, DHRr)), the peer's ratchet key being its second key.
            try withUnsafeTemporaryAllocation(byteCount: RatchetDH.keyCount, alignment: 8) {
                (dh: UnsafeMutableRawBufferPointer) throws(RatchetError) in
                defer { zero(dh) }
                try initiatorKeys.second.withBytes { (point: UnsafeRawBufferPointer) throws(RatchetError) in
                    try RatchetDH.agree(
                        privateKey: Self.read(slots, .ratchetPrivateKey), publicKey: point, into: dh)
                }
                parameters.rootKey.withUnsafeBytes { rootKey in
                    Self.rootStep(
                        rootKey: rootKey, dhOutput: UnsafeRawBufferPointer(dh), slots: slots,
                        chainKey: .sendChainKey, nextHeaderKey: .nextSendHeaderKey)
                }
            }
        }
    }

    /// The initiating side's ratchet (Ratchet.hs `initRcvRatchet`): its second X3DH key is its first
    /// DH ratchet key; it has no chain until the joiner's first message arrives.
    public init(initiator parameters: RatchetInitParameters, ownKeys: RatchetKeyPairs) throws(RatchetError) {
        guard ownKeys.second.privateKey.count == RatchetDH.keyCount,
            ownKeys.second.publicKey.count == RatchetDH.keyCount
        else { throw .invalidPublicKey }
        version = RatchetVersion.current
        associatedData = parameters.associatedData
        ratchetPublicKey = ownKeys.second.publicKey
        hasSendingChain = false
        secrets = SecureBuffer(count: Slot.allCases.count * Slot.keyCount)
        secrets.withUnsafeMutableBytes { slots in
            Self.store(ownKeys.second.privateKey, in: slots, .ratchetPrivateKey)
            Self.store(parameters.rootKey, in: slots, .rootKey)
            // The joiner sends under the X3DH header key: it is this side's next receiving one.
            Self.store(parameters.nextReceiveHeaderKey, in: slots, .nextSendHeaderKey)
            Self.store(parameters.sendHeaderKey, in: slots, .nextReceiveHeaderKey)
        }
    }

    /// X3DH and the joining side's ratchet in one call.
    public static func joining(own: RatchetKeyPairs, initiator: RatchetPublicKeys) throws(RatchetError)
        -> RatchetState
    {
        try RatchetState(joiner: X3DH.joiner(own: own, initiator: initiator), initiatorKeys: initiator)
    }

    /// X3DH and the initiating side's ratchet in one call.
    public static func initiating(own: RatchetKeyPairs, joiner: RatchetPublicKeys) throws(RatchetError)
        -> RatchetState
    {
        try RatchetState(initiator: X3DH.initiator(own: own, joiner: joiner), ownKeys: own)
    }

    // MARK: - Secret slots

    /// Copies the secret buffer before the first write when another state value shares it.
    mutating func makeSecretsUnique() {
        if !isKnownUniquelyReferenced(&secrets) { secrets = secrets.copy() }
    }

    static func read(_ slots: UnsafeMutableRawBufferPointer, _ slot: Slot) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: slots[slot.range])
    }

    static func slot(_ slots: UnsafeMutableRawBufferPointer, _ slot: Slot) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: slots[slot.range])
    }

    static func store(_ key: SecureBytes, in slots: UnsafeMutableRawBufferPointer, _ slot: Slot) {
        precondition(key.count == Slot.keyCount, "ratchet keys are 32 bytes")
        key.withUnsafeBytes { Self.slot(slots, slot).copyMemory(from: $0) }
    }

    /// RK, CK, NHK = rootKdf(RK, DH output), written to the root slot and the two given slots.
    static func rootStep(
        rootKey: UnsafeRawBufferPointer, dhOutput: UnsafeRawBufferPointer,
        slots: UnsafeMutableRawBufferPointer,
        chainKey: Slot, nextHeaderKey: Slot
    ) {
        withUnsafeTemporaryAllocation(byteCount: RatchetKDF.rootOutputCount, alignment: 8) { output in
            RatchetKDF.root(rootKey: rootKey, dhOutput: dhOutput, into: output)
            slot(slots, .rootKey).copyMemory(from: UnsafeRawBufferPointer(rebasing: output[0..<32]))
            slot(slots, chainKey).copyMemory(from: UnsafeRawBufferPointer(rebasing: output[32..<64]))
            slot(slots, nextHeaderKey).copyMemory(from: UnsafeRawBufferPointer(rebasing: output[64..<96]))
            zero(output)
        }
    }
}

extension RatchetState: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Counters and flags only, never a key.
    public var description: String {
        "RatchetState(version \(version), can send \(hasSendingChain), can receive \(hasReceivingChain), "
            + "Ns \(sendCount), Nr \(receiveCount), PN \(previousSendCount), skipped keys \(skipped.count))"
    }
    /// Same as `description`, so logs stay safe.
    public var debugDescription: String { description }
    /// Hides the secrets from `dump` and debuggers' mirrors.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}

/// Wipes scratch memory that held key material.
func zero(_ buffer: UnsafeMutableRawBufferPointer) {
    if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
}
