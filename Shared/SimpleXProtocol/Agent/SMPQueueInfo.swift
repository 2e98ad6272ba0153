/// Binary forms of queue addresses that agents send each other inside envelopes (simplexmq
/// `Agent/Protocol.hs` `SMPQueueInfo`, `SndQAddr`, and `ProtocolServer`'s `Encoding`).

extension SMPServerAddress {
    /// Hosts (a non-empty list of short strings), port (a short string of its digits, empty for the
    /// default port, as SimpleX's text form leaves it out), key hash (a short string).
    public func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        try writer.appendNonEmpty(hosts, "server hosts") { (w, host) throws(ProtocolError) in
            try w.appendShortString(Array(host.utf8))
        }
        try writer.appendShortString(Array((port == Self.defaultPort ? "" : "\(port)").utf8))
        try writer.appendShortString(keyHash)
    }

    /// Reads a server address; invalid hosts, ports or key hashes are errors.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> SMPServerAddress {
        let hosts = try reader.readNonEmpty("server hosts") { (r) throws(ProtocolError) in
            String(decoding: try r.readShortString("server host"), as: UTF8.self)
        }
        let portText = try reader.readShortString("server port")
        var port = defaultPort
        if !portText.isEmpty {
            guard portText.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = UInt16(String(decoding: portText, as: UTF8.self))
            else { throw .invalid("server port") }
            port = number
        }
        return try SMPServerAddress(
            keyHash: reader.readShortString("server key hash"), hosts: hosts, port: port)
    }
}

/// A queue the sender knows by server and sender id (SimpleX `SndQAddr`): what queue rotation
/// messages refer to.
public struct SenderQueueAddress: Hashable, Sendable {
    /// The relay holding the queue.
    public let server: SMPServerAddress
    /// The id senders use.
    public let senderID: EntityID

    public init(server: SMPServerAddress, senderID: EntityID) {
        self.server = server
        self.senderID = senderID
    }

    /// Server, then the sender id as a short string.
    public func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        try server.encode(to: &writer)
        try writer.appendEntityID(senderID)
    }

    /// Reads server and sender id.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> SenderQueueAddress {
        SenderQueueAddress(server: try .decode(&reader), senderID: try reader.readEntityID("sender id"))
    }
}

/// A queue the other agent should send to, at one agreed client version (SimpleX `SMPQueueInfo`):
/// the reply queues of a confirmation and the queues of a rotation.
///
/// Binary: client version (Word16) · server · sender id · DH key (X25519 SPKI) · queue mode
/// (`'M'`/`'C'`). SimpleX leaves the mode out for old versions and then guesses it from the next
/// byte; ours always carries it, so the bytes after it (a connection info) cannot be misread.
public struct SMPQueueInfo: Hashable, Sendable {
    /// The SMP client version both sides agreed for this queue.
    public let clientVersion: UInt16
    /// The relay holding the queue.
    public let server: SMPServerAddress
    /// The id senders use.
    public let senderID: EntityID
    /// The queue owner's raw X25519 key for the per-queue e2e DH.
    public let dhPublicKey: [UInt8]
    /// Messaging (sender-secured) or contact queue.
    public let queueMode: SMPQueueMode

    /// A queue info; a DH key other than 32 bytes is invalid.
    public init(
        clientVersion: UInt16, server: SMPServerAddress, senderID: EntityID, dhPublicKey: [UInt8],
        queueMode: SMPQueueMode
    ) throws(ProtocolError) {
        guard dhPublicKey.count == 32 else { throw .invalid("X25519 key of \(dhPublicKey.count) bytes") }
        self.clientVersion = clientVersion
        self.server = server
        self.senderID = senderID
        self.dhPublicKey = dhPublicKey
        self.queueMode = queueMode
    }

    /// The info of a link's queue at `clientVersion`; a queue URI without a mode is a messaging
    /// queue the sender secures (every queue our agent makes says which it is).
    public init(_ uri: SMPQueueURI, clientVersion: UInt16) {
        self.clientVersion = clientVersion
        server = uri.server
        senderID = uri.senderID
        dhPublicKey = uri.dhPublicKey
        queueMode = uri.queueMode ?? .messaging
    }

    /// Server and sender id.
    public var address: SenderQueueAddress { SenderQueueAddress(server: server, senderID: senderID) }

    /// Appends the binary encoding.
    public func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        writer.appendWord16(clientVersion)
        try address.encode(to: &writer)
        try writer.appendPublicKey(dhPublicKey, .x25519)
        writer.append(queueMode.byte)
    }

    /// Reads the binary encoding from the reader.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> SMPQueueInfo {
        let version = try reader.readWord16("client version")
        let address = try SenderQueueAddress.decode(&reader)
        return try SMPQueueInfo(
            clientVersion: version, server: address.server, senderID: address.senderID,
            dhPublicKey: reader.readPublicKey(.x25519), queueMode: reader.readQueueMode())
    }
}

extension SMPQueueURI {
    /// Binary (SimpleX `SMPQueueUri` `Encoding`, in QADD): version range · server · sender id ·
    /// DH key, then the mode byte when there is one. Only used where a `'0'`/`'1'` follows, so
    /// whether a mode byte is present can be seen.
    func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        versionRange.encode(to: &writer)
        try SenderQueueAddress(server: server, senderID: senderID).encode(to: &writer)
        try writer.appendPublicKey(dhPublicKey, .x25519)
        if let queueMode { writer.append(queueMode.byte) }
    }

    static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> SMPQueueURI {
        let range = try VersionRange.decode(&reader)
        let address = try SenderQueueAddress.decode(&reader)
        let dhKey = try reader.readPublicKey(.x25519)
        var mode: SMPQueueMode?
        if reader.peek(ascii: "M") || reader.peek(ascii: "C") { mode = try reader.readQueueMode() }
        return try SMPQueueURI(
            server: address.server, senderID: address.senderID, versionRange: range, dhPublicKey: dhKey,
            queueMode: mode)
    }
}
