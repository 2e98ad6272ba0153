/// The agent-protocol and e2e (double ratchet) versions this build speaks, and SimpleX's for contrast.
///
/// Ours are numbered from 1000, a space SimpleX will not reach (agent 2–7 and e2e 2–3 in simplexmq
/// 6.x, each growing by about one a year), because our agent is SimpleX-shaped but not SimpleX:
/// X25519 instead of X448 in the X3DH, XChaCha20-Poly1305 instead of AES-GCM in the ratchet, no
/// post-quantum KEM (DESIGN.md §5). With disjoint ranges each side's version negotiation refuses
/// the other's links and envelopes cleanly ("incompatible version") instead of reading our keys as
/// theirs, or theirs as ours, and failing obscurely in the middle of a handshake.
public enum AgentVersions {
    /// First version of our agent protocol: the fast duplex handshake (sender-secured queues),
    /// receipts, queue rotation and ratchet re-sync, in SimpleX's envelope shapes.
    public static let firstAgentVersion: UInt16 = 1000
    /// First version of our e2e encryption: X3DH over two X25519 keys per side, then the double
    /// ratchet with XChaCha20-Poly1305 (SimpleX's KDF labels and structure, `Crypto/Ratchet.hs`).
    public static let firstE2EVersion: UInt16 = 1000

    /// The agent versions this build supports; goes in links (`v=`) and envelopes.
    public static let agent = VersionRange(firstAgentVersion)
    /// The e2e versions this build supports; goes in invitation links (`e2e=v=...`) and in the
    /// ratchet parameters of confirmations.
    public static let e2e = VersionRange(firstE2EVersion)

    /// Versions at or below this are SimpleX's own numbering: a link offering only those is from
    /// SimpleX Chat (or another simplexmq client), which errors say so the user knows why.
    public static let simplexVersionCeiling: UInt16 = 999

    /// Whether a range lies wholly in SimpleX's version space.
    public static func isSimplexRange(_ range: VersionRange) -> Bool { range.max <= simplexVersionCeiling }
}
