import Foundation

extension Markdown {
    /// `uri` without its tracking parameters (Markdown.hs `sanitizeUri`), or nil when it is not an
    /// http(s) address or has nothing to remove. Kept parameters keep their text and order.
    ///
    /// `safe` removes only parameters named with a known tracking prefix (`utm`, `fb`, `gad_`...).
    /// Otherwise whitelisted parameters (`q`, `search`, `page`, a few per site such as YouTube's
    /// `v` and `t`) are kept, and also the first parameter when the path looks like a page name
    /// (lowercase latin words, `-`, `_`, `/`) and the parameter is not likely a tracker (an `_` in
    /// its name, a name ending in `id` or starting with `source`, or a tracking prefix).
    public static func sanitizedURI(_ uri: String, safe: Bool) -> String? {
        guard WebURI.isValid(uri), let queryStart = uri.firstIndex(of: "?") else { return nil }
        let beforeQuery = uri[..<queryStart]
        let afterQuery = uri[uri.index(after: queryStart)...]
        let fragmentStart = afterQuery.firstIndex(of: "#") ?? afterQuery.endIndex
        let parameters = afterQuery[..<fragmentStart].split(separator: "&")
        guard !parameters.isEmpty else { return nil }
        let names = parameters.map { parameter in
            let name = parameter.prefix { $0 != "=" }
            return String(name).removingPercentEncodingLeniently
        }
        let address = URIParts(beforeQuery)
        var keep: [Bool]
        if safe {
            keep = names.map { !isSafeBlacklisted($0) }
        } else {
            keep = names.map { isWhitelisted($0, host: address.host) }
            if address.isNamePath, let first = names.first {
                keep[0] = isWhitelisted(first, host: address.host) || !isBlacklisted(first)
            }
        }
        guard keep.contains(false) else { return nil }
        let kept = zip(parameters, keep).filter(\.1).map { String($0.0) }
        let query = kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
        return String(beforeQuery) + query + afterQuery[fragmentStart...]
    }

    /// The host and the path of an http(s) address before its query.
    private struct URIParts {
        var host: String
        var isNamePath: Bool

        init(_ text: Substring) {
            let afterScheme = text.drop { $0 != "/" }.dropFirst(2)
            let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
            var authority = afterScheme[..<pathStart]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
                authority = authority[..<colon]
            }
            host = String(authority)
            isNamePath = afterScheme[pathStart...].unicodeScalars.allSatisfy {
                ($0.value >= 0x61 && $0.value <= 0x7A) || $0 == "_" || $0 == "-" || $0 == "/"
            }
        }
    }

    private static func isSafeBlacklisted(_ name: String) -> Bool {
        safeBlacklist.contains { name.hasPrefix($0) }
    }

    private static func isBlacklisted(_ name: String) -> Bool {
        isSafeBlacklisted(name) || name.contains("_") || name.hasSuffix("id") || name.hasPrefix("source")
    }

    private static func isWhitelisted(_ name: String, host: String) -> Bool {
        if ["q", "search", "search_query", "lang", "list", "page", "text", "type"].contains(name) {
            return true
        }
        return siteWhitelist.contains { site, names in
            (host == site || host.hasSuffix("." + site)) && names.contains(name)
        }
    }

    private static let siteWhitelist: [(String, [String])] = [
        ("aliexpress.com", ["SearchText", "catId", "minPrice", "maxPrice"]),
        ("amazon.com", ["i", "rh", "k"]),
        ("baidu.com", ["wd"]),
        ("bing.com", ["mkt"]),
        ("github.com", ["author", "diff", "ref", "w"]),
        ("play.google.com", ["id"]),
        ("reddit.com", ["t"]),
        ("wikipedia.com", ["oldid", "uselang"]),
        ("x.com", ["f"]),
        ("yahoo.com", ["p"]),
        ("youtube.com", ["v", "t"]),
        ("youtu.be", ["t"]),
    ]

    private static let safeBlacklist = [
        "ad", "af", "camp", "cmp", "dc", "dev", "ef_", "fb", "gad_", "gc", "gdf", "hsa_", "igsh", "li",
        "matomo_",
        "mc_", "mkwid", "msc", "mtm_", "pcrid", "piwik_", "pk_", "prom", "ref", "s_kw", "si", "src", "srs",
        "trk_",
        "tw", "utm", "ycl",
    ]
}

extension String {
    /// Percent escapes decoded, or the text itself when they are malformed.
    fileprivate var removingPercentEncodingLeniently: String {
        removingPercentEncoding ?? self
    }
}
