/// Typed-throwing forms of SimpleX's `NonEmpty` and `Maybe` encodings, for the agent structures
/// (the generic `appendList`/`readList` rethrow untyped errors).
extension ByteWriter {
    /// 1-byte count (1–255) + items.
    mutating func appendNonEmpty<T>(
        _ items: [T], _ what: String, _ encode: (inout ByteWriter, T) throws(ProtocolError) -> Void
    ) throws(ProtocolError) {
        guard !items.isEmpty else { throw .invalid("\(what): an empty list") }
        guard items.count <= 255 else { throw .tooLarge("\(what): a list of \(items.count) items") }
        append(UInt8(items.count))
        for item in items { try encode(&self, item) }
    }

    /// `'0'`, or `'1'` and the value.
    mutating func appendOptional<T>(
        _ value: T?, _ encode: (inout ByteWriter, T) throws(ProtocolError) -> Void
    ) throws(ProtocolError) {
        guard let value else { return append(UInt8(ascii: "0")) }
        append(UInt8(ascii: "1"))
        try encode(&self, value)
    }
}

extension ByteReader {
    /// 1-byte count + items; a count of 0 is invalid.
    mutating func readNonEmpty<T>(
        _ what: String, _ decode: (inout ByteReader) throws(ProtocolError) -> T
    ) throws(ProtocolError) -> [T] {
        let count = Int(try readByte(what))
        guard count > 0 else { throw .invalid("\(what): an empty list") }
        var items: [T] = []
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try decode(&self)) }
        return items
    }

    /// `'0'` for nil, or `'1'` and the value.
    mutating func readOptional<T>(
        _ what: String, _ decode: (inout ByteReader) throws(ProtocolError) -> T
    ) throws(ProtocolError) -> T? {
        switch try readByte(what) {
        case UInt8(ascii: "0"): return nil
        case UInt8(ascii: "1"): return try decode(&self)
        default: throw .invalid(what)
        }
    }

    /// A one- or two-byte ASCII tag (`"M"`, `"QC"`), for unknown-tag errors.
    func describeTag(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).debugDescription
    }
}
