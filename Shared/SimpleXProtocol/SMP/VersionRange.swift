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

    /// Parses `"1-18"` or `"3"`.
    public init(text: some StringProtocol) throws(ProtocolError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let low = UInt16(parts[0]), let high = UInt16(parts[parts.count - 1])
        else { throw .invalid("version range \(String(text).debugDescription)") }
        try self.init(min: low, max: high)
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
