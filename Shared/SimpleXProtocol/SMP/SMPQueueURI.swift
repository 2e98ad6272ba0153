import Foundation

/// A queue's address as a sender gets it in a link:
/// `smp://<keyHash>@host[:port]/<senderId>#/?v=1-4&dh=<X25519 SPKI>&q=m|c[&k=s]`.
public struct SMPQueueURI: Hashable, Sendable, CustomStringConvertible {
    /// The relay holding the queue.
    public let server: SMPServerAddress
    /// The id senders use.
    public let senderID: EntityID
    /// The client (e2e) versions the queue owner supports; ours differ from SimpleX's on purpose.
    public let versionRange: VersionRange
    /// The owner's raw X25519 key for the per-queue e2e DH.
    public let dhPublicKey: [UInt8]
    /// `q=m` or `q=c`; nil for old links that have neither `q` nor `k=s`.
    public let queueMode: SMPQueueMode?

    public init(
        server: SMPServerAddress, senderID: EntityID, versionRange: VersionRange, dhPublicKey: [UInt8],
        queueMode: SMPQueueMode?
    ) throws(ProtocolError) {
        guard !senderID.isEmpty else { throw .invalid("queue URI without a sender id") }
        guard dhPublicKey.count == 32 else { throw .invalid("X25519 key of \(dhPublicKey.count) bytes") }
        self.server = server
        self.senderID = senderID
        self.versionRange = versionRange
        self.dhPublicKey = dhPublicKey
        self.queueMode = queueMode
    }

    /// Whether the sender secures the queue itself with SKEY (messaging queues do).
    public var senderCanSecure: Bool { queueMode == .messaging }

    /// The link text. `k=s` is written for messaging queues too, as SimpleX does for clients that
    /// predate `q`; `'='` in values is percent-encoded as in SimpleX's links.
    public var description: String {
        // The init checked the key is 32 bytes, so its SPKI is the prefix and the key.
        let dh = Base64URL.encode(PublicKeyAlgorithm.x25519.spkiPrefix + dhPublicKey)
        var query = ["v=\(versionRange)", "dh=\(Self.escape(dh))"]
        switch queueMode {
        case .messaging: query += ["q=m", "k=s"]
        case .contact: query.append("q=c")
        case nil: break
        }
        return "\(server)/\(Base64URL.encode(senderID.bytes))#/?\(query.joined(separator: "&"))"
    }

    /// Parses a queue URI; unknown query parameters are ignored so newer links still read.
    public init(_ text: some StringProtocol) throws(ProtocolError) {
        let text = String(text)
        guard let hash = text.firstIndex(of: "#") else {
            throw .invalid("queue URI: no '#' before the parameters")
        }
        let beforeFragment = text[..<hash]
        guard let slash = beforeFragment.lastIndex(of: "/"), slash > beforeFragment.startIndex,
            beforeFragment[..<slash].hasPrefix("smp://"), beforeFragment[..<slash].count > "smp://".count
        else { throw .invalid("queue URI: no '/<sender id>' after the server") }
        var serverText = beforeFragment[..<slash]
        var senderText = beforeFragment[beforeFragment.index(after: slash)...]
        // SimpleX allows `/<senderId>/#`: the id is then before the trailing slash.
        if senderText.isEmpty, let previous = serverText.lastIndex(of: "/"), previous > serverText.startIndex,
            serverText[..<previous].count > "smp:/".count
        {
            senderText = serverText[serverText.index(after: previous)...]
            serverText = serverText[..<previous]
        }
        let server = try SMPServerAddress(serverText)
        guard !senderText.isEmpty, let senderID = Base64URL.decode(senderText), senderID.count <= 255 else {
            throw .invalid("queue URI: the sender id is not base64url")
        }
        var fragment = text[text.index(after: hash)...]
        if fragment.hasPrefix("/") { fragment = fragment.dropFirst() }
        guard fragment.hasPrefix("?") else { throw .invalid("queue URI: no '?' before the parameters") }
        var parameters: [String: String] = [:]
        for pair in fragment.dropFirst().split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let value = String(parts[1]).removingPercentEncoding else {
                throw .invalid("queue URI: parameter \(String(pair).debugDescription)")
            }
            parameters[String(parts[0])] = value
        }
        guard let versionText = parameters["v"] else { throw .invalid("queue URI: no version range (v=)") }
        let versionRange = try VersionRange(text: versionText)
        guard let dhText = parameters["dh"] else { throw .invalid("queue URI: no DH key (dh=)") }
        guard let dhSPKI = Base64URL.decode(dhText) else {
            throw .invalid("queue URI: the DH key is not base64url")
        }
        if dhSPKI.starts(with: [0x30, 0x42, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6f]) {
            throw .invalid("queue URI: an X448 DH key (SimpleX's own links); only X25519 keys are supported")
        }
        let dhPublicKey = try PublicKeyAlgorithm.x25519.raw(fromSPKI: dhSPKI)
        let queueMode: SMPQueueMode?
        switch parameters["q"] {
        case "m": queueMode = .messaging
        case "c": queueMode = .contact
        case nil: queueMode = parameters["k"] == "s" ? .messaging : nil
        case let other?: throw .invalid("queue URI: queue mode \(other.debugDescription)")
        }
        try self.init(
            server: server, senderID: EntityID(senderID), versionRange: versionRange,
            dhPublicKey: dhPublicKey,
            queueMode: queueMode)
    }

    static func escape(_ value: String) -> String { value.replacingOccurrences(of: "=", with: "%3D") }
}
