internal import SimpleXCrypto

/// The server's first block, sent unencrypted and padded to `TransportSession.blockSize`:
///
///     Word16 versionMin ‖ Word16 versionMax ‖ shortString(sessionID: 32)
///     ‖ shortString(SPKI(identityKey: Ed25519)) ‖ shortString(SPKI(sessionKey: X25519))
///     ‖ shortString(signature: 64)
///
/// `signature` is Ed25519 by the identity key over `signedBytes`. A reader ignores bytes after these
/// fields (a later version's extension).
public struct ServerHello: Sendable, Equatable {
    public static let sessionIDCount = 32

    public var versionRange: TransportVersionRange
    /// 32 random bytes naming the session; bound into the chain keys and every command's signature.
    public var sessionID: [UInt8]
    /// The raw 32-byte Ed25519 identity public key.
    public var identityKey: [UInt8]
    /// The raw 32-byte X25519 ephemeral session public key.
    public var sessionKey: [UInt8]
    /// The 64-byte Ed25519 signature over `signedBytes`.
    public var signature: [UInt8]

    public init(
        versionRange: TransportVersionRange, sessionID: [UInt8], identityKey: [UInt8], sessionKey: [UInt8],
        signature: [UInt8]
    ) {
        self.versionRange = versionRange
        self.sessionID = sessionID
        self.identityKey = identityKey
        self.sessionKey = sessionKey
        self.signature = signature
    }

    /// What the identity key signs: `shortString(sessionID) ‖ SPKI(sessionKey)`.
    public static func signedBytes(sessionID: [UInt8], sessionKey: [UInt8]) throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter(capacity: 1 + sessionID.count + 44)
        try writer.appendShortString(sessionID)
        writer.append(try PublicKeyAlgorithm.x25519.spki(sessionKey))
        return writer.bytes
    }

    /// The padded 16,384-byte block.
    public func encode() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter(capacity: 256)
        writer.appendWord16(versionRange.min)
        writer.appendWord16(versionRange.max)
        try writer.appendShortString(sessionID)
        try writer.appendPublicKey(identityKey, .ed25519)
        try writer.appendPublicKey(sessionKey, .x25519)
        try writer.appendShortString(signature)
        return try Padding.pad(writer.bytes, to: TransportSession.blockSize)
    }

    /// Reads a server hello block; anything but a well-formed hello (extensions after its fields
    /// aside) is a `ProtocolError`.
    public static func decode(_ block: [UInt8]) throws(ProtocolError) -> ServerHello {
        var reader = ByteReader(try unpadHandshake(block, "server hello"))
        let min = try reader.readWord16("server hello min version")
        let max = try reader.readWord16("server hello max version")
        guard let range = TransportVersionRange(min: min, max: max) else {
            throw .invalid("server hello version range \(min)-\(max)")
        }
        let sessionID = try reader.readShortString("session id")
        guard sessionID.count == sessionIDCount else { throw .invalid("session id of \(sessionID.count) bytes") }
        let identityKey = try reader.readPublicKey(.ed25519)
        let sessionKey = try reader.readPublicKey(.x25519)
        let signature = try reader.readShortString("session key signature")
        guard signature.count == Ed25519.signatureCount else {
            throw .invalid("session key signature of \(signature.count) bytes")
        }
        // Bytes after the known fields are a later server's extension: ignored, as SimpleX does.
        return ServerHello(
            versionRange: range, sessionID: sessionID, identityKey: identityKey, sessionKey: sessionKey,
            signature: signature)
    }
}

/// The client's reply, sent unencrypted and padded to `TransportSession.blockSize`:
///
///     Word16 version ‖ shortString(keyHash: 32) ‖ shortString(SPKI(clientKey: X25519))
///
/// The relay ignores bytes after these fields (a later version's extension).
public struct ClientHello: Sendable, Equatable {
    /// The version the client chose from the server's range.
    public var version: UInt16
    /// The server fingerprint the client expects (from the address); the server refuses another.
    public var keyHash: [UInt8]
    /// The raw 32-byte X25519 ephemeral public key of the client.
    public var clientKey: [UInt8]

    public init(version: UInt16, keyHash: [UInt8], clientKey: [UInt8]) {
        self.version = version
        self.keyHash = keyHash
        self.clientKey = clientKey
    }

    /// The padded 16,384-byte block.
    public func encode() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter(capacity: 96)
        writer.appendWord16(version)
        try writer.appendShortString(keyHash)
        try writer.appendPublicKey(clientKey, .x25519)
        return try Padding.pad(writer.bytes, to: TransportSession.blockSize)
    }

    /// Reads a client hello block; anything but a well-formed hello (extensions after its fields
    /// aside) is a `ProtocolError`.
    public static func decode(_ block: [UInt8]) throws(ProtocolError) -> ClientHello {
        var reader = ByteReader(try unpadHandshake(block, "client hello"))
        let version = try reader.readWord16("client hello version")
        let keyHash = try reader.readShortString("key hash")
        guard keyHash.count == SHA256.byteCount else { throw .invalid("key hash of \(keyHash.count) bytes") }
        let clientKey = try reader.readPublicKey(.x25519)
        // Bytes after the known fields are a later client's extension: ignored, as SimpleX does, so
        // the hello can grow without a version change.
        return ClientHello(version: version, keyHash: keyHash, clientKey: clientKey)
    }
}

/// The content of a handshake block, which must be exactly one block with valid padding.
private func unpadHandshake(_ block: [UInt8], _ what: String) throws(ProtocolError) -> [UInt8] {
    guard block.count == TransportSession.blockSize else {
        throw .invalid("\(what) block of \(block.count) bytes, expected \(TransportSession.blockSize)")
    }
    return try Padding.unpad(block)
}
