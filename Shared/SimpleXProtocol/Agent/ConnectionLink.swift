/// A link that starts a connection (simplexmq `ConnectionRequestUri`): a one-time invitation
/// `simplex:/invitation#/?v=<agent versions>&smp=<queue URIs>&e2e=<ratchet params>` or a contact
/// address `simplex:/contact#/?v=...&smp=...` (no e2e: whoever joins sends an invitation with its
/// own keys). `https://<host>/` (usually `https://simplex.chat/`) may stand for `simplex:/`.
///
/// Every value is escaped as SimpleX does, so a queue URI's own escapes appear twice (`%253D`);
/// several queues in `smp` are separated by `;` (a `,` already separates a server's hosts).
public struct ConnectionLink: Hashable, Sendable, CustomStringConvertible {
    /// What the link is for, with what only that kind of link carries.
    public enum Mode: Hashable, Sendable {
        /// A one-time invitation, with the inviter's X3DH keys.
        case invitation(E2ERatchetParamsURI)
        /// A long-lived contact address.
        case contact

        /// The link path.
        var path: String {
            switch self {
            case .invitation: return "invitation"
            case .contact: return "contact"
            }
        }
    }

    /// How the link starts: `simplex:` or a web address that opens the app or shows the link.
    public enum Scheme: Hashable, Sendable {
        /// `simplex:/...`, the default.
        case simplex
        /// `https://<host>/...`; the host may carry a `:port`.
        case https(host: String)

        /// `https://simplex.chat/...`, the form SimpleX shares on the web.
        public static let simplexChat = Scheme.https(host: "simplex.chat")
    }

    /// Invitation (with e2e keys) or contact address.
    public let mode: Mode
    /// The agent versions the link's owner supports.
    public let agentVersionRange: VersionRange
    /// The queues to send the first message to, at least one; the joiner uses the first it can.
    public let queues: [SMPQueueURI]
    /// Application data SimpleX may attach (`data=`), kept as text.
    public let clientData: String?

    /// A link; there must be at least one queue.
    public init(
        mode: Mode, agentVersionRange: VersionRange = AgentVersions.agent, queues: [SMPQueueURI],
        clientData: String? = nil
    ) throws(ConnectionLinkError) {
        guard !queues.isEmpty else { throw .missingParameter("smp") }
        self.mode = mode
        self.agentVersionRange = agentVersionRange
        self.queues = queues
        self.clientData = clientData
    }

    /// The inviter's X3DH keys, for an invitation.
    public var e2eParams: E2ERatchetParamsURI? {
        if case .invitation(let params) = mode { return params }
        return nil
    }

    /// Whether the link is a contact address.
    public var isContactAddress: Bool { mode == .contact }

    /// The `simplex:` form.
    public var description: String { text(scheme: .simplex) }

    /// The link text in the given scheme.
    public func text(scheme: Scheme = .simplex) -> String {
        var pairs: [(name: String, value: String)] = [
            ("v", agentVersionRange.description), ("smp", queues.map(\.description).joined(separator: ";")),
        ]
        if let e2eParams { pairs.append(("e2e", e2eParams.description)) }
        if let clientData { pairs.append(("data", clientData)) }
        let start: String
        switch scheme {
        case .simplex: start = "simplex:"
        case .https(let host): start = "https://\(host)"
        }
        return "\(start)/\(mode.path)#/?\(LinkQuery(pairs: pairs).rendered(escaping: true))"
    }

    /// Parses a link in either scheme and checks that its versions overlap ours. Structure and keys
    /// are checked before versions, so a SimpleX Chat link is reported by what makes it unusable
    /// here (its X448 keys) rather than only by its version numbers.
    public init(
        _ text: some StringProtocol, supportedAgentVersions: VersionRange = AgentVersions.agent,
        supportedE2EVersions: VersionRange = AgentVersions.e2e
    ) throws(ConnectionLinkError) {
        let (path, parameters) = try Self.split(String(text).trimmingWhitespace())
        let query = try LinkQuery(parsing: parameters)

        let versionText = try query.required("v")
        let agentVersions: VersionRange
        do {
            agentVersions = try VersionRange(text: versionText)
        } catch {
            throw .invalidParameter(name: "v", reason: "version range \(versionText.debugDescription)")
        }
        let queues = try query.required("smp").split(separator: ";", omittingEmptySubsequences: false)
            .map { (text) throws(ConnectionLinkError) in try Self.queue(text) }

        let mode: Mode
        if path == "invitation" {
            mode = .invitation(try Self.e2eParams(query.required("e2e")))
        } else {
            mode = .contact
        }
        guard agentVersions.intersection(supportedAgentVersions) != nil else {
            throw .incompatibleAgentVersion(offered: agentVersions, supported: supportedAgentVersions)
        }
        if let e2e = mode.e2eParams, e2e.versionRange.intersection(supportedE2EVersions) == nil {
            throw .incompatibleE2EVersion(offered: e2e.versionRange, supported: supportedE2EVersions)
        }
        try self.init(
            mode: mode, agentVersionRange: agentVersions, queues: queues, clientData: query.value("data"))
    }

