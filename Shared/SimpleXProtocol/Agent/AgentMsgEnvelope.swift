/// What a `ClientMessage` carries (simplexmq `AgentMsgEnvelope`): the agent version, then a
/// confirmation, a ratchet-encrypted message, an invitation to a contact address or a ratchet
/// re-sync. The ratchet encryption itself is the agent's; here the ciphertexts are bytes.
public struct AgentMsgEnvelope: Hashable, Sendable {
    /// The envelope kinds and what each carries.
    public enum Content: Hashable, Sendable {
        /// `'C'`: the joiner's ratchet keys (absent in the inviter's reply confirmation, whose
        /// ratchet is already set up), then the ratchet-encrypted `AgentMessage` with the
        /// connection info (and, from the joiner, its reply queues).
        case confirmation(e2eParams: E2ERatchetParams?, encryptedConnInfo: [UInt8])
        /// `'M'`: a ratchet-encrypted `AgentMessage`.
        case message(encryptedAgentMessage: [UInt8])
        /// `'I'`: sent to a contact address, only per-queue encrypted: the invitation link the
        /// address owner should join, and the joiner's connection info in the clear of the ratchet.
        case invitation(connectionRequest: ConnectionLink, connInfo: [UInt8])
        /// `'R'`: new ratchet keys to re-synchronise a broken ratchet, and the encrypted
        /// `AgentMessage.ratchetInfo`.
        case ratchetKey(e2eParams: E2ERatchetParams, info: [UInt8])
    }

    /// The agent version the sender uses with this connection.
    public var agentVersion: UInt16
    public var content: Content

    public init(agentVersion: UInt16, content: Content) {
        self.agentVersion = agentVersion
        self.content = content
    }

    /// The envelope bytes.
    public func encoded() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter(capacity: 128)
        writer.appendWord16(agentVersion)
        switch content {
        case .confirmation(let params, let encryptedConnInfo):
            writer.append(UInt8(ascii: "C"))
            try writer.appendOptional(params) { (w, p) throws(ProtocolError) in try p.encode(to: &w) }
            writer.append(encryptedConnInfo)
        case .message(let encrypted):
            writer.append(UInt8(ascii: "M"))
            writer.append(encrypted)
        case .invitation(let link, let connInfo):
            guard link.e2eParams != nil else {
                throw .invalid("invitation envelope: a contact address instead of an invitation link")
            }
            writer.append(UInt8(ascii: "I"))
            try writer.appendLarge(Array(link.description.utf8))
            writer.append(connInfo)
        case .ratchetKey(let params, let info):
            writer.append(UInt8(ascii: "R"))
            try params.encode(to: &writer)
            writer.append(info)
        }
        return writer.bytes
    }

    /// Reads an envelope; an unknown kind is `ProtocolError.unknownTag`.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> AgentMsgEnvelope {
        var reader = ByteReader(bytes)
        let version = try reader.readWord16("agent version")
        let content: Content
        switch try reader.readByte("agent envelope tag") {
        case UInt8(ascii: "C"):
            let params = try reader.readOptional("e2e params") { (r) throws(ProtocolError) in
                try E2ERatchetParams.decode(&r)
            }
            content = .confirmation(e2eParams: params, encryptedConnInfo: reader.readTail())
        case UInt8(ascii: "M"):
            content = .message(encryptedAgentMessage: reader.readTail())
        case UInt8(ascii: "I"):
            let link = try invitationLink(reader.readLarge("invitation link"))
            content = .invitation(connectionRequest: link, connInfo: reader.readTail())
        case UInt8(ascii: "R"):
            let params = try E2ERatchetParams.decode(&reader)
            content = .ratchetKey(e2eParams: params, info: reader.readTail())
        case let other:
            throw .unknownTag("agent envelope tag \(reader.describeTag([other]))")
        }
        return AgentMsgEnvelope(agentVersion: version, content: content)
    }

    private static func invitationLink(_ bytes: [UInt8]) throws(ProtocolError) -> ConnectionLink {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalid("invitation link: not UTF-8")
        }
        let link: ConnectionLink
        do {
            link = try ConnectionLink(text)
        } catch {
            throw .invalid("invitation link: \(error)")
        }
        guard link.e2eParams != nil else { throw .invalid("invitation link: a contact address") }
        return link
    }
}
