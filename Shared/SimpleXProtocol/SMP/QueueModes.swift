/// How a queue is used: one-to-one messaging (the sender secures it) or a contact address
/// (never secured, anyone with the link may send).
public enum SMPQueueMode: Equatable, Hashable, Sendable {
    case messaging, contact

    /// One byte on the wire: `'M'` or `'C'`.
    public var byte: UInt8 { self == .messaging ? UInt8(ascii: "M") : UInt8(ascii: "C") }

    /// The mode for a wire byte, or nil.
    public init?(byte: UInt8) {
        switch byte {
        case UInt8(ascii: "M"): self = .messaging
        case UInt8(ascii: "C"): self = .contact
        default: return nil
        }
    }
}

/// Whether NEW also subscribes the creating connection to the queue (`'S'`) or only creates it (`'C'`).
public enum SubscriptionMode: Equatable, Hashable, Sendable {
    case subscribe, onlyCreate

    /// One byte on the wire.
    public var byte: UInt8 { self == .subscribe ? UInt8(ascii: "S") : UInt8(ascii: "C") }

    /// The mode for a wire byte, or nil.
    public init?(byte: UInt8) {
        switch byte {
        case UInt8(ascii: "S"): self = .subscribe
        case UInt8(ascii: "C"): self = .onlyCreate
        default: return nil
        }
    }
}

/// Per-message flags the sender sets in SEND; only the notification flag exists.
public struct MessageFlags: Equatable, Hashable, Sendable {
    /// Whether the recipient's notification server should be told about this message.
    public var notification: Bool

    public init(notification: Bool) { self.notification = notification }

    /// No flags set.
    public static let noFlags = MessageFlags(notification: false)
}

extension ByteWriter {
    mutating func appendFlags(_ flags: MessageFlags) { appendBool(flags.notification) }
}

extension ByteReader {
    /// The flags, then any further flag bytes up to the separating space, which newer peers may add
    /// (SimpleX reserves up to 7 flag bytes) and we skip rather than reject.
    mutating func readFlags() throws(ProtocolError) -> MessageFlags {
        let flags = MessageFlags(notification: try readBool("message flags"))
        while !isAtEnd, !peek(ascii: " ") { _ = try readByte() }
        return flags
    }

    mutating func readQueueMode() throws(ProtocolError) -> SMPQueueMode {
        guard let mode = SMPQueueMode(byte: try readByte("queue mode")) else { throw .invalid("queue mode") }
        return mode
    }
}

/// A public key that authorizes commands: Ed25519 (signature) or X25519 (authenticator, cheaper).
public struct AuthPublicKey: Hashable, Sendable {
    /// Which of the two algorithms the key is for.
    public let algorithm: PublicKeyAlgorithm
    /// The raw 32-byte key.
    public let raw: [UInt8]

    /// Pairs a raw 32-byte key with its algorithm; other lengths are invalid.
    public init(algorithm: PublicKeyAlgorithm, raw: [UInt8]) throws(ProtocolError) {
        guard raw.count == 32 else { throw .invalid("\(algorithm) key of \(raw.count) bytes") }
        self.algorithm = algorithm
        self.raw = raw
    }

    /// The key from SPKI DER, the algorithm read from the DER prefix.
    public init(spki der: [UInt8]) throws(ProtocolError) {
        for algorithm in [PublicKeyAlgorithm.ed25519, .x25519] where der.starts(with: algorithm.spkiPrefix) {
            self.algorithm = algorithm
            self.raw = try algorithm.raw(fromSPKI: der)
            return
        }
        throw .invalid("authorization key: neither an Ed25519 nor an X25519 SPKI key")
    }

    /// The SPKI DER (44 bytes).
    public var spki: [UInt8] { algorithm.spkiPrefix + raw }
}

extension ByteWriter {
    mutating func appendAuthKey(_ key: AuthPublicKey) throws(ProtocolError) {
        try appendShortString(key.spki)
    }
}

extension ByteReader {
    mutating func readAuthKey() throws(ProtocolError) -> AuthPublicKey {
        try AuthPublicKey(spki: readShortString("authorization key"))
    }
}
