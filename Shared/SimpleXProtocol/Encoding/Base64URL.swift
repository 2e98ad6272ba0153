import Foundation

/// base64url with padding, SimpleX's text form of keys and ids in addresses and links.
public enum Base64URL {
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    /// Accepts padded or unpadded base64url; nil when the text is not base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_=".contains($0)) }) else {
            return nil
        }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let unpadded = standard.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        guard standard.count - unpadded.count <= 2 else { return nil }
        standard = unpadded + String(repeating: "=", count: (4 - unpadded.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
