import SimpleXCrypto

/// A server entity id (a queue's recipient or sender id): 24 random bytes, or empty for none.
public struct EntityID: Hashable, Sendable, CustomStringConvertible {
    /// Length of the ids the server makes.
    public static let count = 24
    /// No entity: what PING, NEW and server-wide errors carry.
    public static let empty = EntityID([])

    /// The raw id bytes.
    public let bytes: [UInt8]

    /// Wraps raw id bytes; the wire allows 0–255 bytes, so any length is kept as received.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// A fresh 24-byte id from the system CSPRNG; ids are unguessable so knowing one is the capability.
    public static func random() -> EntityID { EntityID(Random.bytes(count: count)) }

    /// True for the empty id.
    public var isEmpty: Bool { bytes.isEmpty }

    /// base64url with padding, SimpleX's text form of ids.
    public var description: String { Base64URL.encode(bytes) }
}

/// A transmission's correlation id: 24 random bytes chosen by the client, echoed in the reply;
/// empty for server events (MSG after ACK is a reply; MSG to a subscription, END are events).
public struct CorrelationID: Hashable, Sendable, CustomStringConvertible {
    /// Length of the ids clients make.
    public static let count = 24
    /// The empty id of server events.
    public static let empty = CorrelationID([])

    /// The raw id bytes.
    public let bytes: [UInt8]

    /// Wraps raw id bytes as received.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// A fresh 24-byte id from the system CSPRNG.
    public static func random() -> CorrelationID { CorrelationID(Random.bytes(count: count)) }

    /// True for server events.
    public var isEmpty: Bool { bytes.isEmpty }

    /// base64url with padding.
    public var description: String { Base64URL.encode(bytes) }
}

extension ByteWriter {
    mutating func appendEntityID(_ id: EntityID) throws(ProtocolError) { try appendShortString(id.bytes) }
}

extension ByteReader {
    mutating func readEntityID(_ what: String = "entity id") throws(ProtocolError) -> EntityID {
        EntityID(try readShortString(what))
    }
}
