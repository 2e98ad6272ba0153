/// A range of transport protocol versions, `min...max`, as the hellos carry it (two Word16s).
public struct TransportVersionRange: Sendable, Equatable, CustomStringConvertible {
    public let min: UInt16
    public let max: UInt16

    /// Nil when `min > max`.
    public init?(min: UInt16, max: UInt16) {
        guard min <= max else { return nil }
        self.min = min
        self.max = max
    }

    /// A single version.
    public init(_ version: UInt16) {
        min = version
        max = version
    }

    /// The versions this build speaks: 1 only. Our transport (Ed25519 identity + signed X25519
    /// session key instead of TLS, DESIGN.md §5) is not SimpleX's, so its numbering starts
    /// afresh instead of continuing SimpleX's SMP 6–18; a SimpleX peer cannot talk to it anyway.
    public static let supported = TransportVersionRange(1)

    public func contains(_ version: UInt16) -> Bool { version >= min && version <= max }

    /// The highest version in both ranges, or nil when they do not overlap.
    public func highestCommon(with other: TransportVersionRange) -> UInt16? {
        let high = Swift.min(max, other.max)
        return high >= Swift.max(min, other.min) ? high : nil
    }

    /// SimpleX's text form: `"1-3"`, or `"1"` when min = max.
    public var description: String { min == max ? "\(min)" : "\(min)-\(max)" }
}
