import Foundation
import SimpleXCrypto

/// Seals the agent database's secret columns (private keys, ratchet state) with
/// XChaCha20-Poly1305 under a key kept in the keychain, because the SQLite file itself is not
/// encrypted (Debian's SQLite has no SQLCipher).
///
/// Each value is bound to where it lives (`column` and the row's key as associated data), so a
/// sealed value copied into another row or column fails to open instead of being misused.
public struct AgentSecrets: Sendable {
    private let key: SecureBytes

    /// The column key: 32 random bytes, made once and kept in the keychain (`agentStoreKey`).
    public init(key: SecureBytes) throws(AgentError) {
        guard key.count == XChaCha20Poly1305.keyCount else {
            throw .store("the agent store key has \(key.count) bytes, not 32")
        }
        self.key = key
    }

    /// nonce ‖ ciphertext ‖ tag.
    func seal(_ plaintext: some ContiguousBytes, column: String, row: String) -> [UInt8] {
        let nonce = XChaCha20Poly1305.randomNonce()
        do {
            return nonce
                + (try XChaCha20Poly1305.seal(
                    plaintext, key: key, nonce: nonce, associatedData: Array((column + "\u{0}" + row).utf8)))
        } catch {
            // Only a message longer than the AEAD's limit (far beyond any column) fails to seal.
            preconditionFailure("sealing an agent column failed: \(error)")
        }
    }

    func open(_ sealed: [UInt8], column: String, row: String) throws(AgentError) -> SecureBytes {
        let nonceCount = XChaCha20Poly1305.nonceCount
        guard sealed.count >= nonceCount + XChaCha20Poly1305.tagCount else {
            throw .store("\(column) of \(row) is truncated")
        }
        do {
            return try XChaCha20Poly1305.open(
                sealed[nonceCount...], key: key, nonce: Array(sealed[..<nonceCount]),
                associatedData: Array((column + "\u{0}" + row).utf8))
        } catch {
            throw .store(
                "\(column) of \(row) does not open with this keychain's agent key (tampered, or another keychain)"
            )
        }
    }
}

extension AgentSecrets {
    /// The agent key from `keychain`, made on first use.
    public static func load(from keychain: KeychainStore) throws(AgentError) -> AgentSecrets {
        do {
            if let key = try keychain.get(.agentStoreKey) { return try AgentSecrets(key: key) }
            let key = SecureBytes.random(count: XChaCha20Poly1305.keyCount)
            try keychain.set(.agentStoreKey, key)
            return try AgentSecrets(key: key)
        } catch let error as AgentError {
            throw error
        } catch {
            throw .store("the agent key in the keychain: \(error)")
        }
    }
}
