@testable import SimpleXProtocol

/// Fixed links, queues and envelopes for the agent-layer tests, built from the SMP test values so
/// expected bytes and link texts can be written out by hand.
enum AgentTestValues {
    typealias V = SMPTestValues

    static let ratchetKey1 = [UInt8](repeating: 0x33, count: 32)
    static let ratchetKey2 = [UInt8](repeating: 0x44, count: 32)
    static let nonce = [UInt8](200..<224)

    static var server: SMPServerAddress {
        get throws { try SMPServerAddress(keyHash: [UInt8](0..<32), hosts: ["relay.example"]) }
    }

    static var otherServer: SMPServerAddress {
        get throws {
            try SMPServerAddress(
                keyHash: [UInt8](32..<64), hosts: ["a.example", "bbbbbbbb.onion"], port: 7000)
        }
    }

    static func queue(
        _ mode: SMPQueueMode? = .messaging, server: SMPServerAddress? = nil, senderID: [UInt8] = V.id24
    )
        throws -> SMPQueueURI
    {
        try SMPQueueURI(
            server: server ?? self.server, senderID: EntityID(senderID),
            versionRange: try VersionRange(min: 1, max: 4), dhPublicKey: V.x25519Raw, queueMode: mode)
    }

    static var e2eURI: E2ERatchetParamsURI {
        get throws {
            try E2ERatchetParamsURI(versionRange: AgentVersions.e2e, key1: ratchetKey1, key2: ratchetKey2)
        }
    }

    static var e2eParams: E2ERatchetParams {
        get throws {
            try E2ERatchetParams(version: AgentVersions.firstE2EVersion, key1: ratchetKey1, key2: ratchetKey2)
        }
    }

    static var invitation: ConnectionLink {
        get throws { try ConnectionLink(mode: .invitation(e2eURI), queues: [queue()]) }
    }

    static var contact: ConnectionLink {
        get throws { try ConnectionLink(mode: .contact, queues: [queue(.contact)]) }
    }

    static var queueInfo: SMPQueueInfo {
        get throws {
            try SMPQueueInfo(
                clientVersion: 4, server: server, senderID: EntityID(V.id24b), dhPublicKey: V.x25519Raw,
                queueMode: .messaging)
        }
    }

    static var address: SenderQueueAddress {
        get throws { SenderQueueAddress(server: try otherServer, senderID: EntityID(V.id24)) }
    }

    /// Every AMessage shape.
    static var allAMessages: [AMessage] {
        get throws {
            [
                .hello, .message(body: []), .message(body: Array("hello, world".utf8)),
                .receipts([
                    AMessageReceipt(agentMsgID: 7, msgHash: [UInt8](repeating: 9, count: 32), receiptInfo: [])
                ]),
                .receipts([
                    AMessageReceipt(agentMsgID: 1, msgHash: [1], receiptInfo: Array("{}".utf8)),
                    AMessageReceipt(
                        agentMsgID: .max, msgHash: [], receiptInfo: [UInt8](repeating: 0, count: 300)),
                ]),
                .queueContinue(try address),
                .queueAdd([
                    QueueAddition(queue: try queue(), replacedQueue: try address),
                    QueueAddition(queue: try queue(nil, server: try otherServer), replacedQueue: nil),
                    QueueAddition(queue: try queue(.contact), replacedQueue: nil),
                ]),
                .queueKey([
                    QueueKey(queue: try queueInfo, senderKey: V.edKey),
                    QueueKey(queue: try queueInfo, senderKey: V.xKey),
                ]),
                .queueUse([
                    QueueUse(address: try address, primary: true),
                    QueueUse(address: try address, primary: false),
                ]),
                .queueTest([try address]),
                .ratchetReady(lastDecryptedMessageID: 42), .ratchetReady(lastDecryptedMessageID: -1),
            ]
        }
    }

    /// Every AgentMessage shape, with every AMessage.
    static var allAgentMessages: [AgentMessage] {
        get throws {
            let reply = try SMPQueueInfo(
                clientVersion: 4, server: otherServer, senderID: EntityID(V.id24), dhPublicKey: V.x25519Raw,
                queueMode: .contact)
            return [
                .connInfo(Array("{\"profile\":{}}".utf8)), .connInfo([]),
                .connInfoReply(queues: [try queueInfo], connInfo: Array("{}".utf8)),
                .connInfoReply(queues: [try queueInfo, reply], connInfo: []),
                .ratchetInfo([1, 2, 3]),
            ]
                + (try allAMessages).enumerated().map { index, message in
                    .message(
                        APrivHeader(
                            sndMsgID: Int64(index + 1),
                            prevMsgHash: [UInt8](repeating: UInt8(index), count: 32)), message)
                }
        }
    }

    /// Every AgentMsgEnvelope shape.
    static var allEnvelopes: [AgentMsgEnvelope] {
        get throws {
            let version = AgentVersions.firstAgentVersion
            return [
                AgentMsgEnvelope(
                    agentVersion: version,
                    content: .confirmation(e2eParams: try e2eParams, encryptedConnInfo: [1, 2, 3])),
                AgentMsgEnvelope(
                    agentVersion: version, content: .confirmation(e2eParams: nil, encryptedConnInfo: [])),
                AgentMsgEnvelope(agentVersion: version, content: .message(encryptedAgentMessage: [9, 8, 7])),
                AgentMsgEnvelope(
                    agentVersion: version,
                    content: .invitation(connectionRequest: try invitation, connInfo: Array("{}".utf8))),
                AgentMsgEnvelope(
                    agentVersion: version, content: .ratchetKey(e2eParams: try e2eParams, info: [5])),
            ]
        }
    }

    static var allClientMessages: [ClientMessage] {
        get throws {
            try allEnvelopes.map { try ClientMessage(privateHeader: .empty, envelope: $0) } + [
                try ClientMessage(
                    privateHeader: .confirmation(senderKey: V.edKey), envelope: allEnvelopes[0]),
                ClientMessage(privateHeader: .confirmation(senderKey: V.xKey), body: []),
            ]
        }
    }

    static var allClientEnvelopes: [ClientMsgEnvelope] {
        get throws {
            [
                try ClientMsgEnvelope(
                    header: PubHeader(version: 4, senderDHKey: V.x25519Raw), nonce: nonce,
                    ciphertext: [1, 2, 3]),
                try ClientMsgEnvelope(
                    header: PubHeader(version: 4, senderDHKey: nil), nonce: nonce, ciphertext: []),
            ]
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }

    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace }.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0
        }
    }
}
