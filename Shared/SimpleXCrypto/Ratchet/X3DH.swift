internal import CSodium

/// One party's two X25519 key pairs for SimpleX's two-key X3DH; the public halves are its e2e
/// parameters (`x3dh=<k1>,<k2>` in an invitation link, or in the joiner's confirmation).
public struct RatchetKeyPairs: Sendable {
    /// The first pair; its public key is part of the associated data.
    public let first: X25519.KeyPair
    /// The second pair; the initiator's second key is also its first DH ratchet key.
    public let second: X25519.KeyPair

    /// Pairs two existing key pairs.
    public init(first: X25519.KeyPair, second: X25519.KeyPair) {
        self.first = first
        self.second = second
    }

    /// Two fresh random key pairs.
    public static func generate() -> RatchetKeyPairs {
        RatchetKeyPairs(first: X25519.generateKeyPair(), second: X25519.generateKeyPair())
    }

    /// The public keys to send to the other party.
    public var publicKeys: RatchetPublicKeys {
        RatchetPublicKeys(checkedFirst: first.publicKey, second: second.publicKey)
    }
}

/// The other party's two raw 32-byte X25519 public keys, as received in its e2e parameters.
public struct RatchetPublicKeys: Hashable, Sendable {
    /// The first public key.
    public let first: [UInt8]
    /// The second public key.
    public let second: [UInt8]

    /// Checks both keys are 32 bytes (low-order points are refused later, by the DH).
    public init(first: [UInt8], second: [UInt8]) throws(RatchetError) {
        guard first.count == RatchetDH.keyCount, second.count == RatchetDH.keyCount else {
            throw .invalidPublicKey
        }
        self.init(checkedFirst: first, second: second)
    }

    /// For keys already known to be 32 bytes (our own pairs').
    init(checkedFirst first: [UInt8], second: [UInt8]) {
        self.first = first
        self.second = second
    }
}

/// What X3DH gives both parties (Ratchet.hs `RatchetInitParams`): equal on both sides when the keys match.
public struct RatchetInitParameters: Sendable, Equatable, CustomStringConvertible {
    /// raw(joiner's first key) ‖ raw(initiator's first key), 64 bytes; bound to every message.
    public let associatedData: [UInt8]
    /// The shared secret the root chain starts from.
    public let rootKey: SecureBytes
    /// The header key the joiner sends its first chain under (the initiator's first receiving one).
    public let sendHeaderKey: SecureBytes
    /// The header key the initiator sends its first chain under (the joiner's next receiving one).
    public let nextReceiveHeaderKey: SecureBytes

    /// Counts only: the keys are secrets.
    public var description: String {
        "RatchetInitParameters(associated data \(associatedData.count) bytes, 3 keys redacted)"
    }
}

/// SimpleX's X3DH with two keys per side (Ratchet.hs `pqX3dhSnd` / `pqX3dhRcv` without the KEM).
///
/// The joiner (who accepts the link) computes dh1 = DH(own k2, initiator k1), dh2 = DH(own k1,
/// initiator k2), dh3 = DH(own k2, initiator k2); the initiator computes the same three from its
/// side. HKDF-SHA512(salt = 64 zero bytes, ikm = dh1 ‖ dh2 ‖ dh3, "SimpleXX3DH") gives 96 bytes:
/// header key, next header key, root key.
public enum X3DH {
    /// The parameters on the joining side, from its own pairs and the link's public keys.
    public static func joiner(own: RatchetKeyPairs, initiator: RatchetPublicKeys) throws(RatchetError)
        -> RatchetInitParameters
    {
        try derive(
            associatedData: own.first.publicKey + initiator.first,
            agreements: [
                (own.second.privateKey, initiator.first),
                (own.first.privateKey, initiator.second),
                (own.second.privateKey, initiator.second),
            ])
    }

    /// The parameters on the initiating side, from its own pairs and the joiner's public keys.
    public static func initiator(own: RatchetKeyPairs, joiner: RatchetPublicKeys) throws(RatchetError)
        -> RatchetInitParameters
    {
        try derive(
            associatedData: joiner.first + own.first.publicKey,
            agreements: [
                (own.first.privateKey, joiner.second),
                (own.second.privateKey, joiner.first),
                (own.second.privateKey, joiner.second),
            ])
    }

    private static func derive(
        associatedData: [UInt8], agreements: [(SecureBytes, [UInt8])]
    ) throws(RatchetError) -> RatchetInitParameters {
        Sodium.requireInitialized()
        let dhCount = RatchetDH.keyCount
        // Our own pairs come from callers too: a key of the wrong size is refused, not trusted.
        guard associatedData.count == 2 * dhCount else { throw .invalidPublicKey }
        // dh1 ‖ dh2 ‖ dh3 in guarded memory, wiped when it is released.
        let dhs = SecureBuffer(count: dhCount * agreements.count)
        try dhs.withMutableBytes { (out: UnsafeMutableRawBufferPointer) throws(RatchetError) in
            for (index, (privateKey, publicKey)) in agreements.enumerated() {
                guard privateKey.count == dhCount else { throw .invalidPublicKey }
                let slot = UnsafeMutableRawBufferPointer(
                    rebasing: out[index * dhCount..<(index + 1) * dhCount])
                try privateKey.withBytes { (secret: UnsafeRawBufferPointer) throws(RatchetError) in
                    try publicKey.withBytes { (point: UnsafeRawBufferPointer) throws(RatchetError) in
                        try RatchetDH.agree(privateKey: secret, publicKey: point, into: slot)
                    }
                }
            }
        }
        let output = SecureBuffer(count: 96)
        output.withUnsafeMutableBytes { out in
            dhs.withUnsafeBytes { ikm in
                withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { salt in
                    salt.initializeMemory(as: UInt8.self, repeating: 0)
                    RatchetKDF.derive(
                        salt: UnsafeRawBufferPointer(salt), inputKeyMaterial: ikm, info: RatchetKDF.x3dhInfo,
                        into: out)
                }
            }
        }
        func key(_ range: Range<Int>) -> SecureBytes {
            output.withUnsafeBytes { SecureBytes(copying: UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
        return RatchetInitParameters(
            associatedData: associatedData, rootKey: key(64..<96), sendHeaderKey: key(0..<32),
            nextReceiveHeaderKey: key(32..<64))
    }
}
