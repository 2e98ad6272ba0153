/// Why a command failed, sent as `ERR <text>`; the text forms are SimpleX's (`ERR AUTH`, `ERR CMD SYNTAX`).
public enum SMPErrorType: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The block or transmission could not be read at all (bad framing or authorization size).
    case block
    /// The transmission was for another session.
    case session
    /// The command was unknown, malformed or carried the wrong credentials.
    case cmd(CommandError)
    /// Bad authorization, or no such queue (the two are indistinguishable on purpose).
    case auth
    /// Decryption failed (SimpleX uses it in the proxy protocol).
    case crypto
    /// The queue is full.
    case quota
    /// ACK named no delivered message.
    case noMsg
    /// SEND's body was over the limit.
    case largeMsg
    /// A server key or link has expired.
    case expired
    /// The server failed.
    case `internal`
    /// Used inside servers only, never meant to be sent.
    case duplicate
    /// An error this code does not know, kept as the text after `ERR ` so it can be shown.
    case unrecognized(String)

    /// The text after `ERR `.
    public var description: String {
        switch self {
        case .block: return "BLOCK"
        case .session: return "SESSION"
        case .cmd(let error): return "CMD \(error.description)"
        case .auth: return "AUTH"
        case .crypto: return "CRYPTO"
        case .quota: return "QUOTA"
        case .noMsg: return "NO_MSG"
        case .largeMsg: return "LARGE_MSG"
        case .expired: return "EXPIRED"
        case .internal: return "INTERNAL"
        case .duplicate: return "DUPLICATE_"
        case .unrecognized(let text): return text
        }
    }

    /// Parses the text after `ERR `; anything unknown becomes `.unrecognized`, never a failure.
    public init(text bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch text {
        case "BLOCK": self = .block
        case "SESSION": self = .session
        case "AUTH": self = .auth
        case "CRYPTO": self = .crypto
        case "QUOTA": self = .quota
        case "NO_MSG": self = .noMsg
        case "LARGE_MSG": self = .largeMsg
        case "EXPIRED": self = .expired
        case "INTERNAL": self = .internal
        case "DUPLICATE_": self = .duplicate
        default:
            if text.hasPrefix("CMD "), let error = CommandError(text: text.dropFirst(4)) {
                self = .cmd(error)
            } else {
                self = .unrecognized(text)
            }
        }
    }
}

/// What was wrong with a command (`ERR CMD <text>`).
public enum CommandError: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The command tag is not one the server knows.
    case unknown
    /// The command's arguments could not be parsed.
    case syntax
    /// The command is not allowed here (e.g. SUB and GET on one queue in one connection).
    case prohibited
    /// Required authorization or entity id is missing.
    case noAuth
    /// Authorization or an entity id is present where the command must not have one.
    case hasAuth
    /// The command needs an entity id and has none.
    case noEntity

    public var description: String {
        switch self {
        case .unknown: return "UNKNOWN"
        case .syntax: return "SYNTAX"
        case .prohibited: return "PROHIBITED"
        case .noAuth: return "NO_AUTH"
        case .hasAuth: return "HAS_AUTH"
        case .noEntity: return "NO_ENTITY"
        }
    }

    init?(text: some StringProtocol) {
        switch text {
        case "UNKNOWN": self = .unknown
        case "SYNTAX": self = .syntax
        case "PROHIBITED": self = .prohibited
        case "NO_AUTH": self = .noAuth
        case "HAS_AUTH": self = .hasAuth
        // SimpleX's old name for NO_ENTITY, still accepted by its parser.
        case "NO_ENTITY", "NO_QUEUE": self = .noEntity
        default: return nil
        }
    }
}
