/// The end-to-end ratchet versions this implementation speaks.
///
/// Ours, not SimpleX's (whose e2e range is 2–3): the structure follows SimpleX, but with X25519 and
/// XChaCha20-Poly1305 instead of X448 and AES-GCM, so the two cannot read each other's messages.
/// Numbered from 1000 like the protocol module's `AgentVersions.firstE2EVersion`, the e2e version the
/// links and confirmations negotiate (this module cannot import that one: it depends on CSodium only).
public enum RatchetVersion {
    /// The version written in new messages' encrypted headers and as the maximum in their headers.
    public static let current: UInt16 = 1000
    /// The versions whose messages this implementation decrypts.
    public static let supported: ClosedRange<UInt16> = 1000...1000
}

/// Why a ratchet operation failed. Every failure of `encrypt` or `decrypt` leaves the state as it was.
public enum RatchetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// This side cannot send yet: the invitation's maker (the initiator) sends only after it has
    /// received the joiner's first message.
    case noSendingChain
    /// The message does not fit the padded length (2 bytes of length prefix plus the message).
    case messageTooLarge(length: Int, paddedLength: Int)
    /// The bytes are not a ratchet message, or an authenticated header does not parse; the text says where.
    case malformedMessage(String)
    /// The message was encrypted with a ratchet version this implementation does not read.
    case unsupportedVersion(UInt16)
    /// No header key this ratchet holds opens the header: tampered, from another connection, or from
    /// a chain whose keys are all gone.
    case headerDecryptionFailed
    /// The header opened but the body did not authenticate: the body, its tag or the header it is
    /// bound to was altered, or the associated data differs.
    case decryptionFailed
    /// The message's key was already used: a replay or a duplicate delivery. (A message so late that
    /// its skipped key was dropped to keep the total at `RatchetState.maxSkip` gets this too.)
    case duplicateMessage
    /// Decrypting would need more than `RatchetState.maxSkip` skipped message keys at once.
    case tooManySkipped(Int)
    /// A key is not 32 bytes, or a public key is a low-order point whose DH output would be all zeros.
    case invalidPublicKey
    /// Serialised state that does not decode; the text says what was wrong.
    case invalidState(String)

    public var description: String {
        switch self {
        case .noSendingChain:
            return "ratchet cannot send yet: no message received from the joining side"
        case .messageTooLarge(let length, let paddedLength):
            return "message of \(length) bytes does not fit a padded length of \(paddedLength)"
        case .malformedMessage(let detail):
            return "malformed ratchet message: \(detail)"
        case .unsupportedVersion(let version):
            return "unsupported ratchet version \(version) (supported \(RatchetVersion.supported))"
        case .headerDecryptionFailed:
            return "ratchet header decryption failed"
        case .decryptionFailed:
            return "ratchet message decryption failed: the body or its associated data was altered"
        case .duplicateMessage:
            return "duplicate ratchet message: its key was already used"
        case .tooManySkipped(let count):
            return "ratchet message would skip \(count) message keys at once (at most 512)"
        case .invalidPublicKey:
            return "invalid X25519 public key"
        case .invalidState(let detail):
            return "invalid ratchet state: \(detail)"
        }
    }
}
