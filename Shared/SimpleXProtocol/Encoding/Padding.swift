/// SimpleX padding: 2-byte big-endian length + message + `'#'` filler up to a fixed size, so
/// every block and message body has the same length on the wire.
public enum Padding {
    public static let filler = UInt8(ascii: "#")

    public static func pad(_ message: some Collection<UInt8>, to length: Int) throws(ProtocolError) -> [UInt8] {
        guard message.count <= 65_535, message.count + 2 <= length else {
            throw .tooLarge("message of \(message.count) bytes for a padded size of \(length)")
        }
        // Filled first, then the header and message written over it: appending the filler
        // element by element cost milliseconds per block in debug builds (tests, fuzzing).
        var out = [UInt8](repeating: filler, count: length)
        out[0] = UInt8(message.count >> 8)
        out[1] = UInt8(truncatingIfNeeded: message.count)
        out.replaceSubrange(2..<(2 + message.count), with: message)
        return out
    }

    public static func unpad(_ padded: some Collection<UInt8>) throws(ProtocolError) -> [UInt8] {
        var reader = ByteReader(Array(padded))
        let count = Int(try reader.readWord16("padded length"))
        guard reader.remaining >= count else { throw .invalid("padded length \(count) beyond the data") }
        return try reader.readBytes(count, "padded message")
    }
}
