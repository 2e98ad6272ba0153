/// Message keys derived past messages that have not arrived, grouped by the header key of their
/// chain (Ratchet.hs `SkippedMsgKeys`: header key → message number → message key).
///
/// Each chain's keys sit in one guarded allocation, replaced whole when a key is used or dropped:
/// that happens only for late messages, so the common path allocates nothing here.
struct SkippedMessageKeys: Sendable {
    /// Bytes per skipped key: message key (32) ‖ message nonce (24).
    static let entryCount = 56

    /// The skipped keys of one receiving chain.
    struct Chain: Sendable {
        /// The chain's receiving header key (32 bytes).
        let headerKey: SecureBytes
        /// The message numbers whose keys are held, ascending.
        var numbers: [UInt32]
        /// `numbers.count` entries of `entryCount` bytes, in the same order.
        var keys: SecureBytes
    }

    /// Oldest chain first, so trimming drops the keys least likely to be used.
    private(set) var chains: [Chain] = []
    /// The number of keys held in all chains.
    private(set) var count = 0

    init() {}

    /// Restores decoded chains (serialisation).
    init(chains: [Chain]) {
        self.chains = chains
        count = chains.reduce(0) { $0 + $1.numbers.count }
    }

    /// The index of the chain stored under `headerKey`, compared in constant time.
    func chainIndex(headerKey: UnsafeRawBufferPointer) -> Int? {
        chains.firstIndex { chain in chain.headerKey.withUnsafeBytes { constantTimeEqual($0, headerKey) } }
    }

    /// Calls `body` with the message key and nonce of `chains[chain]`'s entry `entry`.
    func withKey<R>(
        chain: Int, entry: Int,
        _ body: (_ key: UnsafeRawBufferPointer, _ nonce: UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        try chains[chain].keys.withUnsafeBytes { keys in
            let start = entry * Self.entryCount
            return try body(
                UnsafeRawBufferPointer(rebasing: keys[start..<start + 32]),
                UnsafeRawBufferPointer(rebasing: keys[start + 32..<start + Self.entryCount]))
        }
    }

    /// Adds keys for messages `firstNumber...` of the chain under `headerKey`; `keys` holds them in order.
    mutating func add(headerKey: UnsafeRawBufferPointer, firstNumber: UInt32, keys: SecureBytes) {
        let added = keys.count / Self.entryCount
        guard added > 0 else { return }
        let numbers = (0..<UInt32(added)).map { firstNumber + $0 }
        if let index = chainIndex(headerKey: headerKey) {
            let old = chains[index]
            chains[index].numbers = old.numbers + numbers
            chains[index].keys = SecureBytes(count: old.keys.count + keys.count) { out in
                old.keys.withUnsafeBytes { out.copyMemory(from: $0) }
                keys.withUnsafeBytes {
                    UnsafeMutableRawBufferPointer(rebasing: out[old.keys.count...]).copyMemory(from: $0)
                }
            }
        } else {
            chains.append(Chain(headerKey: SecureBytes(copying: headerKey), numbers: numbers, keys: keys))
        }
        count += added
    }

    /// Removes one used key, and its chain when that was the last.
    mutating func remove(chain: Int, entry: Int) {
        removeEntries(chain: chain, keeping: chains[chain].numbers.indices.filter { $0 != entry })
    }

    /// Drops the oldest keys until at most `limit` remain.
    mutating func trim(toAtMost limit: Int) {
        while count > limit, let first = chains.first {
            let excess = count - limit
            if first.numbers.count <= excess {
                chains.removeFirst()
                count -= first.numbers.count
            } else {
                removeEntries(chain: 0, keeping: Array(excess..<first.numbers.count))
            }
        }
    }

    private mutating func removeEntries(chain index: Int, keeping kept: [Int]) {
        let old = chains[index]
        count -= old.numbers.count - kept.count
        guard !kept.isEmpty else {
            chains.remove(at: index)
            return
        }
        chains[index].numbers = kept.map { old.numbers[$0] }
        chains[index].keys = SecureBytes(count: kept.count * Self.entryCount) { out in
            old.keys.withUnsafeBytes { source in
                for (position, entry) in kept.enumerated() {
                    let from = entry * Self.entryCount
                    let to = position * Self.entryCount
                    UnsafeMutableRawBufferPointer(rebasing: out[to..<to + Self.entryCount]).copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: source[from..<from + Self.entryCount]))
                }
            }
        }
    }
}
