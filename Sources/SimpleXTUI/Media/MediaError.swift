/// Why an image or a QR code cannot be drawn: what it was (a file's name, "image data", "link")
/// and what failed, in one line.
public struct MediaError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What failed.
    public enum Reason: Equatable, Sendable {
        /// The file cannot be read or is not an image gdk-pixbuf can decode (its message).
        case notAnImage(String)
        /// The box to draw into has no cells.
        case emptyBox(columns: Int, rows: Int)
        /// The text is longer than the largest QR code holds.
        case tooLongForQRCode(bytes: Int)
        /// The text cannot be put in a QR code (a NUL character).
        case notEncodable
        /// A C library failed where it should not have (the call).
        case libraryFailure(String)
    }

    /// The file's name, or "image data" / "link" when there is no file.
    public let subject: String
    public let reason: Reason

    public init(subject: String, reason: Reason) {
        self.subject = subject
        self.reason = reason
    }

    public var description: String {
        let what: String
        switch reason {
        case .notAnImage(let why): what = "not an image that can be shown (\(why))"
        case .emptyBox(let columns, let rows): what = "cannot be drawn in a box of \(columns)×\(rows) cells"
        case .tooLongForQRCode(let bytes): what = "\(bytes) bytes are too many for a QR code"
        case .notEncodable: what = "cannot be put in a QR code (it contains a NUL character)"
        case .libraryFailure(let call): what = "\(call) failed"
        }
        // Library messages may carry line breaks; the description stays on one line.
        return "\(subject): \(what)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