    /// The link path (`invitation` or `contact`) and the query after `#/?`.
    private static func split(_ text: String) throws(ConnectionLinkError) -> (String, Substring) {
        var rest: Substring
        if text.hasPrefix("simplex:") {
            rest = text.dropFirst("simplex:".count)
        } else if text.lowercased().hasPrefix("https://") {
            let afterScheme = text.dropFirst("https://".count)
            let host = afterScheme.prefix(while: { $0 != "/" && $0 != "#" && $0 != "?" })
            guard isValidWebHost(host) else {
                throw .malformed("web address \(String(host).debugDescription)")
            }
            rest = afterScheme[host.endIndex...]
        } else if let colon = text.firstIndex(of: ":"), colon > text.startIndex,
            text[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        {
            throw .unsupportedScheme(String(text[..<colon]))
        } else {
            throw .notALink
        }
        guard rest.hasPrefix("/") else { throw .malformed("no '/' after the scheme") }
        rest = rest.dropFirst()
        let hash = rest.firstIndex(of: "#") ?? rest.endIndex
        var path = rest[..<hash]
        if path.hasSuffix("/") { path = path.dropLast() }
        let mode = path.prefix(while: { $0 != "?" && $0 != "/" })
        guard mode == "invitation" || mode == "contact" else {
            throw mode.isEmpty && rest.isEmpty ? .notALink : .unknownLinkType(String(path))
        }
        guard mode == path, hash < rest.endIndex else { throw .malformed("no '#/?' before the parameters") }
        var fragment = rest[rest.index(after: hash)...]
        if fragment.hasPrefix("/") { fragment = fragment.dropFirst() }
        guard fragment.hasPrefix("?") else { throw .malformed("no '#/?' before the parameters") }
        return (String(mode), fragment.dropFirst())
    }

    /// `host[:port]` of an https link.
    private static func isValidWebHost(_ text: Substring) -> Bool {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard !parts[0].isEmpty, SMPServerAddress.isValidHost(String(parts[0])) else { return false }
        return parts.count == 1 || (!parts[1].isEmpty && UInt16(parts[1]) != nil)
    }

    /// One queue URI of `smp`, with X448 keys named as such.
    private static func queue(_ text: Substring) throws(ConnectionLinkError) -> SMPQueueURI {
        do {
            return try SMPQueueURI(text)
        } catch {
            // The queue's DH key is X25519 even in SimpleX's links, but say so plainly if it is not.
            if let question = text.firstIndex(of: "?"),
                let dh = (try? LinkQuery(parsing: text[text.index(after: question)...]))?.value("dh"),
                let der = Base64URL.decode(dh), let algorithm = LinkKey.unsupportedAlgorithm(der)
            {
                throw .unsupportedKeyType(algorithm: algorithm, parameter: "smp")
            }
            throw .invalidParameter(name: "smp", reason: error.description)
        }
    }

    /// The `e2e` value, with the errors inside it attributed to `e2e`.
    private static func e2eParams(_ text: String) throws(ConnectionLinkError) -> E2ERatchetParamsURI {
        do {
            return try E2ERatchetParamsURI(text)
        } catch .missingParameter(let name) {
            throw .invalidParameter(name: "e2e", reason: "no \(name)")
        } catch .badURLEncoding {
            throw .badURLEncoding(parameter: "e2e")
        } catch {
            throw error
        }
    }
}

extension ConnectionLink.Mode {
    fileprivate var e2eParams: E2ERatchetParamsURI? {
        if case .invitation(let params) = self { return params }
        return nil
    }
}

extension String {
    /// Without the spaces and newlines a pasted link often comes with.
    fileprivate func trimmingWhitespace() -> String {
        let start = firstIndex(where: { !$0.isWhitespace }) ?? endIndex
        let end = lastIndex(where: { !$0.isWhitespace }).map { index(after: $0) } ?? endIndex
        return start < end ? String(self[start..<end]) : ""
    }
}
