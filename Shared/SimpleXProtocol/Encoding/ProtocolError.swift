/// Why bytes from the network could not be read as a protocol value. Decoding is tolerant at
/// the edges (an unknown command becomes an error reply, never a crash), strict inside.
public enum ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended before the value did.
    case truncated(String)
    /// The bytes are not a valid value of the expected kind.
    case invalid(String)
    /// The value is too long for its length prefix or its limit.
    case tooLarge(String)
    /// A tag this code does not know (a newer peer's message type, or garbage): the value is
    /// unusable, but nothing else about the input need be wrong.
    case unknownTag(String)

    public var description: String {
        switch self {
        case .truncated(let what): return "truncated \(what)"
        case .invalid(let what): return "invalid \(what)"
        case .tooLarge(let what): return "too large: \(what)"
        case .unknownTag(let what): return "unknown \(what)"
        }
    }
}
