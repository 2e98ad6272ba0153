import Foundation

/// How a file is cut into chunks, which chunks go next and when progress is reported: the
/// arithmetic of a transfer, without I/O (CONVENTIONS: state machines tested without I/O).
///
/// Files travel as SimpleX's SMP method: on a connection of their own, one agent message per
/// chunk (`FileChunk`, `'F' Word32 chunkNo bytes`), 15,780 bytes each (SimpleX's
/// `fileChunkSize`). Chunk numbers start at 1; an empty file is one empty chunk, so every
/// transfer ends the same way.
public struct FileChunking: Equatable, Sendable {
    /// SimpleX's chunk size for files over SMP.
    public static let smpChunkSize = FileChunk.maxSize
    /// The largest file sent or received: each chunk is a relay message the receiver's relay
    /// keeps until it is received, so this bounds what a transfer can pile up there.
    public static let maxFileSize: Int64 = 8 * 1024 * 1024
    /// Chunks handed to the agent before the relay has accepted them: enough to keep the relay
    /// busy, few enough not to run into its queue quota (128) while the receiver is away.
    public static let sendWindow = 8

    public let fileSize: Int64
    public let chunkSize: Int

    public init(fileSize: Int64, chunkSize: Int = FileChunking.smpChunkSize) {
        self.fileSize = max(0, fileSize)
        self.chunkSize = max(1, chunkSize)
    }

    public var chunkCount: Int { max(1, Int((fileSize + Int64(chunkSize) - 1) / Int64(chunkSize))) }

    /// Where chunk `number` starts in the file.
    public func offset(of number: Int) -> Int64 { Int64(number - 1) * Int64(chunkSize) }

    /// How many bytes chunk `number` has: a full chunk, except the last.
    public func length(of number: Int) -> Int {
        number < chunkCount ? chunkSize : Int(fileSize - offset(of: number))
    }

    /// Checks a received chunk's number and size; returns the number.
    public func validate(number: UInt32, byteCount: Int) throws(ChatFileError) -> Int {
        let n = Int(number)
        guard n >= 1, n <= chunkCount else {
            throw .invalidChunk("chunk \(number) of a file of \(chunkCount) chunks")
        }
        guard byteCount == length(of: n) else {
            throw .invalidChunk("chunk \(number) has \(byteCount) bytes, expected \(length(of: n))")
        }
        return n
    }

    /// The chunks to hand to the agent now, when chunks 1...`queued` have been handed over and
    /// `unsent` of them are not yet with the relay; nil when none.
    public func nextChunks(queued: Int, unsent: Int, window: Int = FileChunking.sendWindow) -> ClosedRange<
        Int
    >? {
        let room = window - unsent
        guard room > 0, queued < chunkCount else { return nil }
        return (queued + 1)...min(chunkCount, queued + room)
    }

    /// The progress to report when the chunks done go from `before` to `after`: the tenth just
    /// reached (10, 20, ... 90), or nil when no new tenth was reached or the file is complete
    /// (completion is reported on its own).
    public func progress(from before: Int, to after: Int) -> Int? {
        guard after < chunkCount, after > before else { return nil }
        let reached = after * 10 / chunkCount
        return reached > before * 10 / chunkCount && reached > 0 ? reached * 10 : nil
    }

    /// `12.3 KiB` as SimpleX's `humanReadableSize` prints sizes (bytes below 1 KiB).
    public static func readableSize(_ size: Int64) -> String {
        let units: [(Int64, String)] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (scale, name) in units where size >= scale {
            let tenths = (size * 10 + scale / 2) / scale
            return "\(tenths / 10).\(tenths % 10) \(name)"
        }
        return "\(size) bytes"
    }
}

/// Names of received files: made safe, kept unique, recognised as images.
public enum FileNames {
    /// Extensions received automatically when privacyAcceptImages is on.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp"]

    /// A name from a peer made safe to save: its last path component, control characters
    /// replaced (they would break the terminal's lines), at most 255 bytes; `file` when
    /// nothing usable is left.
    public static func sanitized(_ name: String) -> String {
        let last = name.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? ""
        var cleaned = String(
            String.UnicodeScalarView(
                last.unicodeScalars.map {
                    $0.properties.generalCategory == .control || $0 == "\\" ? "_" : $0
                }))
        while cleaned.utf8.count > 255 { cleaned.removeLast() }
        let trimmed = cleaned.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed == "." || trimmed == ".." ? "file" : cleaned
    }

    /// `directory/name`, or, when `exists` says that is taken, `name_1.ext`, `name_2.ext`, ...
    /// (as SimpleX picks names for received files).
    public static func unique(_ name: String, in directory: String, exists: (String) -> Bool) -> String {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let candidate = "\(base)/\(name)"
        guard exists(candidate) else { return candidate }
        let (stem, ext) = split(name)
        var n = 1
        while exists("\(base)/\(stem)_\(n)\(ext)") { n += 1 }
        return "\(base)/\(stem)_\(n)\(ext)"
    }

    /// Whether the name says the file is an image (by its extension).
    public static func isImage(_ name: String) -> Bool {
        let (_, ext) = split(name)
        return imageExtensions.contains(ext.dropFirst().lowercased())
    }

    /// `photo.jpg` → (`photo`, `.jpg`); a leading dot alone is not an extension.
    static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }
}
