// The double ratchet part of `make bench` (issue 4): the cost of encrypting and decrypting one
// message in an existing chain, against the libsodium work that message needs (one chainKdf step,
// two XChaCha20-Poly1305 seals or opens) done by a C loop in the same run (CBench).

import CBench
import SimpleXCrypto

/// Printable lines with the ratchet's per-message cost and its ratio to the libsodium calls it makes;
/// the goals are ≤ 20 µs and a ratio ≤ 2 for a 1 KB message.
func ratchetBenchmarkLines() throws -> [String] {
    let bench = RatchetBench()
    var lines: [String] = []
    // 1 KB padded as tightly as the padding allows (2-byte length + 1,024 bytes), the figure the
    // goals are about; then the agent's fixed padded length, SimpleX's e2eEncAgentMsgLength (15,840),
    // at which every agent message is sent whatever its size.
    for (label, paddedLength) in [
        ("1 KB message, padded to 1,026", 1026), ("1 KB message, padded to 15,840", 15840),
    ] {
        let encrypt = try bench.compare(iterations: 1000) {
            try bench.encrypt(paddedLength: paddedLength, iterations: $0)
        } c: {
            cbench_ratchet_encrypt_primitives_seconds(paddedLength, $0)
        }
        let decrypt = try bench.compare(iterations: 1000) {
            try bench.decrypt(paddedLength: paddedLength, iterations: $0)
        } c: {
            cbench_ratchet_decrypt_primitives_seconds(paddedLength, $0)
        }
        lines.append(encrypt.line("encrypt, \(label)", goals: paddedLength == 1026))
        lines.append(decrypt.line("decrypt, \(label)", goals: paddedLength == 1026))
    }
    let turn = try bench.alternating(paddedLength: 1026, iterations: 200)
    lines.append(
        "alternating sides (a DH ratchet step per message: key pair + 2 X25519 on decrypt), 1 KB: "
            + "\(format(turn, 2)) µs per message (encrypt + decrypt)")
    return lines
}

private struct RatchetBench {
    /// Best of many short interleaved rounds, as in CryptoBench: load only ever adds time.
    let rounds = 25
    let message = Random.bytes(count: 1024)

    /// A fresh connection, past the joiner's first message, so both directions have chains.
    func connection() throws -> (joiner: RatchetState, initiator: RatchetState) {
        let initiatorKeys = RatchetKeyPairs.generate()
        let joinerKeys = RatchetKeyPairs.generate()
        var joiner = try RatchetState.joining(own: joinerKeys, initiator: initiatorKeys.publicKeys)
        var initiator = try RatchetState.initiating(own: initiatorKeys, joiner: joinerKeys.publicKeys)
        _ = try initiator.decrypt(try joiner.encrypt(message, paddedLength: 1026))
        return (joiner, initiator)
    }

    /// `iterations` encrypts in one sending chain.
    func encrypt(paddedLength: Int, iterations: Int) throws -> Double {
        var (sender, _) = try connection()
        var sink: UInt8 = 0
        let start = cbench_now_seconds()
        for _ in 0..<iterations {
            sink ^= try sender.encrypt(message, paddedLength: paddedLength)[200]
        }
        let elapsed = cbench_now_seconds() - start
        return withExtendedLifetime(sink) { elapsed }
    }

    /// `iterations` decrypts of in-order messages in one receiving chain, encrypted beforehand.
    func decrypt(paddedLength: Int, iterations: Int) throws -> Double {
        var (sender, receiver) = try connection()
        let sealed = try (0..<iterations).map { _ in try sender.encrypt(message, paddedLength: paddedLength) }
        var matched = 0
        let start = cbench_now_seconds()
        for ciphertext in sealed where try receiver.decrypt(ciphertext).count == message.count {
            matched += 1
        }
        let elapsed = cbench_now_seconds() - start
        guard matched == iterations else { throw RatchetBenchError.decryptedWrongLength }
        return elapsed
    }

    /// Microseconds per message when the sides take turns, each message starting a new chain.
    func alternating(paddedLength: Int, iterations: Int) throws -> Double {
        var best = Double.infinity
        for _ in 0..<5 {
            var (joiner, initiator) = try connection()
            let start = cbench_now_seconds()
            for index in 0..<iterations {
                if index.isMultiple(of: 2) {
                    _ = try joiner.decrypt(try initiator.encrypt(message, paddedLength: paddedLength))
                } else {
                    _ = try initiator.decrypt(try joiner.encrypt(message, paddedLength: paddedLength))
                }
            }
            best = min(best, cbench_now_seconds() - start)
        }
        return best / Double(iterations) * 1e6
    }

    /// Runs both sides once to warm up, then `rounds` times alternating which goes first.
    func compare(
        iterations: Int, swift: (Int) throws -> Double, c: (Int) -> Double
    ) throws -> RatchetComparison {
        _ = try swift(iterations / 10)
        _ = c(iterations / 10)
        var swiftBest = Double.infinity
        var cBest = Double.infinity
        for round in 0..<rounds {
            for isSwift in round.isMultiple(of: 2) ? [true, false] : [false, true] {
                let seconds = isSwift ? try swift(iterations) : c(iterations)
                guard seconds >= 0 else { throw RatchetBenchError.cLoopFailed }
                if isSwift { swiftBest = min(swiftBest, seconds) } else { cBest = min(cBest, seconds) }
            }
        }
        return RatchetComparison(
            ratchetMicroseconds: swiftBest / Double(iterations) * 1e6,
            primitivesMicroseconds: cBest / Double(iterations) * 1e6)
    }
}

private enum RatchetBenchError: Error {
    case cLoopFailed
    case decryptedWrongLength
}

private struct RatchetComparison {
    let ratchetMicroseconds: Double
    let primitivesMicroseconds: Double

    func line(_ name: String, goals: Bool) -> String {
        "\(name): ratchet \(format(ratchetMicroseconds, 2)) µs, libsodium calls it makes "
            + "\(format(primitivesMicroseconds, 2)) µs, ratio \(format(ratchetMicroseconds / primitivesMicroseconds, 2))"
            + (goals ? " (goals ≤ 20 µs, ratio ≤ 2)" : "")
    }
}
