/// A file offered with a message (SimpleX `FileInvitation`, in `x.msg.new`'s `file` and `x.file`).
/// How it travels: `fileDescr` for XFTP, `fileConnReq` for its own SMP connection (the sender's
/// invitation, legacy), `fileInline` for chunks inline in the chat's connection, or none of them
/// when the recipient sends `x.file.acpt.inv` with a connection for it.
public struct FileInvitation: Hashable, Sendable {
    public var fileName: String
    /// Size in bytes.
    public var fileSize: Int64
    public var fileDigest: FileDigest?
    /// A connection link (`simplex:/invitation#/?v=...`) as text.
    public var fileConnReq: String?
    public var fileInline: InlineFileMode?
    public var fileDescr: FileDescr?

    public init(
        fileName: String, fileSize: Int64, fileDigest: FileDigest? = nil, fileConnReq: String? = nil,
        fileInline: InlineFileMode? = nil, fileDescr: FileDescr? = nil
    ) {
        self.fileName = fileName
        self.fileSize = fileSize
        self.fileDigest = fileDigest
        self.fileConnReq = fileConnReq
        self.fileInline = fileInline
        self.fileDescr = fileDescr
    }
}

/// Whether an inline file waits for acceptance (`offer`) or comes at once (`sent`).
public enum InlineFileMode: String, Hashable, Sendable, CaseIterable {
    case offer
    case sent
}

/// One part of an XFTP file description (YAML text), sent in the invitation or, when long, in
/// `x.msg.file.descr` messages that follow it.
public struct FileDescr: Hashable, Sendable {
    public var fileDescrText: String
    public var fileDescrPartNo: Int
    public var fileDescrComplete: Bool

    public init(fileDescrText: String, fileDescrPartNo: Int, fileDescrComplete: Bool) {
        self.fileDescrText = fileDescrText
        self.fileDescrPartNo = fileDescrPartNo
        self.fileDescrComplete = fileDescrComplete
    }
}

extension FileInvitation: ChatJSONRepresentable {
    /// Reads a file invitation object; `fileName` and `fileSize` are required.
    public init(json: JSON) throws(ChatProtocolError) {
        try self.init(json: json, path: "file")
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        let size = try fields.int("fileSize")
        var inline: InlineFileMode?
        if let mode = try fields.optionalString("fileInline") {
            guard let known = InlineFileMode(rawValue: mode) else {
                throw .invalidValue(
                    path: fields.fieldPath("fileInline"), reason: "unknown inline mode \(mode)")
            }
            inline = known
        }
        self.init(
            fileName: try fields.string("fileName"), fileSize: Int64(size),
            fileDigest: try fields.optionalDecode("fileDigest"),
            fileConnReq: try fields.optionalString("fileConnReq"),
            fileInline: inline, fileDescr: try fields.optionalDecode("fileDescr"))
    }

    /// The invitation object, keys in SimpleX's (sorted) order, absent optionals left out.
    public var json: JSON {
        .object(
            .sorted([
                ("fileName", .string(fileName)), ("fileSize", .number(JSONNumber(fileSize))),
                ("fileDigest", fileDigest?.json), ("fileConnReq", fileConnReq.map(JSON.string)),
                ("fileInline", fileInline.map { .string($0.rawValue) }), ("fileDescr", fileDescr?.json),
            ]))
    }
}

extension FileDescr: ChatJSONRepresentable {
    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            fileDescrText: try fields.string("fileDescrText"),
            fileDescrPartNo: try fields.int("fileDescrPartNo"),
            fileDescrComplete: try fields.bool("fileDescrComplete"))
    }

    var json: JSON {
        .object(
            .sorted([
                ("fileDescrText", .string(fileDescrText)),
                ("fileDescrPartNo", .number(JSONNumber(fileDescrPartNo))),
                ("fileDescrComplete", .bool(fileDescrComplete)),
            ]))
    }
}
