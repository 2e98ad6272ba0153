import Foundation

/// A SimpleX connection link found in text: what it is for, its `simplex:` form and its hosts.
struct SimplexLinkInfo: Equatable {
    var linkType: SimplexLinkType
    var simplexUri: String
    var smpHosts: [String]
}

/// Recognises full SimpleX connection links for markdown (Markdown.hs `strDecode` of a connection
/// request): `simplex:/invitation#/?v=...&smp=...&e2e=...`, `simplex:/contact#/?v=...&smp=...`,
/// and the same after `https://<any host>` instead of `simplex:`.
///
/// The check is structural, as markdown needs: the version range, each queue URI's shape (relay
/// address, sender id, DH key as base64url) and, for invitations, the e2e parameters' shape. Keys
/// are not decoded and versions not compared, so SimpleX Chat's links and ours both show as links;
/// whether a link can be joined is the agent's decision (SimpleXProtocol `ConnectionLink`). Short
/// links (`https://<relay>/a#...`) are not recognised and show as web addresses.
enum SimplexLinkParser {
    /// The link in `text`, or nil when `text` is not exactly one full connection link.
    static func parse(_ text: String) -> SimplexLinkInfo? {
        var rest: Substring
        if text.hasPrefix("simplex:") {
            rest = text.dropFirst("simplex:".count)
        } else if text.hasPrefix("https://") {
            let afterScheme = text.dropFirst("https://".count)
            let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
            guard isServerLocation(afterScheme[..<hostEnd]) else { return nil }
            rest = afterScheme[hostEnd...]
        } else {
            return nil
        }
        let linkType: SimplexLinkType
        let mode: String
        if rest.hasPrefix("/invitation") {
            (linkType, mode) = (.invitation, "invitation")
        } else if rest.hasPrefix("/contact") {
            (linkType, mode) = (.contact, "contact")
        } else {
            return nil
        }
        rest = rest.dropFirst(mode.count + 1)
        if rest.hasPrefix("/") { rest = rest.dropFirst() }
        guard rest.hasPrefix("#/?") else { return nil }
        let queryText = rest.dropFirst(3)
        guard let query = parseQuery(queryText), let version = query["v"], isVersionRange(version),
            let smp = query["smp"]
        else { return nil }
        var hosts: [String] = []
        for queue in smp.split(separator: ";", omittingEmptySubsequences: false) {
            guard let queueHosts = queueHosts(queue) else { return nil }
            hosts += queueHosts
        }
        var finalType = linkType
        if linkType == .invitation {
            guard let e2e = query["e2e"], isE2EParams(e2e) else { return nil }
        } else if let data = query["data"], isGroupLinkData(data) {
            finalType = .group
        }
        return SimplexLinkInfo(
            linkType: finalType, simplexUri: "simplex:/\(mode)#/?\(queryText)", smpHosts: hosts)
    }

    /// `name=value` pairs separated by `&`, values percent-decoded; nil when one is malformed.
    static func parseQuery(_ text: Substring) -> [String: String]? {
        var parameters: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "="),
                let value = String(pair[pair.index(after: equals)...]).removingPercentEncoding
            else { return nil }
            parameters[String(pair[..<equals])] = value
        }
        return parameters
    }

    /// `host[:port]` of an https link: a name of letters, digits, `-` and `.`.
    private static func isServerLocation(_ text: Substring) -> Bool {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let host = parts.first, !host.isEmpty,
            host.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "-" || $0 == "." })
        else { return false }
        return parts.count == 1 || (!parts[1].isEmpty && parts[1].unicodeScalars.allSatisfy(\.isASCIIDigit))
    }

    /// `1` or `1-4`.
    static func isVersionRange(_ text: String) -> Bool {
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false)
        return (1...2).contains(bounds.count)
            && bounds.allSatisfy {
                !$0.isEmpty && $0.count <= 5 && $0.unicodeScalars.allSatisfy(\.isASCIIDigit)
            }
    }

    /// The hosts of a queue URI `smp://<key hash>@<host>[,<host>...][:port]/<sender id>[/]#/?v=...&dh=...`
    /// (or the old `#<dh key>`), with the onion host of an old `srv=` parameter after them.
    private static func queueHosts(_ text: Substring) -> [String]? {
        guard text.hasPrefix("smp://"), let hash = text.firstIndex(of: "#") else { return nil }
        let address = text[text.index(text.startIndex, offsetBy: "smp://".count)..<hash]
        guard let at = address.firstIndex(of: "@"), isBase64URL(address[..<at]) else { return nil }
        var location = address[address.index(after: at)...]
        if location.hasSuffix("/") { location = location.dropLast() }
        guard let slash = location.firstIndex(of: "/"), isBase64URL(location[location.index(after: slash)...])
        else { return nil }
        var server = location[..<slash]
        if let colon = server.firstIndex(of: ":") {
            let port = server[server.index(after: colon)...]
            guard !port.isEmpty, port.unicodeScalars.allSatisfy(\.isASCIIDigit) else { return nil }
            server = server[..<colon]
        }
        var hosts = server.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard hosts.allSatisfy(isHost) else { return nil }
        let fragment = text[text.index(after: hash)...]
        if fragment.hasPrefix("/?") {
            guard let query = parseQuery(fragment.dropFirst(2)), let version = query["v"],
                isVersionRange(version),
                let dh = query["dh"], isBase64URL(Substring(dh))
            else { return nil }
            if let onion = query["srv"] {
                guard isHost(onion) else { return nil }
                hosts.append(onion)
            }
        } else {
            guard isBase64URL(fragment) else { return nil }
        }
        return hosts
    }

    /// A host name or address: no characters that separate parts of a server address.
    private static func isHost(_ host: String) -> Bool {
        !host.isEmpty
            && host.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0.value < 0x7F && !":#,;/@?&=%".unicodeScalars.contains($0)
            }
    }

    /// `v=<range>&x3dh=<key>,<key>` (and any later parameters, such as a KEM key).
    private static func isE2EParams(_ text: String) -> Bool {
        guard let query = parseQuery(Substring(text)), let version = query["v"], isVersionRange(version),
            let keys = query["x3dh"]
        else { return false }
        let parts = keys.split(separator: ",", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy(isBase64URL)
    }

    /// Client data `{"type":"group","groupLinkId":"<base64url>"}` (SimpleX `CRDataGroup`).
    private static func isGroupLinkData(_ text: String) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            object["type"] as? String == "group", let id = object["groupLinkId"] as? String
        else { return false }
        return isBase64URL(Substring(id))
    }

    /// Base64url with optional `=` padding, of a length some bytes encode to.
    static func isBase64URL(_ text: Substring) -> Bool {
        var body = text
        while body.last == "=" { body = body.dropLast() }
        let padding = text.count - body.count
        guard !body.isEmpty, padding <= 2, body.count % 4 != 1, padding == 0 || text.count % 4 == 0 else {
            return false
        }
        return body.unicodeScalars.allSatisfy {
            $0.isASCIILetter || $0.isASCIIDigit || $0 == "-" || $0 == "_"
        }
    }
}
