/// Who may send a command, for the server's authorization rules.
public enum SMPParty: Equatable, Sendable {
    /// The queue's owner, authorized with the recipient key (NEW with the key it creates).
    case recipient
    /// Whoever holds the sender id, authorized with the sender key once the queue is secured.
    case sender
    /// Anyone: no queue and no key (PING).
    case none
}

/// A command from a client to the relay (SimpleX SMP `Command`), recipient or sender side.
public enum SMPCommand: Equatable, Sendable {
    /// Create a queue; the server replies IDS. `recipientDHKey` is the raw X25519 key the server
    /// re-encrypts delivered messages to.
    case new(
        recipientAuthKey: AuthPublicKey, recipientDHKey: [UInt8], subscriptionMode: SubscriptionMode,
        queueMode: SMPQueueMode)
    /// Subscribe this connection to the queue; the first message or OK follows.
    case sub
    /// Secure the queue with the sender's key (recipient side).
    case key(senderKey: AuthPublicKey)
    /// Acknowledge the delivered message, so the next one can be delivered.
    case ack(messageID: [UInt8])
    /// Fetch one message without subscribing.
    case get
    /// Stop delivery into the queue; the sender gets AUTH.
    case off
    /// Delete the queue and its messages.
    case del
    /// Secure the queue with the sender's key (sender side, queues created sender-can-secure).
    case skey(senderKey: AuthPublicKey)
    /// Put a message into the queue.
    case send(flags: MessageFlags, body: [UInt8])
    /// Keep the connection alive; the server replies PONG.
    case ping

    /// Who may send the command.
    public var party: SMPParty {
        switch self {
        case .new, .sub, .key, .ack, .get, .off, .del: return .recipient
        case .skey, .send: return .sender
        case .ping: return .none
        }
    }

    /// Whether the transmission must always carry an authorization. SEND needs one only once the
    /// queue is secured, which the server knows and the command does not, so it is false here.
    public var requiresAuthorization: Bool {
        switch self {
        case .send, .ping: return false
        default: return true
        }
    }

    /// Appends the command in SimpleX's binary encoding.
    public func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        switch self {
        case .new(let authKey, let dhKey, let subscriptionMode, let queueMode):
            writer.append(ascii: "NEW ")
            try writer.appendAuthKey(authKey)
            try writer.appendPublicKey(dhKey, .x25519)
            // basicAuth (a server password): we never send one.
            writer.append(UInt8(ascii: "0"))
            writer.append(subscriptionMode.byte)
            writer.append(queueMode.byte)
        case .sub: writer.append(ascii: "SUB")
        case .key(let key):
            writer.append(ascii: "KEY ")
            try writer.appendAuthKey(key)
        case .ack(let messageID):
            writer.append(ascii: "ACK ")
            try writer.appendShortString(messageID)
        case .get: writer.append(ascii: "GET")
        case .off: writer.append(ascii: "OFF")
        case .del: writer.append(ascii: "DEL")
        case .skey(let key):
            writer.append(ascii: "SKEY ")
            try writer.appendAuthKey(key)
        case .send(let flags, let body):
            writer.append(ascii: "SEND ")
            writer.appendFlags(flags)
            writer.append(UInt8(ascii: " "))
            writer.append(body)
        case .ping: writer.append(ascii: "PING")
        }
    }

    /// The encoded command.
    public func encoded() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter()
        try encode(to: &writer)
        return writer.bytes
    }

    /// The command tags this code knows; a tag outside them is `ERR CMD UNKNOWN`, not SYNTAX.
    static let knownTags: Set<String> = [
        "NEW", "SUB", "KEY", "ACK", "GET", "OFF", "DEL", "SKEY", "SEND", "PING",
    ]

    /// Reads a whole command; trailing bytes after the last field are invalid.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> SMPCommand {
        let tag = try reader.readTag()
        let command: SMPCommand
        switch tag {
        case "NEW":
            let authKey = try reader.readAuthKey()
            let dhKey = try reader.readPublicKey(.x25519)
            // A server password, if a client sends one: our relay has none to check, so it is read
            // (to find the fields after it) and dropped.
            switch try reader.readByte("basic auth") {
            case UInt8(ascii: "0"): break
            case UInt8(ascii: "1"): _ = try reader.readShortString("basic auth")
            default: throw .invalid("basic auth")
            }
            guard let subscriptionMode = SubscriptionMode(byte: try reader.readByte("subscription mode"))
            else {
                throw .invalid("subscription mode")
            }
            command = .new(
                recipientAuthKey: authKey, recipientDHKey: dhKey, subscriptionMode: subscriptionMode,
                queueMode: try reader.readQueueMode())
        case "SUB": command = .sub
        case "KEY": command = .key(senderKey: try reader.readAuthKey())
        case "ACK": command = .ack(messageID: try reader.readShortString("message id"))
        case "GET": command = .get
        case "OFF": command = .off
        case "DEL": command = .del
        case "SKEY": command = .skey(senderKey: try reader.readAuthKey())
        case "SEND":
            let flags = try reader.readFlags()
            try reader.expect(ascii: " ", "space before the message body")
            command = .send(flags: flags, body: reader.readTail())
        case "PING": command = .ping
        default: throw .invalid("command: unknown tag \(tag.debugDescription)")
        }
        try reader.expectEnd("\(tag) command")
        return command
    }

    /// Reads a command from all of `bytes`.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> SMPCommand {
        var reader = ByteReader(bytes)
        return try decode(&reader)
    }

    /// The error the server answers when a transmission's credentials do not fit the command
    /// (SimpleX `checkCredentials`), or nil when they do.
    public func credentialsError(hasAuthorization: Bool, entityID: EntityID) -> SMPErrorType? {
        switch self {
        case .new:
            // Signed by the key it registers, and no queue exists yet.
            if !hasAuthorization { return .cmd(.noAuth) }
            return entityID.isEmpty ? nil : .cmd(.hasAuth)
        case .send:
            return entityID.isEmpty ? .cmd(.noEntity) : nil
        case .ping:
            return !hasAuthorization && entityID.isEmpty ? nil : .cmd(.hasAuth)
        default:
            return hasAuthorization && !entityID.isEmpty ? nil : .cmd(.noAuth)
        }
    }
}

extension ByteReader {
    /// A command or response tag: the bytes up to a space (consumed) or the end.
    mutating func readTag() throws(ProtocolError) -> String {
        var tag: [UInt8] = []
        while !isAtEnd {
            let byte = try readByte()
            if byte == UInt8(ascii: " ") { break }
            tag.append(byte)
            // Tags are short; stop early on garbage instead of copying a whole block.
            guard tag.count <= 8 else { throw .invalid("command tag") }
        }
        guard !tag.isEmpty else { throw .truncated("command tag") }
        return String(decoding: tag, as: UTF8.self)
    }
}
