import SimpleXCrypto

/// The server's per-queue layer on delivered messages: `crypto_box` with the precomputed key
/// DH(server's per-queue X25519 key, recipient's DH key) and the 24-byte message id as nonce, over
/// the body padded to one size, so MSG bodies neither match what the sender sent (no correlation
/// of incoming and outgoing traffic) nor reveal their length.
public enum MessageEncryption {
    /// Bytes of a message id, which is also the crypto_box nonce (so ids must never repeat per queue:
    /// they are random).
    public static let messageIDCount = 24

    /// Padded plaintext size: the largest body (16,048) + 16 for the header (8 timestamp, up to 7
    /// flag bytes as SimpleX reserves, 1 space) + 2 for the padding's length prefix = 16,066.
    public static let paddedSize = ReceivedMessageBody.maxBodySize + 16 + 2
    /// Size of every MSG body on the wire: 16,066 + 16 (Poly1305 tag) = 16,082.
    ///
    /// It fits one block: a MSG transmission is at most 1 (empty authorization) + 1 (`'0'`) +
    /// 25 (corrId) + 25 (entityId) + 4 (`"MSG "`) + 25 (msgId) + 16,082 = 16,163 bytes; in a block
    /// that is 1 (count) + 2 (Large prefix) + 16,163 = 16,166 ≤ 16,366 (16,368 minus the 2-byte
    /// padding prefix), leaving 200 bytes spare.
    public static let encryptedSize = paddedSize + CryptoBox.macCount

    /// A fresh random message id.
    public static func newMessageID() -> [UInt8] { Random.bytes(count: messageIDCount) }

    /// Pads and encrypts a body for the recipient.
    public static func seal(
        _ body: ReceivedMessageBody, messageID: [UInt8], sharedKey: CryptoBox.SharedKey
    ) throws -> [UInt8] {
        let padded = try Padding.pad(body.encoded(), to: paddedSize)
        return try sharedKey.seal(padded, nonce: messageID)
    }

    /// Pads and encrypts a body with a precomputed key the caller holds (the relay's per-queue
    /// secret, read in place from its store): no guarded allocation per message.
    public static func seal(
        _ body: ReceivedMessageBody, messageID: [UInt8], precomputedKey: UnsafeRawBufferPointer
    ) throws -> [UInt8] {
        let padded = try Padding.pad(body.encoded(), to: paddedSize)
        return try padded.withUnsafeBytes { input in
            try messageID.withUnsafeBytes { nonce in
                try [UInt8](unsafeUninitializedCapacity: encryptedSize) { out, initialized in
                    initialized = try CryptoBox.seal(
                        input, nonce: nonce, precomputedKey: precomputedKey, into: UnsafeMutableRawBufferPointer(out))
                }
            }
        }
    }

    /// Decrypts and reads a MSG body; a wrong key, wrong id or tampered body fails with
    /// `CryptoError.authenticationFailed`, a malformed plaintext with `ProtocolError`.
    public static func open(
        _ encryptedBody: [UInt8], messageID: [UInt8], sharedKey: CryptoBox.SharedKey
    ) throws -> ReceivedMessageBody {
        let padded = try sharedKey.open(encryptedBody, nonce: messageID)
        return try ReceivedMessageBody.decode(Padding.unpad(padded))
    }
}
