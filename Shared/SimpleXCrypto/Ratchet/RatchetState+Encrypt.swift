public import Foundation

extension RatchetState {
    /// The length of an encrypted message whose body is padded to `paddedLength`: 148 bytes more.
    public static func encryptedLength(paddedLength: Int) -> Int {
        RatchetWire.messageCount(paddedLength: paddedLength)
    }

    /// Encrypts `message` (Ratchet.hs `rcEncrypt`), padded to `paddedLength` bytes first (2-byte
    /// length, the message, `'#'` filler) so every message of a connection has the same size.
    ///
    /// The next chain key, the message key and both nonces come from one chainKdf step; the header
    /// (this side's ratchet key, PN, Ns) is sealed under the sending header key, and the body under
    /// the message key with associated data = `associatedData` ‖ encrypted header. On error nothing changes.
    public mutating func encrypt(_ message: some ContiguousBytes, paddedLength: Int) throws(RatchetError)
        -> [UInt8]
    {
        guard hasSendingChain else { throw .noSendingChain }
        let length = message.withUnsafeBytes { $0.count }
        guard length <= Int(UInt16.max), paddedLength >= 2, length <= paddedLength - 2 else {
            throw .messageTooLarge(length: length, paddedLength: paddedLength)
        }
        // 2^32 messages in one chain cannot happen in a conversation; refuse rather than wrap.
        guard sendCount < UInt32.max else { throw .invalidState("sending chain exhausted") }
        makeSecretsUnique()
        let total = RatchetWire.messageCount(paddedLength: paddedLength)
        let output = message.withUnsafeBytes { plaintext in
            [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                sealMessage(plaintext, into: UnsafeMutableRawBufferPointer(buffer))
                initialized = total
            }
        }
        sendCount += 1
        return output
    }

    /// Writes the whole message into `out` and advances the sending chain key in place.
    private func sealMessage(_ plaintext: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        typealias Wire = RatchetWire
        let chainCount = RatchetKDF.chainOutputCount
        let adCount = associatedData.count + Wire.encryptedHeaderCount
        let scratchCount = chainCount + Wire.paddedHeaderCount + adCount
        secrets.withUnsafeMutableBytes { slots in
            withUnsafeTemporaryAllocation(byteCount: scratchCount, alignment: 16) { scratch in
                let chain = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<chainCount])
                let header = UnsafeMutableRawBufferPointer(
                    rebasing: scratch[chainCount..<chainCount + Wire.paddedHeaderCount])
                let ad = UnsafeMutableRawBufferPointer(rebasing: scratch[(scratchCount - adCount)...])
                func part(_ range: Range<Int>) -> UnsafeRawBufferPointer {
                    UnsafeRawBufferPointer(rebasing: chain[range])
                }

                // CKs, mk = KDF_CK(CKs)
                RatchetKDF.chain(chainKey: Self.read(slots, .sendChainKey), into: chain)

                // enc_header = HENCRYPT(HKs, header), with AD as SimpleX does.
                Wire.writeHeader(
                    into: header, maxVersion: RatchetVersion.current, ratchetKey: ratchetPublicKey,
                    previousCount: previousSendCount, number: sendCount)
                out[0] = UInt8(Wire.encryptedHeaderCount)
                let encryptedHeader = UnsafeMutableRawBufferPointer(rebasing: out[Wire.encryptedHeaderRange])
                encryptedHeader[0] = UInt8(version >> 8)
                encryptedHeader[1] = UInt8(truncatingIfNeeded: version)
                UnsafeMutableRawBufferPointer(rebasing: encryptedHeader[Wire.headerNonceRange]).copyMemory(
                    from: part(RatchetKDF.headerNonceRange))
                encryptedHeader[Wire.headerBodyLengthIndex] = UInt8(Wire.paddedHeaderCount)
                associatedData.withUnsafeBytes { associated in
                    RatchetAEAD.seal(
                        UnsafeRawBufferPointer(header),
                        into: UnsafeMutableRawBufferPointer(rebasing: encryptedHeader[Wire.headerBodyRange]),
                        tag: UnsafeMutableRawBufferPointer(rebasing: encryptedHeader[Wire.headerTagRange]),
                        associatedData: associated, nonce: part(RatchetKDF.headerNonceRange),
                        key: Self.read(slots, .sendHeaderKey))
                    ad.copyMemory(from: associated)
                }
                UnsafeMutableRawBufferPointer(rebasing: ad[associatedData.count...]).copyMemory(
                    from: UnsafeRawBufferPointer(encryptedHeader))

                // The padded body, sealed in place under mk with AD ‖ enc_header.
                let body = UnsafeMutableRawBufferPointer(rebasing: out[Wire.bodyOffset...])
                body[0] = UInt8(plaintext.count >> 8)
                body[1] = UInt8(truncatingIfNeeded: plaintext.count)
                UnsafeMutableRawBufferPointer(rebasing: body[2..<2 + plaintext.count]).copyMemory(
                    from: plaintext)
                UnsafeMutableRawBufferPointer(rebasing: body[(2 + plaintext.count)...]).initializeMemory(
                    as: UInt8.self, repeating: Wire.filler)
                RatchetAEAD.seal(
                    UnsafeRawBufferPointer(body), into: body,
                    tag: UnsafeMutableRawBufferPointer(rebasing: out[Wire.bodyTagRange]),
                    associatedData: UnsafeRawBufferPointer(ad), nonce: part(RatchetKDF.messageNonceRange),
                    key: part(RatchetKDF.messageKeyRange))

                Self.slot(slots, .sendChainKey).copyMemory(from: part(RatchetKDF.chainKeyRange))
                zero(scratch)
            }
        }
    }
}
