/// The per-queue layer around agent envelopes (simplexmq `Protocol.hs` `ClientMsgEnvelope`,
/// `PubHeader`, `ClientMessage`, `PrivHeader`). The agent encrypts and decrypts: a SEND body is a
/// `ClientMsgEnvelope` whose ciphertext is `crypto_box(per-queue DH secret, nonce, padded
/// ClientMessage)`; this file only reads and writes the structures.

/// The private header before the agent envelope: the sender's queue auth key in a confirmation,
/// so the recipient can secure its queue with KEY (SimpleX `PHConfirmation`), or nothing.
public enum PrivHeader: Hashable, Sendable {
    /// `'K'` and the key the sender will sign its commands with.
    case confirmation(senderKey: AuthPublicKey)
    /// `'_'`.
    case empty
}

/// A private header and the agent envelope bytes after it (everything to the end).
public struct ClientMessage: Hashable, Sendable {
    public var privateHeader: PrivHeader
    /// An encoded `AgentMsgEnvelope`.
    public var body: [UInt8]

    public init(privateHeader: PrivHeader, body: [UInt8]) {
        self.privateHeader = privateHeader
        self.body = body
    }

    /// A client message carrying `envelope`.
    public init(privateHeader: PrivHeader, envelope: AgentMsgEnvelope) throws(ProtocolError) {
        self.init(privateHeader: privateHeader, body: try envelope.encoded())
    }

    /// The bytes to pad and encrypt.
    public func encoded() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter(capacity: body.count + 46)
        switch privateHeader {
        case .confirmation(let key):
            writer.append(UInt8(ascii: "K"))
            try writer.appendAuthKey(key)
        case .empty:
            writer.append(UInt8(ascii: "_"))
        }
        writer.append(body)
        return writer.bytes
    }

    /// Reads a decrypted, unpadded client message.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> ClientMessage {
        var reader = ByteReader(bytes)
        let header: PrivHeader
        switch try reader.readByte("private header") {
        case UInt8(ascii: "K"): header = .confirmation(senderKey: try reader.readAuthKey())
        case UInt8(ascii: "_"): header = .empty
        case let other: throw .unknownTag("private header \(reader.describeTag([other]))")
        }
        return ClientMessage(privateHeader: header, body: reader.readTail())
    }

    /// The agent envelope in the body.
    public func envelope() throws(ProtocolError) -> AgentMsgEnvelope { try AgentMsgEnvelope.decode(body) }
}

/// The clear header of a SEND body: the sender's SMP client version and, in the first message
/// only, its per-queue X25519 DH key (after which both sides keep the shared secret).
public struct PubHeader: Hashable, Sendable {
    /// The SMP client version of the queue.
    public var version: UInt16
    /// The sender's raw X25519 key, in the confirmation only.
    public var senderDHKey: [UInt8]?

    public init(version: UInt16, senderDHKey: [UInt8]?) {
        self.version = version
        self.senderDHKey = senderDHKey
    }

    /// Appends the binary encoding.
    public func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        writer.appendWord16(version)
        try writer.appendOptional(senderDHKey) { (w, key) throws(ProtocolError) in
            try w.appendPublicKey(key, .x25519)
        }
    }

    /// Reads the binary encoding from the reader.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> PubHeader {
        PubHeader(
            version: try reader.readWord16("client version"),
            senderDHKey: try reader.readOptional("sender DH key") { (r) throws(ProtocolError) in
                try r.readPublicKey(.x25519)
            })
    }
}

/// A SEND body: public header · 24-byte nonce · ciphertext (to the end).
public struct ClientMsgEnvelope: Hashable, Sendable {
    /// Bytes of the crypto_box nonce.
    public static let nonceCount = 24
    /// The padded size of a `ClientMessage` in a confirmation (SimpleX `e2eEncConfirmationLength`),
    /// smaller than a message's to leave room for the DH key in the public header: the SEND body
    /// is 2 + 1 + 45 (key) + 24 + 16 (MAC) + 15,904 = 15,992 bytes.
    public static let paddedConfirmationLength = 15_904
    /// The padded size of any other `ClientMessage` (SimpleX `e2eEncMessageLength`): the SEND body
    /// is 2 + 1 + 24 + 16 + 16,000 = 16,043 bytes, within SMP's 16,048.
    public static let paddedMessageLength = 16_000

    public var header: PubHeader
    /// The crypto_box nonce, 24 bytes.
    public var nonce: [UInt8]
    /// crypto_box of the padded `ClientMessage`.
    public var ciphertext: [UInt8]

    /// An envelope; a nonce other than 24 bytes is invalid.
    public init(header: PubHeader, nonce: [UInt8], ciphertext: [UInt8]) throws(ProtocolError) {
        guard nonce.count == Self.nonceCount else { throw .invalid("nonce of \(nonce.count) bytes") }
        self.header = header
        self.nonce = nonce
        self.ciphertext = ciphertext
    }

    /// The SEND body.
    public func encoded() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter(capacity: 72 + ciphertext.count)
        try header.encode(to: &writer)
        writer.append(nonce)
        writer.append(ciphertext)
        return writer.bytes
    }

    /// Reads a SEND body as delivered in a MSG.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> ClientMsgEnvelope {
        var reader = ByteReader(bytes)
        let header = try PubHeader.decode(&reader)
        let nonce = try reader.readBytes(nonceCount, "nonce")
        return try ClientMsgEnvelope(header: header, nonce: nonce, ciphertext: reader.readTail())
    }
}
