internal import CCurl
import Foundation
import SimpleXChat

/// Link previews as SimpleX makes them for a shared link: the page's OpenGraph title, description
/// and image (a small JPEG thumbnail), fetched with libcurl — a short timeout, no cookies, http and
/// https only, at most 1 MiB read — and only when the user allows it (`privacyLinkPreviews`).
public enum LinkPreviews {
    /// The first http(s) link in `text`.
    public static func firstLink(in text: String) -> String? {
        guard let match = text.firstMatch(of: /https?:\/\/[^\s<>"']+/) else { return nil }
        var link = String(match.output)
        while let last = link.last, ".,;:!?)".contains(last) { link.removeLast() }
        return link
    }

    /// The preview of `url`, or nil when the page cannot be read in time or says nothing.
    public static func fetch(_ url: String, timeout: Duration = .seconds(5)) -> LinkPreview? {
        guard let page = get(url, timeout: timeout), let html = String(bytes: page, encoding: .utf8)
            ?? String(bytes: page, encoding: .isoLatin1)
        else { return nil }
        let tags = parse(html)
        guard let title = tags.title, !title.isEmpty else { return nil }
        var image = ""
        if let imageURL = tags.image.flatMap({ URL(string: $0, relativeTo: URL(string: url))?.absoluteString }),
            let bytes = get(imageURL, timeout: timeout), let thumbnail = ImagePreparation.thumbnail(data: bytes)
        {
            image = thumbnail
        }
        return LinkPreview(uri: url, title: title, description: tags.description ?? "", image: image)
    }

    /// The OpenGraph title, description and image of a page (the `<title>` when it has no og:title).
    static func parse(_ html: String) -> (title: String?, description: String?, image: String?) {
        var values: [String: String] = [:]
        for match in html.matches(of: /<meta\s[^>]*>/.ignoresCase()) {
            let tag = String(match.output)
            guard let key = attribute("property", in: tag) ?? attribute("name", in: tag),
                let content = attribute("content", in: tag)
            else { continue }
            let lowered = key.lowercased()
            if values[lowered] == nil { values[lowered] = decodeEntities(content) }
        }
        let title = values["og:title"] ?? html.firstMatch(of: /<title[^>]*>([^<]*)<\/title>/.ignoresCase()).map {
            decodeEntities(String($0.1)).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return (title, values["og:description"] ?? values["description"], values["og:image"])
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        let pattern = try! Regex("\(name)\\s*=\\s*(\"([^\"]*)\"|'([^']*)')").ignoresCase()
        guard let match = tag.firstMatch(of: pattern) else { return nil }
        return (match.output[2].substring ?? match.output[3].substring).map(String.init)
    }

    private static func decodeEntities(_ text: String) -> String {
        var result = text
        for (entity, character) in [("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
            result = result.replacingOccurrences(of: entity, with: character)
        }
        return result
    }

    /// What libcurl gave so far, capped.
    private final class Body {
        var bytes: [UInt8] = []
        let limit = 1 << 20
    }

    private static func get(_ url: String, timeout: Duration) -> [UInt8]? {
        guard let curl = CCurl_init() else { return nil }
        defer { CCurl_cleanup(curl) }
        let body = Body()
        let milliseconds = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        _ = CCurl_setString(curl, CURLOPT_URL, url)
        _ = CCurl_setString(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = CCurl_setString(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = CCurl_setLong(curl, CURLOPT_FOLLOWLOCATION, 1)
        _ = CCurl_setLong(curl, CURLOPT_MAXREDIRS, 3)
        _ = CCurl_setLong(curl, CURLOPT_TIMEOUT_MS, milliseconds)
        _ = CCurl_setLong(curl, CURLOPT_NOSIGNAL, 1)
        _ = CCurl_setString(curl, CURLOPT_USERAGENT, "SimpleX Chat")
        // No cookie engine: none is sent or kept (CURLOPT_COOKIEFILE is never set).
        _ = CCurl_setWriteFunction(curl) { data, size, count, context in
            guard let data, let context else { return 0 }
            let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            guard body.bytes.count + length <= body.limit else { return 0 }  // stops the transfer
            body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            return length
        }
        let context = Unmanaged.passUnretained(body).toOpaque()
        _ = CCurl_setPointer(curl, CURLOPT_WRITEDATA, context)
        let result = withExtendedLifetime(body) { CCurl_perform(curl) }
        var code = 0
        _ = CCurl_getResponseCode(curl, &code)
        guard result == CURLE_OK, (200..<300).contains(code) else { return nil }
        return body.bytes
    }
}
