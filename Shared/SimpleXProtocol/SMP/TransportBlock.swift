/// SMP's fixed-size block: a count byte (1–255), each transmission as a `Large` string, then
/// `'#'` padding, so every block on the wire is the same size whatever it carries.
public enum TransportBlock {
    /// Bytes of a block on the wire.
    public static let size = 16_384
    /// Bytes of the padded block before the transport chain's secretbox adds its 16-byte tag.
    public static let encryptedPayloadSize = 16_384 - 16
    /// Most transmissions per block: the count is one byte and a block carries at least one.
    public static let maxTransmissions = 255

    /// Pads the transmissions into one block of `encryptedPayloadSize` bytes.
    public static func encode(_ transmissions: [[UInt8]]) throws(ProtocolError) -> [UInt8] {
        guard (1...maxTransmissions).contains(transmissions.count) else {
            throw .invalid("block of \(transmissions.count) transmissions (1–\(maxTransmissions) allowed)")
        }
        var writer = ByteWriter(capacity: encryptedPayloadSize)
        writer.append(UInt8(transmissions.count))
        for transmission in transmissions { try writer.appendLarge(transmission) }
        return try Padding.pad(writer.bytes, to: encryptedPayloadSize)
    }

    /// The transmissions in a decrypted block; a malformed block is answered with `ERR BLOCK`.
    public static func decode(_ padded: [UInt8]) throws(ProtocolError) -> [[UInt8]] {
        guard padded.count == encryptedPayloadSize else {
            throw .invalid("block of \(padded.count) bytes (expected \(encryptedPayloadSize))")
        }
        var reader = ByteReader(try Padding.unpad(padded))
        let count = Int(try reader.readByte("transmission count"))
        guard count > 0 else { throw .invalid("block with no transmissions") }
        var transmissions: [[UInt8]] = []
        transmissions.reserveCapacity(count)
        for _ in 0..<count { transmissions.append(try reader.readLarge("transmission")) }
        try reader.expectEnd("block")
        return transmissions
    }

    /// Bytes available for the count byte and the `Large` transmissions: the padding's length prefix
    /// takes 2.
    static let contentCapacity = encryptedPayloadSize - 2

    /// Whether one transmission fits in a block on its own.
    public static func fits(_ transmission: [UInt8]) -> Bool { 1 + 2 + transmission.count <= contentCapacity }

    /// Groups transmissions, in order, into as few blocks as fit (the relay batches replies). A
    /// transmission too large for any block gets a block of its own, so `encode` reports it as
    /// `tooLarge` to the caller, who then answers that one command with an error.
    public static func batch(_ transmissions: [[UInt8]]) -> [[[UInt8]]] {
        var batches: [[[UInt8]]] = []
        var current: [[UInt8]] = []
        var used = 1  // the count byte
        for transmission in transmissions {
            let cost = 2 + transmission.count
            if !current.isEmpty && (used + cost > contentCapacity || current.count == maxTransmissions) {
                batches.append(current)
                current = []
                used = 1
            }
            current.append(transmission)
            used += cost
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }
}
