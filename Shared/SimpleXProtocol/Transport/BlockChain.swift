import Foundation
public import SimpleXCrypto

/// One direction of SMP's block-encryption chain (simplexmq `SbChainKey`): each block gets a
/// fresh secretbox key and nonce from HKDF-SHA512 of the current chain key, which the same
/// derivation then replaces. Keys are never reused, so identical blocks encrypt differently, and
/// a block only opens in its place in the sequence.
public struct BlockChain: Sendable {
    static let initInfo = Array("SimpleXSbChainInit".utf8)
    static let stepInfo = Array("SimpleXSbChain".utf8)
    static let chainKeyCount = 32

    /// Guarded memory whose bytes `chainKeyOffset..<+32` are the current chain key. It is the
    /// whole HKDF output it was cut from, kept as is so a step costs no extra copy.
    private var material: SecureBytes
    private var chainKeyOffset: Int

    init(material: SecureBytes, chainKeyOffset: Int) {
        precondition(material.count >= chainKeyOffset + Self.chainKeyCount)
        self.material = material
        self.chainKeyOffset = chainKeyOffset
    }

    /// simplexmq `sbcInit`: HKDF-SHA512(salt = sessionID, ikm = DH secret, info
    /// "SimpleXSbChainInit") → 64 bytes, split into two 32-byte chain keys.
    static func pair(sessionID: [UInt8], sharedSecret: SecureBytes) -> (first: BlockChain, second: BlockChain) {
        let keys: SecureBytes
        do {
            keys = try HKDFSHA512.deriveKey(
                inputKeyMaterial: sharedSecret, salt: sessionID, info: initInfo, outputByteCount: 64)
        } catch {
            preconditionFailure("HKDF of a fixed 64-byte output failed: \(error)")
        }
        return (BlockChain(material: keys, chainKeyOffset: 0), BlockChain(material: keys, chainKeyOffset: 32))
    }

    /// The next block's secretbox key and nonce, advancing the chain (simplexmq `sbcHkdf`):
    /// HKDF-SHA512(salt empty, ikm = chain key, info "SimpleXSbChain") → 88 bytes =
    /// next chain key 32 ‖ secretbox key 32 ‖ nonce 24.
    public mutating func next() -> (key: SecureBytes, nonce: [UInt8]) {
        // The chain key is fresh input keying material each step, so the extract step cannot be
        // hoisted: each block costs one extract HMAC and two expand HMACs (88 bytes > 64).
        // Expanding to 128 bytes instead of 88 gives the same first 88 bytes (HKDF output is
        // T(1) ‖ T(2) ‖ ...) and spares `expand` a guarded scratch block for the partial T(2).
        let output: SecureBytes
        do {
            let prk = HKDFSHA512.extract(
                inputKeyMaterial: SecureRegion(material, chainKeyOffset, Self.chainKeyCount), salt: [UInt8]())
            output = try HKDFSHA512.expand(pseudoRandomKey: prk, info: Self.stepInfo, outputByteCount: 128)
        } catch {
            preconditionFailure("HKDF of a fixed 128-byte output failed: \(error)")
        }
        let key = SecureBytes(count: SecretBox.keyCount) { out in
            output.withUnsafeBytes { out.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[32..<64])) }
        }
        let nonce = output.withUnsafeBytes { [UInt8]($0[64..<88]) }
        material = output
        chainKeyOffset = 0
        return (key, nonce)
    }
}

/// A read-only window on guarded memory, to pass part of a `SecureBytes` without copying it out.
private struct SecureRegion: ContiguousBytes {
    let base: SecureBytes
    let range: Range<Int>

    init(_ base: SecureBytes, _ offset: Int, _ count: Int) {
        self.base = base
        range = offset..<offset + count
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try base.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}
