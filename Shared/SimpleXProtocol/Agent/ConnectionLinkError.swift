/// Why text could not be read as a connection link; each case has a one-line description a user
/// can act on (the terminal client prints it as it is).
public enum ConnectionLinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a link at all (no `scheme:` or nothing after it).
    case notALink
    /// A scheme other than `simplex:` or `https://<host>`.
    case unsupportedScheme(String)
    /// A path other than `invitation` or `contact` (e.g. SimpleX's short links `/i`, `/a`).
    case unknownLinkType(String)
    /// The link's shape is wrong somewhere other than a parameter (e.g. no `#/?` before them).
    case malformed(String)
    /// A required parameter (`v`, `smp`, `e2e`, or `x3dh` inside `e2e`) is absent.
    case missingParameter(String)
    /// A parameter's value has a bad `%` escape or is not UTF-8 once unescaped.
    case badURLEncoding(parameter: String)
    /// A parameter is present but its value is wrong.
    case invalidParameter(name: String, reason: String)
    /// A key of an algorithm we do not implement: X448 (SimpleX's ratchet keys) or Ed448.
    case unsupportedKeyType(algorithm: String, parameter: String)
    /// The link's agent versions and ours do not overlap.
    case incompatibleAgentVersion(offered: VersionRange, supported: VersionRange)
    /// The link's e2e encryption versions and ours do not overlap.
    case incompatibleE2EVersion(offered: VersionRange, supported: VersionRange)

    public var description: String {
        switch self {
        case .notALink:
            return "not a connection link"
        case .unsupportedScheme(let scheme):
            return "unsupported link scheme \(scheme.debugDescription) (expected simplex: or https://)"
        case .unknownLinkType(let path):
            return "unknown link type \(path.debugDescription) (expected invitation or contact)"
        case .malformed(let why):
            return "malformed link: \(why)"
        case .missingParameter(let name):
            return "link parameter \(name) is missing"
        case .badURLEncoding(let name):
            return "link parameter \(name) has a bad URL encoding"
        case .invalidParameter(let name, let reason):
            return "link parameter \(name) is invalid: \(reason)"
        case .unsupportedKeyType(let algorithm, let parameter):
            return
                "\(algorithm) keys are not supported (in \(parameter)): this looks like a SimpleX Chat link, "
                + "and this client only uses X25519 keys"
        case .incompatibleAgentVersion(let offered, let supported):
            return "incompatible agent version \(offered) (this client supports \(supported))"
                + Self.simplexHint(offered)
        case .incompatibleE2EVersion(let offered, let supported):
            return "incompatible e2e encryption version \(offered) (this client supports \(supported))"
                + Self.simplexHint(offered)
        }
    }

    private static func simplexHint(_ offered: VersionRange) -> String {
        AgentVersions.isSimplexRange(offered) ? ": the link is from SimpleX Chat, not from this client" : ""
    }
}
