import SimpleXCrypto

@testable import SimpleXProtocol

/// Fixed keys and ids, so expected bytes can be written out by hand.
enum SMPTestValues {
    static let ed25519Raw = [UInt8](repeating: 0x11, count: 32)
    static let x25519Raw = [UInt8](repeating: 0x22, count: 32)
    static let ed25519Prefix: [UInt8] = [
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
    ]
    static let x25519Prefix: [UInt8] = [
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00,
    ]
    static let x448SPKI: [UInt8] =
        [0x30, 0x42, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6f, 0x03, 0x39, 0x00]
        + [UInt8](repeating: 1, count: 56)

    static var edKey: AuthPublicKey { try! AuthPublicKey(algorithm: .ed25519, raw: ed25519Raw) }
    static var xKey: AuthPublicKey { try! AuthPublicKey(algorithm: .x25519, raw: x25519Raw) }
    static let id24 = [UInt8](0..<24)
    static let id24b = [UInt8](100..<124)

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Every command shape, for round trips and as seeds for mutation.
    static var allCommands: [SMPCommand] {
        [
            .new(
                recipientAuthKey: edKey, recipientDHKey: x25519Raw, subscriptionMode: .subscribe,
                queueMode: .messaging),
            .new(
                recipientAuthKey: xKey, recipientDHKey: x25519Raw, subscriptionMode: .onlyCreate,
                queueMode: .contact),
            .sub, .key(senderKey: edKey), .key(senderKey: xKey), .ack(messageID: id24), .get, .off, .del,
            .skey(senderKey: xKey), .send(flags: MessageFlags(notification: true), body: ascii("hello")),
            .send(flags: .noFlags, body: []), .send(flags: .noFlags, body: ascii("with spaces and\0 bytes")),
            .ping,
        ]
    }

    static var allErrors: [SMPErrorType] {
        [
            .block, .session, .cmd(.unknown), .cmd(.syntax), .cmd(.prohibited), .cmd(.noAuth), .cmd(.hasAuth),
            .cmd(.noEntity), .auth, .crypto, .quota, .noMsg, .largeMsg, .expired, .internal, .duplicate,
            .unrecognized("PROXY BROKER TIMEOUT"),
        ]
    }

    static var allResponses: [SMPResponse] {
        [
            .ids(
                recipientID: EntityID(id24), senderID: EntityID(id24b), serverDHKey: x25519Raw,
                queueMode: .messaging),
            .ids(
                recipientID: EntityID(id24), senderID: EntityID(id24b), serverDHKey: x25519Raw,
                queueMode: .contact),
            .msg(messageID: id24, encryptedBody: [1, 2, 3, 0x20, 0]),
            .msg(messageID: id24, encryptedBody: []),
            .ok, .end, .deld, .pong,
        ] + allErrors.map { .err($0) }
    }
}

/// A seeded generator (SplitMix64), so a failing randomized run can be reproduced.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
