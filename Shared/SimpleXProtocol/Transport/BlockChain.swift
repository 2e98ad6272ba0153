import Foundation
public import SimpleXCrypto

/// One direction of SMP's block-encryption chain (simplexmq `SbChainKey`): each block gets a
/// fresh secretbox key and nonce from HKDF-SHA512 of the current chain key, which the same
/// derivation then replaces. Keys are never reused, so identical blocks encrypt differently, and
/// a block only opens in its place in the sequence.
///
/// All of a chain's secrets live in one `SecureBuffer` allocated when the session starts and
/// rewritten in place per block: a guarded allocation costs an mmap, an mprotect and an mlock,
/// several times what sealing a 16 KB block does.
public struct BlockChain: Sendable {
    static let initInfo = Array("SimpleXSbChainInit".utf8)
    static let stepInfo = Array("SimpleXSbChain".utf8)
    static let chainKeyCount = 32

    // The buffer's layout: chain key, then the step's pseudorandom key, then the step's expand
    // output = next chain key 32 ‖ secretbox key 32 ‖ nonce 24 ‖ 40 unused bytes.
    private static let chainKeyRange = 0..<32
    private static let prkRange = 32..<96
    private static let outputRange = 96..<224
    private static let keyRange = 128..<160
    private static let nonceRange = 160..<184
    private static let stateCount = 224

    /// Copy-on-write: written only when uniquely referenced (see `next(_:)`).
    private var state: SecureBuffer

    init(chainKey: UnsafeRawBufferPointer) {
        precondition(chainKey.count == Self.chainKeyCount)
        state = SecureBuffer(count: Self.stateCount)
        state.withUnsafeMutableBytes { buffer in
            UnsafeMutableRawBufferPointer(rebasing: buffer[Self.chainKeyRange]).copyMemory(from: chainKey)
        }
    }

    /// simplexmq `sbcInit`: HKDF-SHA512(salt = sessionID, ikm = DH secret, info
    /// "SimpleXSbChainInit") → 64 bytes, split into two 32-byte chain keys.
    static func pair(sessionID: [UInt8], sharedSecret: SecureBytes) -> (first: BlockChain, second: BlockChain)
    {
        let keys: SecureBytes
        do {
            keys = try HKDFSHA512.deriveKey(
                inputKeyMaterial: sharedSecret, salt: sessionID, info: initInfo, outputByteCount: 64)
        } catch {
            preconditionFailure("HKDF of a fixed 64-byte output failed: \(error)")
        }
        return keys.withUnsafeBytes { bytes in
            (
                BlockChain(chainKey: UnsafeRawBufferPointer(rebasing: bytes[0..<32])),
                BlockChain(chainKey: UnsafeRawBufferPointer(rebasing: bytes[32..<64]))
            )
        }
    }

    /// Advances the chain (simplexmq `sbcHkdf`: HKDF-SHA512(salt empty, ikm = chain key, info
    /// "SimpleXSbChain") → 88 bytes = next chain key 32 ‖ secretbox key 32 ‖ nonce 24) and calls
    /// `body` with the block's key and nonce, which are valid only during the call and are
    /// overwritten by the next step.
    @discardableResult
    public mutating func next<R>(
        _ body: (_ key: UnsafeRawBufferPointer, _ nonce: UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        if !isKnownUniquelyReferenced(&state) { state = state.copy() }
        return try state.withUnsafeMutableBytes { buffer in
            Self.advance(buffer)
            return try body(
                UnsafeRawBufferPointer(rebasing: buffer[Self.keyRange]),
                UnsafeRawBufferPointer(rebasing: buffer[Self.nonceRange]))
        }
    }

    /// One derivation step inside the state buffer.
    private static func advance(_ buffer: UnsafeMutableRawBufferPointer) {
        // The chain key is fresh input keying material each step, so the extract step cannot
        // be hoisted: each block costs one extract HMAC and two expand HMACs (88 bytes > 64).
        // Expanding to 128 bytes instead of 88 gives the same first 88 bytes (HKDF output is
        // T(1) ‖ T(2) ‖ ...), two whole blocks, which `extractAndExpandTwoBlocks` derives with
        // the HMAC key schedules computed once for both.
        let chainKey = UnsafeMutableRawBufferPointer(rebasing: buffer[chainKeyRange])
        let prk = UnsafeMutableRawBufferPointer(rebasing: buffer[prkRange])
        let output = UnsafeMutableRawBufferPointer(rebasing: buffer[outputRange])
        do {
            try stepInfo.withUnsafeBytes { info in
                try HKDFSHA512.extractAndExpandTwoBlocks(
                    inputKeyMaterial: UnsafeRawBufferPointer(chainKey), info: info, prk: prk, into: output)
            }
        } catch {
            preconditionFailure("HKDF of fixed sizes failed")
        }
        chainKey.copyMemory(from: UnsafeRawBufferPointer(rebasing: output[0..<32]))
    }

    /// The next block's key and nonce as values (two allocations): for tests and one-off use.
    public mutating func next() -> (key: SecureBytes, nonce: [UInt8]) {
        next { key, nonce in (SecureBytes(copying: key), Array(nonce)) }
    }
}
