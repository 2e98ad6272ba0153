/// The byte layouts of a ratchet message, after Ratchet.hs `MsgHeader`, `EncMessageHeader` and
/// `EncRatchetMessage`, with XChaCha20-Poly1305's 24-byte nonces where SimpleX has 16-byte IVs.
///
///     message        = shortString(encHeader) ‖ body tag (16) ‖ body ciphertext (Tail, the padded length)
///     encHeader      = version (Word16) ‖ header nonce (24) ‖ header tag (16) ‖ shortString(88-byte ciphertext)
///     padded header  = Word16 length ‖ header ‖ '#' filler, 88 bytes
///     header         = max version (Word16) ‖ shortString(X25519 SPKI, 44 bytes) ‖ PN (Word32) ‖ Ns (Word32)
///
/// The header is 55 bytes, padded to 88 like SimpleX's (whose X448 header is 81), which leaves room
/// to extend it without changing the size on the wire. A message is its padded length plus 148 bytes.
enum RatchetWire {
    /// X.509 SubjectPublicKeyInfo DER prefix of an X25519 key (as in SimpleX's key encoding).
    static let x25519SPKIPrefix: [UInt8] = [
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00,
    ]
    static let spkiCount = 44
    static let headerCount = 2 + 1 + spkiCount + 4 + 4
    static let paddedHeaderCount = 88
    static let filler = UInt8(ascii: "#")

    // Within the encrypted header.
    static let versionRange = 0..<2
    static let headerNonceRange = 2..<26
    static let headerTagRange = 26..<42
    static let headerBodyLengthIndex = 42
    static let headerBodyRange = 43..<131
    static let encryptedHeaderCount = 131

    // Within the message.
    static let encryptedHeaderRange = 1..<132
    static let bodyTagRange = 132..<148
    static let bodyOffset = 148
    static let overhead = bodyOffset

    /// The length of a message whose body is padded to `paddedLength`.
    static func messageCount(paddedLength: Int) -> Int { overhead + paddedLength }

    /// Writes the padded header (88 bytes).
    static func writeHeader(
        into out: UnsafeMutableRawBufferPointer, maxVersion: UInt16, ratchetKey: [UInt8],
        previousCount: UInt32, number: UInt32
    ) {
        precondition(out.count == paddedHeaderCount && ratchetKey.count == 32)
        var offset = 0
        func put(_ byte: UInt8) {
            out[offset] = byte
            offset += 1
        }
        put(0)
        put(UInt8(headerCount))
        put(UInt8(maxVersion >> 8))
        put(UInt8(truncatingIfNeeded: maxVersion))
        put(UInt8(spkiCount))
        for byte in x25519SPKIPrefix { put(byte) }
        for byte in ratchetKey { put(byte) }
        for value in [previousCount, number] {
            put(UInt8(truncatingIfNeeded: value >> 24))
            put(UInt8(truncatingIfNeeded: value >> 16))
            put(UInt8(truncatingIfNeeded: value >> 8))
            put(UInt8(truncatingIfNeeded: value))
        }
        while offset < out.count { put(filler) }
    }

    /// A decrypted message header.
    struct Header {
        var maxVersion: UInt16
        var ratchetKey: [UInt8]
        /// PN: how many messages the sender sent in its previous sending chain.
        var previousCount: UInt32
        /// Ns: this message's number in the sender's current chain.
        var number: UInt32
    }

    /// Parses a padded header that authenticated; unknown trailing header fields are ignored.
    static func parseHeader(_ padded: UnsafeRawBufferPointer) throws(RatchetError) -> Header {
        let length = Int(padded[0]) << 8 | Int(padded[1])
        guard length >= headerCount, length <= padded.count - 2 else {
            throw .malformedMessage("header length \(length)")
        }
        let maxVersion = UInt16(padded[2]) << 8 | UInt16(padded[3])
        guard Int(padded[4]) == spkiCount,
            x25519SPKIPrefix.indices.allSatisfy({ padded[5 + $0] == x25519SPKIPrefix[$0] })
        else { throw .malformedMessage("header ratchet key is not an X25519 SPKI") }
        let keyStart = 5 + x25519SPKIPrefix.count
        let ratchetKey = Array(padded[keyStart..<keyStart + 32])
        func word32(_ at: Int) -> UInt32 {
            UInt32(padded[at]) << 24 | UInt32(padded[at + 1]) << 16 | UInt32(padded[at + 2]) << 8
                | UInt32(padded[at + 3])
        }
        return Header(
            maxVersion: maxVersion, ratchetKey: ratchetKey, previousCount: word32(keyStart + 32),
            number: word32(keyStart + 36))
    }

    /// Checks the version and the fixed structure of a received message.
    static func validate(_ message: UnsafeRawBufferPointer) throws(RatchetError) {
        // The version comes first, as in SimpleX: a later version may change the layout after it.
        guard message.count >= 3 else { throw .malformedMessage("\(message.count) bytes") }
        let version = UInt16(message[1]) << 8 | UInt16(message[2])
        guard RatchetVersion.supported.contains(version) else { throw .unsupportedVersion(version) }
        guard message.count >= bodyOffset + 2 else {
            throw .malformedMessage("\(message.count) bytes, shorter than any ratchet message")
        }
        guard Int(message[0]) == encryptedHeaderCount else {
            throw .malformedMessage("encrypted header of \(message[0]) bytes")
        }
        guard Int(message[encryptedHeaderRange.lowerBound + headerBodyLengthIndex]) == paddedHeaderCount
        else {
            throw .malformedMessage("header ciphertext is not \(paddedHeaderCount) bytes")
        }
    }
}
