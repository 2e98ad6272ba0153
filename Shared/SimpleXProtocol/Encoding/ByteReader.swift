/// Reads values in SimpleX's binary encoding from the front of a byte buffer; every read checks
/// the bounds and throws `ProtocolError.truncated` instead of trapping.
public struct ByteReader: Sendable {
    public let bytes: [UInt8]
    public private(set) var offset: Int

    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public var isAtEnd: Bool { offset >= bytes.count }
    public var remaining: Int { bytes.count - offset }

    public mutating func readByte(_ what: String = "byte") throws(ProtocolError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(what) }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func readBytes(_ count: Int, _ what: String = "bytes") throws(ProtocolError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw .truncated(what) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Everything that is left (SimpleX `Tail`).
    public mutating func readTail() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[min(offset, bytes.count)...])
    }

    public mutating func readWord16(_ what: String = "Word16") throws(ProtocolError) -> UInt16 {
        let b = try readBytes(2, what)
        return UInt16(b[0]) << 8 | UInt16(b[1])
    }

    public mutating func readWord32(_ what: String = "Word32") throws(ProtocolError) -> UInt32 {
        let b = try readBytes(4, what)
        return b.reduce(0) { $0 << 8 | UInt32($1) }
    }

    public mutating func readInt64(_ what: String = "Int64") throws(ProtocolError) -> Int64 {
        let b = try readBytes(8, what)
        return Int64(bitPattern: b.reduce(0) { $0 << 8 | UInt64($1) })
    }

    public mutating func readBool(_ what: String = "Bool") throws(ProtocolError) -> Bool {
        switch try readByte(what) {
        case UInt8(ascii: "T"): return true
        case UInt8(ascii: "F"): return false
        default: throw .invalid(what)
        }
    }

    public mutating func readShortString(_ what: String = "short string") throws(ProtocolError) -> [UInt8] {
        let count = Int(try readByte(what))
        return try readBytes(count, what)
    }

    public mutating func readLarge(_ what: String = "large string") throws(ProtocolError) -> [UInt8] {
        let count = Int(try readWord16(what))
        return try readBytes(count, what)
    }

    public mutating func readMaybe<T>(
        _ what: String, _ decode: (inout ByteReader) throws -> T
    ) throws -> T? {
        switch try readByte(what) {
        case UInt8(ascii: "0"): return nil
        case UInt8(ascii: "1"): return try decode(&self)
        default: throw ProtocolError.invalid(what)
        }
    }

    public mutating func readList<T>(
        _ what: String, _ decode: (inout ByteReader) throws -> T
    ) throws -> [T] {
        let count = Int(try readByte(what))
        var items: [T] = []
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try decode(&self)) }
        return items
    }

    /// Consumes `text` (a command tag such as `"SEND "`), or throws.
    public mutating func expect(ascii text: StaticString, _ what: String) throws(ProtocolError) {
        let matches = text.withUTF8Buffer { tag in
            remaining >= tag.count && bytes[offset..<offset + tag.count].elementsEqual(tag)
        }
        guard matches else { throw .invalid(what) }
        offset += text.utf8CodeUnitCount
    }

    /// Whether the next bytes are `text`, without consuming them.
    public func peek(ascii text: StaticString) -> Bool {
        text.withUTF8Buffer { tag in remaining >= tag.count && bytes[offset..<offset + tag.count].elementsEqual(tag) }
    }

    /// Throws unless everything was read.
    public func expectEnd(_ what: String) throws(ProtocolError) {
        guard isAtEnd else { throw .invalid("\(what): \(remaining) unexpected trailing bytes") }
    }
}
