extension RatchetState {
    /// Derives and keeps the keys of the current receiving chain's messages `receiveCount..<number`
    /// (Ratchet.hs `skipMessageKeys`); callers have checked the count against `maxSkip`.
    mutating func skipReceiving(until number: UInt32) {
        guard hasReceivingChain, number > receiveCount else { return }
        let count = Int(number - receiveCount)
        let entryCount = SkippedMessageKeys.entryCount
        makeSecretsUnique()
        let first = receiveCount
        secrets.withUnsafeMutableBytes { slots in
            let keys = SecureBytes(count: count * entryCount) { out in
                withUnsafeTemporaryAllocation(byteCount: RatchetKDF.chainOutputCount, alignment: 16) {
                    chain in
                    for index in 0..<count {
                        RatchetKDF.chain(chainKey: Self.read(slots, .receiveChainKey), into: chain)
                        let entry = UnsafeMutableRawBufferPointer(
                            rebasing: out[index * entryCount..<(index + 1) * entryCount])
                        entry.copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: chain[RatchetKDF.skippedKeyRange]))
                        Self.slot(slots, .receiveChainKey).copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: chain[RatchetKDF.chainKeyRange]))
                    }
                    zero(chain)
                }
            }
            skipped.add(headerKey: Self.read(slots, .receiveHeaderKey), firstNumber: first, keys: keys)
        }
        receiveCount = number
        skipped.trim(toAtMost: Self.maxSkip)
    }

    /// The DH ratchet step with header encryption (Signal's DHRatchetHE, Ratchet.hs `ratchetStep`):
    /// a receiving chain from DH(current key, peer's key), then a fresh key pair and a sending chain
    /// from DH(new key, peer's key); the next header keys become the current ones.
    mutating func ratchetStep(peerRatchetKey: [UInt8]) throws(RatchetError) {
        guard peerRatchetKey.count == RatchetDH.keyCount else { throw .invalidPublicKey }
        makeSecretsUnique()
        var newPublicKey: [UInt8] = []
        let hadReceivingChain = hasReceivingChain
        try secrets.withMutableBytes { (slots: UnsafeMutableRawBufferPointer) throws(RatchetError) in
            try peerRatchetKey.withBytes { (peerKey: UnsafeRawBufferPointer) throws(RatchetError) in
                try withUnsafeTemporaryAllocation(byteCount: RatchetDH.keyCount * 2, alignment: 16) {
                    (scratch: UnsafeMutableRawBufferPointer) throws(RatchetError) in
                    defer { zero(scratch) }
                    let dh = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<RatchetDH.keyCount])
                    let newPrivateKey = UnsafeMutableRawBufferPointer(
                        rebasing: scratch[RatchetDH.keyCount...])
                    // The first DH before any slot changes, so a low-order key throws here; the second
                    // cannot fail then, as only small-order points give an all-zero output.
                    try RatchetDH.agree(
                        privateKey: Self.read(slots, .ratchetPrivateKey), publicKey: peerKey, into: dh)
                    newPublicKey = RatchetDH.generate(into: newPrivateKey)
                    if hadReceivingChain {
                        Self.slot(slots, .previousReceiveHeaderKey).copyMemory(
                            from: Self.read(slots, .receiveHeaderKey))
                    }
                    // HKs = NHKs; HKr = NHKr; RK, CKr, NHKr = KDF_RK_HE(RK, DH(DHRs, DHRr))
                    Self.slot(slots, .sendHeaderKey).copyMemory(from: Self.read(slots, .nextSendHeaderKey))
                    Self.slot(slots, .receiveHeaderKey).copyMemory(
                        from: Self.read(slots, .nextReceiveHeaderKey))
                    Self.rootStep(
                        rootKey: Self.read(slots, .rootKey), dhOutput: UnsafeRawBufferPointer(dh),
                        slots: slots,
                        chainKey: .receiveChainKey, nextHeaderKey: .nextReceiveHeaderKey)
                    // DHRs = new pair; RK, CKs, NHKs = KDF_RK_HE(RK, DH(DHRs, DHRr))
                    try RatchetDH.agree(
                        privateKey: UnsafeRawBufferPointer(newPrivateKey), publicKey: peerKey, into: dh)
                    Self.rootStep(
                        rootKey: Self.read(slots, .rootKey), dhOutput: UnsafeRawBufferPointer(dh),
                        slots: slots,
                        chainKey: .sendChainKey, nextHeaderKey: .nextSendHeaderKey)
                    Self.slot(slots, .ratchetPrivateKey).copyMemory(
                        from: UnsafeRawBufferPointer(newPrivateKey))
                }
            }
        }
        ratchetPublicKey = newPublicKey
        hasPreviousReceiveHeaderKey = hasPreviousReceiveHeaderKey || hadReceivingChain
        hasSendingChain = true
        hasReceivingChain = true
        previousSendCount = sendCount
        sendCount = 0
        receiveCount = 0
    }
}
