/// One transmission in a block: authorization, correlation id, entity id and the command or
/// response bytes, as SimpleX lays them out (v7+ with the session id implied, not sent).
public struct SMPTransmission: Sendable, Equatable {
    /// An Ed25519 signature (64 bytes), an X25519 authenticator (80 bytes), or empty.
    public var authorization: [UInt8]
    /// Echoed from command to reply; empty in server events.
    public var correlationID: CorrelationID
    /// The queue the command is for, or empty.
    public var entityID: EntityID
    /// The encoded `SMPCommand` or `SMPResponse`.
    public var command: [UInt8]

    public init(authorization: [UInt8], correlationID: CorrelationID, entityID: EntityID, command: [UInt8]) {
        self.authorization = authorization
        self.correlationID = correlationID
        self.entityID = entityID
        self.command = command
    }

    /// `shortString(authorization) '0' shortString(corrId) shortString(entityId) command`;
    /// the `'0'` is SimpleX's absent service signature, which we never send.
    public func encode() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter(capacity: 1 + authorization.count + 1 + 50 + command.count)
        try writer.appendShortString(authorization)
        writer.append(UInt8(ascii: "0"))
        try writer.appendShortString(correlationID.bytes)
        try writer.appendEntityID(entityID)
        writer.append(command)
        return writer.bytes
    }

    /// Reads the framing of a transmission; the command bytes stay undecoded, so a bad command
    /// can still be answered with the transmission's correlation and entity ids.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> SMPTransmission {
        var reader = ByteReader(bytes)
        let authorization = try reader.readShortString("authorization")
        // SimpleX's service signature (a Maybe) sits here; a present one is not supported.
        guard try reader.readByte("service signature") == UInt8(ascii: "0") else {
            throw .invalid("service signature (not supported)")
        }
        let correlationID = CorrelationID(try reader.readShortString("correlation id"))
        let entityID = try reader.readEntityID()
        return SMPTransmission(
            authorization: authorization, correlationID: correlationID, entityID: entityID,
            command: reader.readTail())
    }

    /// The bytes the authorization covers: `shortString(sessionId) ‖ shortString(corrId) ‖
    /// shortString(entityId) ‖ command` — everything after the authorization and the `'0'`,
    /// prefixed with the session id. Signing the session id (which is never sent) binds the
    /// command to this connection, so a captured transmission cannot be replayed on another;
    /// the authorization itself is of course not signed.
    public func signedBytes(sessionID: [UInt8]) -> [UInt8] {
        precondition(sessionID.count <= 255, "session ids are fixed-size (32 bytes), never over 255")
        precondition(
            correlationID.bytes.count <= 255 && entityID.bytes.count <= 255, "ids fit a short string")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            3 + sessionID.count + correlationID.bytes.count + entityID.bytes.count + command.count)
        bytes.append(UInt8(sessionID.count))
        bytes.append(contentsOf: sessionID)
        bytes.append(UInt8(correlationID.bytes.count))
        bytes.append(contentsOf: correlationID.bytes)
        bytes.append(UInt8(entityID.bytes.count))
        bytes.append(contentsOf: entityID.bytes)
        bytes.append(contentsOf: command)
        return bytes
    }
}

extension SMPTransmission {
    /// A client's command, authorized by `authorize` over `signedBytes(sessionID:)` (an Ed25519
    /// signature or an X25519 authenticator; return `[]` for an unauthorized SEND or PING).
    public static func command(
        _ command: SMPCommand, correlationID: CorrelationID, entityID: EntityID, sessionID: [UInt8],
        authorize: (_ signedBytes: [UInt8]) throws -> [UInt8]
    ) throws -> SMPTransmission {
        var transmission = SMPTransmission(
            authorization: [], correlationID: correlationID, entityID: entityID,
            command: try command.encoded())
        // Encoding checks the ids fit their short strings before they are signed.
        _ = try transmission.encode()
        guard sessionID.count <= 255 else {
            throw ProtocolError.tooLarge("session id of \(sessionID.count) bytes")
        }
        transmission.authorization = try authorize(transmission.signedBytes(sessionID: sessionID))
        return transmission
    }

    /// An unauthorized client command (PING, SEND to a queue not yet secured).
    public static func command(
        _ command: SMPCommand, correlationID: CorrelationID, entityID: EntityID
    ) throws(ProtocolError) -> SMPTransmission {
        SMPTransmission(
            authorization: [], correlationID: correlationID, entityID: entityID,
            command: try command.encoded())
    }

    /// A server reply (with the command's correlation id) or event (with `.empty`); never authorized.
    public static func response(
        _ response: SMPResponse, correlationID: CorrelationID, entityID: EntityID
    ) throws(ProtocolError) -> SMPTransmission {
        SMPTransmission(
            authorization: [], correlationID: correlationID, entityID: entityID,
            command: try response.encoded())
    }

    /// The server's reading of the command: the error to answer with (`ERR CMD UNKNOWN`, `SYNTAX`,
    /// `NO_AUTH`, `HAS_AUTH`, `NO_ENTITY`) instead of dropping the connection.
    public func decodeCommand() -> Result<SMPCommand, SMPErrorType> {
        var reader = ByteReader(command)
        guard let tag = try? reader.readTag(), SMPCommand.knownTags.contains(tag) else {
            return .failure(.cmd(.unknown))
        }
        let decoded: SMPCommand
        do {
            decoded = try SMPCommand.decode(command)
        } catch {
            return .failure(.cmd(.syntax))
        }
        if let error = decoded.credentialsError(hasAuthorization: !authorization.isEmpty, entityID: entityID)
        {
            return .failure(error)
        }
        return .success(decoded)
    }

    /// The client's reading of a server reply or event.
    public func decodeResponse() throws(ProtocolError) -> SMPResponse {
        try SMPResponse.decode(command)
    }
}
