import Foundation
import SimpleXCrypto
import Testing

struct SHA2Tests {
    @Test func sha256KnownAnswers() {
        #expect(
            SHA256.hash(Array("abc".utf8)).hexString
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hash([UInt8]()).hexString
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hash(Data("abc".utf8)).count == SHA256.byteCount)
        // FIPS 180-2 appendix B.2 (two blocks) and B.3 (a million bytes).
        #expect(
            SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hexString
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)).hexString
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Where the CPU's SHA extensions are used, they must give libsodium's digest at every length
    /// around the padding's edges (55, 56, 63, 64 bytes into a block) and at a message's size.
    @Test func sha256EqualsLibsodiumAtEveryPaddingLength() {
        var generator = SystemRandomNumberGenerator()
        let data = (0..<(16 * 1024 + 200)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var lengths = Array(0...300)
        lengths += [1_000, 4_095, 4_096, 4_097, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 55, 16 * 1024 + 200]
        for length in lengths {
            let message = Array(data[0..<length])
            #expect(SHA256.hash(message) == SHA256.portableHash(message), "length \(length)")
        }
        // An unaligned start, as a slice of a larger buffer can have.
        data.withUnsafeBytes { all in
            let slice = UnsafeRawBufferPointer(rebasing: all[3..<(3 + 1_000)])
            #expect(SHA256.hash(slice) == SHA256.portableHash(Array(slice)))
        }
    }

    @Test func sha512KnownAnswer() {
        #expect(
            SHA512.hash(Array("abc".utf8)).hexString == """
                ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
                2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f
                """)
        #expect(SHA512.byteCount == 64)
    }
}

/// RFC 4231 test cases 1, 2, 6 and 7 (6 and 7 use a 131-byte key, longer than the block).
struct HMACTests {
    static let longKey = [UInt8](repeating: 0xaa, count: 131)
    static let cases: [(key: [UInt8], message: String, sha256: String, sha512: String)] = [
        (
            [UInt8](repeating: 0x0b, count: 20), "Hi There",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"
        ),
        (
            Array("Jefe".utf8), "what do ya want for nothing?",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        ),
        (
            longKey, "Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
                + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"
        ),
        (
            longKey,
            "This is a test using a larger than block-size key and a larger than block-size data."
                + " The key needs to be hashed before being used by the HMAC algorithm.",
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
            "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
                + "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"
        ),
    ]

    @Test(arguments: 0..<cases.count) func rfc4231(index: Int) {
        let test = Self.cases[index]
        let message = Array(test.message.utf8)
        #expect(HMACSHA512.authenticate(message, key: test.key).hexString == test.sha512)
        #expect(HMACSHA256.authenticate(message, key: test.key).hexString == test.sha256)
        #expect(HMACSHA512.isValidAuthenticationCode(hex(test.sha512), for: message, key: test.key))
        #expect(HMACSHA256.isValidAuthenticationCode(hex(test.sha256), for: message, key: test.key))
    }

    @Test func keyFromSecureBytes() {
        let key = SecureBytes(copying: Array("Jefe".utf8))
        #expect(
            HMACSHA512.authenticate(Array("what do ya want for nothing?".utf8), key: key)
                == hex(Self.cases[1].sha512))
    }

    @Test func rejectsWrongMacs() {
        let message = Array("message".utf8)
        let key = Array("key".utf8)
        let mac = HMACSHA512.authenticate(message, key: key)
        #expect(HMACSHA512.isValidAuthenticationCode(mac, for: message, key: key))
        #expect(!HMACSHA512.isValidAuthenticationCode(flippingBit(mac, at: 63), for: message, key: key))
        #expect(!HMACSHA512.isValidAuthenticationCode(mac, for: Array("messagf".utf8), key: key))
        #expect(!HMACSHA512.isValidAuthenticationCode(mac, for: message, key: Array("kez".utf8)))
        #expect(!HMACSHA512.isValidAuthenticationCode(Array(mac.prefix(32)), for: message, key: key))
        #expect(!HMACSHA512.isValidAuthenticationCode([], for: message, key: key))
        let mac256 = HMACSHA256.authenticate(message, key: key)
        #expect(!HMACSHA256.isValidAuthenticationCode(flippingBit(mac256, at: 0), for: message, key: key))
    }

    @Test func emptyKeyAndMessage() {
        // Python: hmac.new(b"", b"", hashlib.sha256).hexdigest()
        #expect(
            HMACSHA256.authenticate([UInt8](), key: [UInt8]()).hexString
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
