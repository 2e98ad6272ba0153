/// SimpleX padding: 2-byte big-endian length + message + `'#'` filler up to a fixed size, so
/// every block and message body has the same length on the wire.
public enum Padding {
    public static let filler = UInt8(ascii: "#")

    public static func pad(_ message: some Collection<UInt8>, to length: Int) throws(ProtocolError) -> [UInt8] {
        guard message.count <= 65_535, message.count + 2 <= length else {
            throw .tooLarge("message of \(message.count) bytes for a padded size of \(length)")
        }
        var out = [UInt8]()
        out.reserveCapacity(length)
        out.append(UInt8(message.count >> 8))
        out.append(UInt8(truncatingIfNeeded: message.count))
        out.append(contentsOf: message)
        out.append(contentsOf: repeatElement(filler, count: length - out.count))
        return out
    }

    public static func unpad(_ padded: some Collection<UInt8>) throws(ProtocolError) -> [UInt8] {
        var reader = ByteReader(Array(padded))
        let count = Int(try reader.readWord16("padded length"))
        guard reader.remaining >= count else { throw .invalid("padded length \(count) beyond the data") }
        return try reader.readBytes(count, "padded message")
    }
}
