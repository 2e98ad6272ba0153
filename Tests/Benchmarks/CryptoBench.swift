// The crypto part of `make bench`: the cost of the SimpleXCrypto wrappers over libsodium, as the
// ratio of a Swift loop through the public API to the same libsodium call in a C loop (CBench),
// measured interleaved in one process so machine load affects both sides alike.

import CBench
import SimpleXCrypto

/// Printable lines comparing the Swift wrappers with direct C calls; the goal is a ratio ≤ 1.05.
func cryptoBenchmarkLines() -> [String] {
    do {
        return try CryptoBench().run()
    } catch {
        return ["crypto benchmark failed: \(error)"]
    }
}

/// The per-operation timings, each the best of several interleaved rounds.
private struct CryptoBench {
    /// Many short rounds per comparison, reporting each side's fastest: on a machine shared with other
    /// builds, load only ever adds time, and a run of a few milliseconds often fits in a quiet slice.
    let rounds = 25
    let secretboxLength = 16 * 1024
    let signLength = 256
    let secretboxIterations = 500
    let signIterations = 300
    let verifyIterations = 100

    func run() throws -> [String] {
        let secretbox = try SecretBoxLoop(length: secretboxLength)
        let signing = try SigningLoop(length: signLength)

        let sealHonest = try compare(iterations: secretboxIterations) {
            try secretbox.sealAllocating(iterations: $0)
        } c: {
            cbench_secretbox_seal_seconds(secretboxLength, $0)
        }
        let sealInto = try compare(iterations: secretboxIterations) {
            try secretbox.sealInto(iterations: $0)
        } c: {
            cbench_secretbox_seal_seconds(secretboxLength, $0)
        }
        let sign = try compare(iterations: signIterations) {
            try signing.sign(iterations: $0)
        } c: {
            cbench_sign_seconds(signLength, $0)
        }
        let verify = try compare(iterations: verifyIterations) {
            try signing.verify(iterations: $0)
        } c: {
            cbench_verify_seconds(signLength, $0)
        }
        let message = Random.bytes(count: secretboxLength)
        let sha256 = try compare(iterations: secretboxIterations) { iterations in
            var sink: UInt8 = 0
            let start = cbench_now_seconds()
            for _ in 0..<iterations { sink ^= SHA256.hash(message)[0] }
            let elapsed = cbench_now_seconds() - start
            return withExtendedLifetime(sink) { elapsed }
        } c: {
            cbench_sha256_seconds(secretboxLength, $0)
        }
        return [
            sealHonest.line("secretbox 16 KB seal"),
            sealInto.line("secretbox 16 KB seal(into:)"),
            sign.line("Ed25519 sign \(signLength) B"),
            verify.line("Ed25519 verify \(signLength) B"),
            "SHA-256 16 KB (the largest client message the agent hashes on receipt): "
                + "\(format(sha256.swiftMicroseconds, 2)) µs/op "
                + (SHA256.usesHardware
                    ? "on the CPU's SHA extensions" : "(libsodium: this CPU has no SHA extensions)")
                + ", libsodium's crypto_hash_sha256 in a C loop \(format(sha256.cMicroseconds, 2)) µs/op",
        ]
    }

    /// Runs both sides once to warm caches, then `rounds` times alternating which goes first.
    private func compare(
        iterations: Int, swift: (Int) throws -> Double, c: (Int) -> Double
    ) throws -> Comparison {
        _ = try swift(iterations / 10)
        _ = c(iterations / 10)
        var swiftBest = Double.infinity
        var cBest = Double.infinity
        for round in 0..<rounds {
            let order: [Bool] = round.isMultiple(of: 2) ? [true, false] : [false, true]
            for isSwift in order {
                let seconds = isSwift ? try swift(iterations) : c(iterations)
                guard seconds >= 0 else { throw BenchError.cLoopFailed }
                if isSwift { swiftBest = min(swiftBest, seconds) } else { cBest = min(cBest, seconds) }
            }
        }
        return Comparison(
            swiftMicroseconds: swiftBest / Double(iterations) * 1e6,
            cMicroseconds: cBest / Double(iterations) * 1e6)
    }
}

private enum BenchError: Error {
    case cLoopFailed
    case verificationFailed
}

private struct Comparison {
    let swiftMicroseconds: Double
    let cMicroseconds: Double

    func line(_ name: String) -> String {
        let ratio = swiftMicroseconds / cMicroseconds
        return
            "\(name): swift \(format(swiftMicroseconds, 2)) µs/op, C loop \(format(cMicroseconds, 2)) µs/op, "
            + "ratio \(format(ratio, 3)) (goal ≤ 1.05)"
    }
}

/// Secretbox seal through the public API, with setup outside the timed loop as in cbench.c.
private struct SecretBoxLoop {
    let key = SecureBytes.random(count: SecretBox.keyCount)
    let nonce = Random.bytes(count: SecretBox.nonceCount)
    let message: [UInt8]

    init(length: Int) throws {
        message = Random.bytes(count: length)
    }

    /// The honest cost: `seal` returns a fresh array per call.
    func sealAllocating(iterations: Int) throws -> Double {
        var sink: UInt8 = 0
        let start = cbench_now_seconds()
        for _ in 0..<iterations {
            let box = try SecretBox.seal(message, nonce: nonce, key: key)
            sink ^= box[0]
        }
        let elapsed = cbench_now_seconds() - start
        return withExtendedLifetime(sink) { elapsed }
    }

    /// The hot-path variant, writing into one preallocated buffer like the C loop.
    func sealInto(iterations: Int) throws -> Double {
        var box = [UInt8](repeating: 0, count: message.count + SecretBox.macCount)
        return try box.withUnsafeMutableBytes { output in
            var sink: UInt8 = 0
            let start = cbench_now_seconds()
            for _ in 0..<iterations {
                try SecretBox.seal(message, nonce: nonce, key: key, into: output)
                sink ^= output[0]
            }
            let elapsed = cbench_now_seconds() - start
            return withExtendedLifetime(sink) { elapsed }
        }
    }
}

/// Ed25519 detached sign and verify through the public API.
private struct SigningLoop {
    let pair = Ed25519.generateKeyPair()
    let message: [UInt8]
    let signature: [UInt8]

    init(length: Int) throws {
        message = Random.bytes(count: length)
        signature = try Ed25519.sign(message, secretKey: pair.secretKey)
    }

    func sign(iterations: Int) throws -> Double {
        var sink: UInt8 = 0
        let start = cbench_now_seconds()
        for _ in 0..<iterations {
            sink ^= try Ed25519.sign(message, secretKey: pair.secretKey)[0]
        }
        let elapsed = cbench_now_seconds() - start
        return withExtendedLifetime(sink) { elapsed }
    }

    func verify(iterations: Int) throws -> Double {
        var valid = 0
        let start = cbench_now_seconds()
        for _ in 0..<iterations
        where Ed25519.isValidSignature(signature, for: message, publicKey: pair.publicKey) {
            valid += 1
        }
        let elapsed = cbench_now_seconds() - start
        // Like the C loop, only a run that verified every time measures the success path.
        guard valid == iterations else { throw BenchError.verificationFailed }
        return elapsed
    }
}
