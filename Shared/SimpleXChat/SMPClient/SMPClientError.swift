import SimpleXNetwork
import SimpleXProtocol
import SimpleXSystem

/// Why an `SMPClient` call failed or its connection dropped.
public enum SMPClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server's identity key does not hash to the address's key hash: it is not the server we asked for.
    case identityMismatch
    /// The handshake failed for another reason (bad signature, no common version, malformed hello).
    case handshake(TransportError)
    /// No TCP connection to any of the address's hosts (the last host's error).
    case connectionFailed(SystemError)
    /// The server answered the command with `ERR`.
    case server(SMPErrorType)
    /// No reply within the command timeout (or the server hello within the connect timeout).
    case timeout
    /// The connection dropped before the reply came, or is down while the client reconnects.
    /// The command may or may not have reached the server; it is never resent automatically.
    case disconnected
    /// `close()` was called.
    case closed
    /// The calling task was cancelled while it waited.
    case cancelled
    /// The command does not fit one transport block, or could not be encoded or authorized.
    case invalidCommand(String)
    /// A reply that is not one the command can get (e.g. OK to NEW).
    case unexpectedResponse(SMPResponse)
    /// The server sent something we could not read; the connection is dropped.
    case protocolViolation(String)
    /// A block failed decryption or had the wrong size; the connection is dropped.
    case transport(TransportError)
    /// The connection closed underneath us (a `.disconnected` event's reason).
    case connectionClosed(CloseReason)
    /// PING got no PONG in time; the connection is dropped and re-established.
    case pingTimeout

    public var description: String {
        switch self {
        case .identityMismatch: return "server identity does not match the address's key hash"
        case .handshake(let error): return "handshake failed: \(error)"
        case .connectionFailed(let error): return "cannot connect: \(error)"
        case .server(let error): return "server error: \(error)"
        case .timeout: return "no reply from the server in time"
        case .disconnected: return "disconnected from the server"
        case .closed: return "the client is closed"
        case .cancelled: return "cancelled"
        case .invalidCommand(let why): return "invalid command: \(why)"
        case .unexpectedResponse(let response): return "unexpected response: \(response)"
        case .protocolViolation(let why): return "server protocol violation: \(why)"
        case .transport(let error): return "transport failure: \(error)"
        case .connectionClosed(let reason): return "connection closed: \(reason)"
        case .pingTimeout: return "no PONG in time"
        }
    }
}
