import SimpleXCrypto

/// The keychain file: a header in the clear, then the items sealed with XChaCha20-Poly1305.
///
///     magic "SXKC" | version 1 | key source (1 byte)
///     [passphrase only: salt (16) | opsLimit (u64 LE) | memLimit (u64 LE)]
///     key check (32) | nonce (24) | ciphertext of the items (tag included)
///
/// The whole header (through the nonce) is the AEAD's associated data, so changing any byte of
/// the file fails authentication. The key check is the second half of HKDF-SHA512 of the master
/// key (the first half is the AEAD key): it tells a wrong key or passphrase from a tampered file.
struct KeychainFile {
    static let magic: [UInt8] = Array("SXKC".utf8)
    static let version: UInt8 = 1
    static let keyCheckCount = 32

    var source: KeychainKeySource
    var salt: [UInt8] = []
    var limits: PasswordHash.Limits?
    var keyCheck: [UInt8]
    var nonce: [UInt8]
    var ciphertext: [UInt8]

    /// The bytes before the ciphertext: authenticated, not encrypted.
    var header: [UInt8] {
        var out = Self.magic + [Self.version, source.rawValue]
        if source == .passphrase, let limits {
            out += salt
            out += littleEndianBytes(limits.opsLimit)
            out += littleEndianBytes(limits.memLimit)
        }
        return out + keyCheck + nonce
    }

    var bytes: [UInt8] { header + ciphertext }

    /// Parses the clear part of a keychain file; any malformation is `corrupted`.
    init(parsing bytes: [UInt8], path: String) throws(KeychainError) {
        var reader = ByteReader(bytes)
        guard reader.take(4) == Self.magic else { throw .corrupted(path: path, reason: "not a keychain file") }
        guard let version = reader.take(1)?.first, version == Self.version else {
            throw .corrupted(path: path, reason: "unknown keychain format version")
        }
        guard let raw = reader.take(1)?.first, let source = KeychainKeySource(rawValue: raw) else {
            throw .corrupted(path: path, reason: "unknown key source")
        }
        self.source = source
        if source == .passphrase {
            guard let salt = reader.take(PasswordHash.saltCount), let ops = reader.take(8), let mem = reader.take(8)
            else { throw .corrupted(path: path, reason: "truncated header") }
            self.salt = salt
            let limits = PasswordHash.Limits(opsLimit: fromLittleEndian(ops), memLimit: fromLittleEndian(mem))
            // The limits come from the file: refuse ones that would exhaust memory or time
            // before the passphrase is even checked.
            let ceiling = PasswordHash.Limits.sensitive
            guard limits.opsLimit <= ceiling.opsLimit * 4, limits.memLimit <= ceiling.memLimit * 4 else {
                throw .corrupted(path: path, reason: "unreasonable key derivation limits")
            }
            self.limits = limits
        }
        guard let keyCheck = reader.take(Self.keyCheckCount), let nonce = reader.take(XChaCha20Poly1305.nonceCount)
        else { throw .corrupted(path: path, reason: "truncated header") }
        self.keyCheck = keyCheck
        self.nonce = nonce
        ciphertext = reader.rest
        guard ciphertext.count >= XChaCha20Poly1305.tagCount else {
            throw .corrupted(path: path, reason: "truncated contents")
        }
    }

    init(source: KeychainKeySource, salt: [UInt8], limits: PasswordHash.Limits?, keys: KeychainKeys) {
        self.source = source
        self.salt = salt
        self.limits = limits
        keyCheck = keys.check
        nonce = []
        ciphertext = []
    }

    /// Seals `items` with a fresh nonce.
    mutating func seal(_ items: KeychainItems, keys: KeychainKeys) throws(KeychainError) {
        nonce = XChaCha20Poly1305.randomNonce()
        let plaintext = items.encoded()
        do {
            ciphertext = try XChaCha20Poly1305.seal(plaintext, key: keys.aead, nonce: nonce, associatedData: header)
        } catch {
            throw .crypto(error as? CryptoError ?? .invalidParameters("\(error)"))
        }
    }

    /// Opens the items; a failure means the file was changed after it was written.
    func open(keys: KeychainKeys, path: String) throws(KeychainError) -> KeychainItems {
        guard let items = KeychainItems(decoding: try decrypt(keys: keys, path: path)) else {
            throw .corrupted(path: path, reason: "malformed contents")
        }
        return items
    }

    /// One item's value, without copying the others out of the decrypted contents.
    func value(named name: String, keys: KeychainKeys, path: String) throws(KeychainError) -> SecureBytes? {
        guard let value = KeychainItems.value(named: name, in: try decrypt(keys: keys, path: path)) else {
            throw .corrupted(path: path, reason: "malformed contents")
        }
        return value
    }

    private func decrypt(keys: KeychainKeys, path: String) throws(KeychainError) -> SecureBytes {
        do {
            return try XChaCha20Poly1305.open(ciphertext, key: keys.aead, nonce: nonce, associatedData: header)
        } catch {
            throw .corrupted(path: path, reason: "authentication failed")
        }
    }
}

/// The AEAD key and the key check, both derived from the master key.
struct KeychainKeys {
    let aead: SecureBytes
    let check: [UInt8]

    init(masterKey: SecureBytes) throws(KeychainError) {
        let okm: SecureBytes
        do {
            okm = try HKDFSHA512.deriveKey(
                inputKeyMaterial: masterKey, salt: [UInt8](), info: Array("simplex keychain v1".utf8),
                outputByteCount: 64)
        } catch {
            throw .crypto(error as? CryptoError ?? .invalidParameters("\(error)"))
        }
        aead = okm.withUnsafeBytes { all in SecureBytes(copying: UnsafeRawBufferPointer(rebasing: all[0..<32])) }
        check = okm.withUnsafeBytes { Array($0[32..<64]) }
    }

    /// Constant-time comparison with a file's key check.
    func matches(_ fileCheck: [UInt8]) -> Bool {
        SecureBytes(copying: check) == SecureBytes(copying: fileCheck)
    }
}

/// Reads a byte array front to back.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    var rest: [UInt8] { Array(bytes[offset...]) }
}

func littleEndianBytes(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

func fromLittleEndian(_ bytes: [UInt8]) -> UInt64 {
    bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
}
