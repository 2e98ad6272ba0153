import SimpleXProtocol

/// The chat-protocol versions this build speaks: the `"v"` of every JSON chat message.
///
/// Numbered from 1000, as the agent and e2e versions are (`AgentVersions`): the messages are
/// SimpleX's JSON, but the feature set behind a version number is ours. SimpleX's 1–18 promise
/// features this build does not have (zstd-compressed batches from 8, binary batches, signed and
/// relay-forwarded group messages), so claiming them would invite a peer to send what we cannot
/// read. Our peers are our own clients (the agent versions already keep SimpleX's apart), and a
/// feature added later gets the next number here.
public enum ChatVersions {
    /// Version 1000: SimpleX's direct-chat messages (`x.msg.*`, `x.file.*`, `x.info*`, `x.contact`,
    /// `x.direct.del`, `x.ok`, calls and groups kept as raw JSON), JSON batches, inline file chunks.
    public static let firstChatVersion: UInt16 = 1000

    /// The range this build supports: what goes in `"v"`.
    public static let supported = VersionRange(firstChatVersion)

    /// What SimpleX assumes of a message without `"v"` (its `chatInitialVRange`, version 1).
    public static let unspecified = VersionRange(1)
}

extension VersionRange: ChatJSONRepresentable {
    init(json: JSON, path: String) throws(ChatProtocolError) {
        let text = try JSONFields.string(json, path: path)
        do {
            try self.init(text: text)
        } catch {
            throw .invalidValue(path: path, reason: "not a version range: \(text)")
        }
    }

    var json: JSON { .string(description) }
}
