import SimpleXCrypto

@testable import SimpleXProtocol

/// Handshakes in memory, through the encoded hello blocks as a socket would carry them.
enum TransportFixture {
    static func connect(
        identity: ServerIdentity = .generate(), serverVersions: TransportVersionRange = .supported,
        clientVersions: TransportVersionRange = .supported
    ) throws -> (server: TransportSession, client: TransportSession) {
        let server = ServerHandshake(identity: identity, versionRange: serverVersions)
        let serverHelloBlock = try server.hello().encode()
        let client = ClientHandshake(expectedKeyHash: identity.fingerprint, versionRange: clientVersions)
        let (clientHello, clientSession) = try client.receive(ServerHello.decode(serverHelloBlock))
        let serverSession = try server.receive(ClientHello.decode(clientHello.encode()))
        return (serverSession, clientSession)
    }

    /// A padded block whose bytes depend on `seed`, so a mix-up of blocks shows.
    static func padded(_ seed: Int) -> [UInt8] {
        (0..<TransportSession.paddedBlockSize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7) }
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }
}
