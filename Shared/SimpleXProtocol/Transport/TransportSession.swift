import Foundation
internal import SimpleXCrypto

/// The encrypted side of one connection after the handshake: every block is a secretbox under
/// the next key of the sending chain (SimpleX's block encryption, here without TLS around it).
///
/// A block that fails `openBlock` leaves the receiving chain one step ahead of the sender, so
/// nothing after it can be read: the caller must drop the connection on any `TransportError`.
public struct TransportSession: Sendable {
    /// Every block on the wire, handshake blocks included (SimpleX's 16,384 bytes).
    public static let blockSize = 16_384
    /// The plaintext of an encrypted block: the block less secretbox's 16-byte tag.
    public static let paddedBlockSize = blockSize - SecretBox.macCount

    /// Which end of the connection this is; the server sends with the first chain of `sbcInit`.
    public enum Role: Sendable, Equatable { case server, client }

    public let role: Role
    /// The server's 32 random bytes naming the session; commands sign `shortString(sessionID)` first.
    public let sessionID: [UInt8]
    /// The agreed transport version.
    public let version: UInt16
    /// The server's ephemeral X25519 session public key (both ends know it).
    public let serverSessionKey: [UInt8]
    /// The server's session private key, kept for queue authenticator keys; nil on the client.
    let serverSessionPrivateKey: SecureBytes?

    private var sendChain: BlockChain
    private var receiveChain: BlockChain

    init(
        role: Role, sessionID: [UInt8], version: UInt16, sharedSecret: SecureBytes, serverSessionKey: [UInt8],
        serverSessionPrivateKey: SecureBytes?
    ) {
        self.role = role
        self.sessionID = sessionID
        self.version = version
        self.serverSessionKey = serverSessionKey
        self.serverSessionPrivateKey = serverSessionPrivateKey
        let chains = BlockChain.pair(sessionID: sessionID, sharedSecret: sharedSecret)
        switch role {
        case .server: (sendChain, receiveChain) = (chains.first, chains.second)
        case .client: (sendChain, receiveChain) = (chains.second, chains.first)
        }
    }

    /// Encrypts one padded block (exactly `paddedBlockSize` bytes) into a `blockSize` block.
    public mutating func sealBlock(_ padded: [UInt8]) throws(TransportError) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        var failure: TransportError?
        padded.withUnsafeBytes { input in
            block.withUnsafeMutableBytes { output in
                do throws(TransportError) { try sealBlock(input, into: output) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        return block
    }

    /// Allocation-light `sealBlock` into the caller's `blockSize` buffer (a reused write buffer).
    public mutating func sealBlock(
        _ padded: UnsafeRawBufferPointer, into block: UnsafeMutableRawBufferPointer
    ) throws(TransportError) {
        guard padded.count == Self.paddedBlockSize else {
            throw .blockSize(expected: Self.paddedBlockSize, actual: padded.count)
        }
        guard block.count == Self.blockSize else { throw .blockSize(expected: Self.blockSize, actual: block.count) }
        do {
            try sendChain.next { key, nonce in
                try SecretBox.seal(padded, nonce: nonce, key: key, into: block)
            }
        } catch {
            // Sizes are checked above; a fresh 32-byte key and 24-byte nonce cannot be refused.
            preconditionFailure("secretbox of a checked block failed: \(error)")
        }
    }

    /// Decrypts the next block from the peer into its `paddedBlockSize` plaintext.
    public mutating func openBlock(_ block: [UInt8]) throws(TransportError) -> [UInt8] {
        var padded = [UInt8](repeating: 0, count: Self.paddedBlockSize)
        var failure: TransportError?
        block.withUnsafeBytes { input in
            padded.withUnsafeMutableBytes { output in
                do throws(TransportError) { try openBlock(input, into: output) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        return padded
    }

    /// Allocation-light `openBlock` into the caller's `paddedBlockSize` buffer. The chain advances
    /// even when the block fails, so after a failure the connection must be dropped.
    public mutating func openBlock(
        _ block: UnsafeRawBufferPointer, into padded: UnsafeMutableRawBufferPointer
    ) throws(TransportError) {
        guard block.count == Self.blockSize else { throw .blockSize(expected: Self.blockSize, actual: block.count) }
        guard padded.count == Self.paddedBlockSize else {
            throw .blockSize(expected: Self.paddedBlockSize, actual: padded.count)
        }
        do {
            try receiveChain.next { key, nonce in
                try SecretBox.open(block, nonce: nonce, key: key, into: padded)
            }
        } catch {
            throw .blockAuthentication
        }
    }
}
