/// A protocol version range: `"1-18"` in text (`"3"` when min = max), two Word16 in binary.
public struct VersionRange: Hashable, Sendable, CustomStringConvertible {
    public let min: UInt16
    public let max: UInt16

    /// A range; `min` above `max` is invalid.
    public init(min: UInt16, max: UInt16) throws(ProtocolError) {
        guard min <= max else { throw .invalid("version range \(min)-\(max)") }
        self.min = min
        self.max = max
    }

    /// The range holding one version.
    public init(_ version: UInt16) {
        min = version
        max = version
    }

    /// Parses `"1-18"` or `"3"`: ASCII digits only, each number within UInt16. Read byte by
    /// byte: every chat message carries one ("v"), and splitting the string cost ~4 µs.
    public init(text: some StringProtocol) throws(ProtocolError) {
        var low: UInt32?
        var current: UInt32 = 0
        var digits = 0
        var valid = true
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                current = current * 10 + UInt32(byte - UInt8(ascii: "0"))
                digits += 1
                valid = current <= UInt32(UInt16.max)
            case UInt8(ascii: "-") where low == nil && digits > 0:
                low = current
                current = 0
                digits = 0
            default:
                valid = false
            }
            if !valid { break }
        }
        guard valid, digits > 0 else { throw .invalid("version range \(String(text).debugDescription)") }
        try self.init(min: UInt16(low ?? current), max: UInt16(current))
    }

    public var description: String { min == max ? "\(min)" : "\(min)-\(max)" }

    /// Whether `version` is in the range.
    public func contains(_ version: UInt16) -> Bool { (min...max).contains(version) }

    /// The versions both sides support, or nil when they share none.
    public func intersection(_ other: VersionRange) -> VersionRange? {
        let low = Swift.max(min, other.min)
        let high = Swift.min(max, other.max)
        return low <= high ? try? VersionRange(min: low, max: high) : nil
    }

    /// Appends min and max as big-endian Word16.
    public func encode(to writer: inout ByteWriter) {
        writer.appendWord16(min)
        writer.appendWord16(max)
    }

    /// Reads min and max; min above max is invalid.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> VersionRange {
        try VersionRange(min: reader.readWord16("minimum version"), max: reader.readWord16("maximum version"))
    }
}
