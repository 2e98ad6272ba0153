/// Appends values in SimpleX's binary encoding (simplexmq `Simplex.Messaging.Encoding`):
/// big-endian integers, length-prefixed strings, `'T'`/`'F'` booleans, `'0'`/`'1'` maybes,
/// count-prefixed lists.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func append(_ byte: UInt8) { bytes.append(byte) }
    public mutating func append(_ other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }
    /// ASCII text such as a command tag (`"SEND "`).
    public mutating func append(ascii text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func appendWord16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    public mutating func appendWord32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Int64 as two big-endian Word32s, which is the big-endian Int64.
    public mutating func appendInt64(_ value: Int64) {
        let raw = UInt64(bitPattern: value)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: raw >> UInt64(shift))) }
    }

    public mutating func appendBool(_ value: Bool) { bytes.append(value ? UInt8(ascii: "T") : UInt8(ascii: "F")) }

    /// 1-byte length + bytes.
    public mutating func appendShortString(_ value: some Collection<UInt8>) throws(ProtocolError) {
        guard value.count <= 255 else { throw .tooLarge("short string of \(value.count) bytes") }
        bytes.append(UInt8(value.count))
        bytes.append(contentsOf: value)
    }

    /// 2-byte big-endian length + bytes.
    public mutating func appendLarge(_ value: some Collection<UInt8>) throws(ProtocolError) {
        guard value.count <= 65_535 else { throw .tooLarge("large string of \(value.count) bytes") }
        appendWord16(UInt16(value.count))
        bytes.append(contentsOf: value)
    }

    /// `'0'`, or `'1'` followed by the value.
    public mutating func appendMaybe<T>(
        _ value: T?, _ encode: (inout ByteWriter, T) throws -> Void
    ) throws {
        guard let value else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        bytes.append(UInt8(ascii: "1"))
        try encode(&self, value)
    }

    /// 1-byte count + items.
    public mutating func appendList<T>(
        _ items: [T], _ encode: (inout ByteWriter, T) throws -> Void
    ) throws {
        guard items.count <= 255 else { throw ProtocolError.tooLarge("list of \(items.count) items") }
        bytes.append(UInt8(items.count))
        for item in items { try encode(&self, item) }
    }
}
