@testable import SimpleXCrypto
import Testing

/// The joiner's first message taken apart with the public primitives alone: the KDF labels and
/// inputs, the key roles and the byte layout are the specified ones, not just self-consistent.
struct RatchetWireFormatTests {
    @Test func firstMessageMatchesTheSpecification() throws {
        let initiator = RatchetKeyPairs.generate()
        let joiner = RatchetKeyPairs.generate()
        let ratchetKey = X25519.generateKeyPair()
        let parameters = try X3DH.joiner(own: joiner, initiator: initiator.publicKeys)
        var state = try RatchetState(
            joiner: parameters, initiatorKeys: initiator.publicKeys, ratchetKey: ratchetKey)
        let message = Array("hello from the spec".utf8)
        let sealed = try state.encrypt(message, paddedLength: 64)
        #expect(sealed.count == 148 + 64)

        // rootKdf(SK, DH(joiner's ratchet key, initiator's second key)) → RK, CKs, NHKs
        let dh = try X25519.sharedSecret(
            privateKey: ratchetKey.privateKey, publicKey: initiator.second.publicKey)
        let root = try HKDFSHA512.deriveKey(
            inputKeyMaterial: dh, salt: parameters.rootKey, info: Array("SimpleXRootRatchet".utf8),
            outputByteCount: 96
        ).array
        // chainKdf(CKs) → CK', MK, message nonce, header nonce (24-byte nonces: 112 bytes)
        let chain = try HKDFSHA512.deriveKey(
            inputKeyMaterial: Array(root[32..<64]), salt: [UInt8](), info: Array("SimpleXChainRatchet".utf8),
            outputByteCount: 112
        ).array
        let messageKey = SecureBytes(copying: Array(chain[32..<64]))
        let messageNonce = Array(chain[64..<88])
        let headerNonce = Array(chain[88..<112])

        // shortString(encHeader) ‖ body tag ‖ body
        #expect(sealed[0] == 131)
        let encryptedHeader = Array(sealed[1..<132])
        // encHeader = version ‖ header nonce ‖ tag ‖ shortString(header ciphertext)
        // Version 1000, our first e2e version.
        #expect(encryptedHeader[0..<2] == [0x03, 0xE8])
        #expect(Array(encryptedHeader[2..<26]) == headerNonce)
        #expect(encryptedHeader[42] == 88)
        let header = try XChaCha20Poly1305.open(
            Array(encryptedHeader[43..<131]) + Array(encryptedHeader[26..<42]), key: parameters.sendHeaderKey,
            nonce: headerNonce, associatedData: parameters.associatedData
        ).array
        // Padded header: length 55, max version, SPKI shortString, PN 0, Ns 0, '#' filler to 88.
        let spki = hex("302a300506032b656e032100") + ratchetKey.publicKey
        let expectedHeader: [UInt8] = [0, 55, 0x03, 0xE8, 44] + spki + [0, 0, 0, 0, 0, 0, 0, 0]
        #expect(
            header == expectedHeader + [UInt8](repeating: UInt8(ascii: "#"), count: 88 - expectedHeader.count)
        )

        let body = try XChaCha20Poly1305.open(
            Array(sealed[148...]) + Array(sealed[132..<148]), key: messageKey, nonce: messageNonce,
            associatedData: parameters.associatedData + encryptedHeader
        ).array
        let expectedBody = [0, UInt8(message.count)] + message
        #expect(body == expectedBody + [UInt8](repeating: UInt8(ascii: "#"), count: 64 - expectedBody.count))

        // The second message uses the next chain key and says Ns = 1.
        let secondSealed = try state.encrypt(message, paddedLength: 64)
        let nextChain = try HKDFSHA512.deriveKey(
            inputKeyMaterial: Array(chain[0..<32]), salt: [UInt8](), info: Array("SimpleXChainRatchet".utf8),
            outputByteCount: 112
        ).array
        let secondHeader = try XChaCha20Poly1305.open(
            Array(secondSealed[44..<132]) + Array(secondSealed[27..<43]), key: parameters.sendHeaderKey,
            nonce: Array(nextChain[88..<112]), associatedData: parameters.associatedData
        ).array
        #expect(Array(secondHeader[49..<57]) == [0, 0, 0, 0, 0, 0, 0, 1])
    }

    /// The initiator's first reply carries a new ratchet key, under the X3DH next header key.
    @Test func firstReplyUsesTheNextHeaderKey() throws {
        var pair = try RatchetPair()
        let parameters = try X3DH.initiator(own: pair.initiatorKeys, joiner: pair.joinerKeys.publicKeys)
        _ = try pair.initiator.decrypt(try pair.joiner.seal(plaintext("joiner", 0)))
        let reply = try pair.initiator.seal(plaintext("initiator", 0))
        let header = try XChaCha20Poly1305.open(
            Array(reply[44..<132]) + Array(reply[27..<43]), key: parameters.nextReceiveHeaderKey,
            nonce: Array(reply[3..<27]), associatedData: parameters.associatedData
        ).array
        // Its ratchet key is fresh: neither of the initiator's X3DH keys.
        let key = Array(header[17..<49])
        #expect(key == pair.initiator.ratchetPublicKey)
        #expect(key != pair.initiatorKeys.second.publicKey && key != pair.initiatorKeys.first.publicKey)
        // PN 0 (nothing sent before), Ns 0.
        #expect(Array(header[49..<57]) == [0, 0, 0, 0, 0, 0, 0, 0])
    }
}
