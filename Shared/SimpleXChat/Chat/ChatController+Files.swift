import Foundation
import Glibc
import SimpleXCrypto
import SimpleXProtocol
import SimpleXSystem

/// Files, by SimpleX's SMP method: the sender offers the file in `x.msg.new` (name, size,
/// SHA-512 digest); the recipient accepts with `x.file.acpt.inv` carrying a new invitation link
/// for a connection of the file's own; the sender joins it (connInfo `x.ok`) and sends the chunks
/// there, one agent message each (`FileChunk`). A connection per file keeps bulk chunks out of the
/// chat's queue (messages are not held up behind a file, nor the relay's quota used up by it)
/// and numbers chunks with a Word32 (the inline method's one-byte numbers stop at 255 chunks).
extension ChatController {
    var filesDirectory: String { groupDirectory + "/files" }
    var tmpDirectory: String { groupDirectory + "/tmp" }

    /// Whether received files are sealed at rest (privacyEncryptLocalFiles, on by default).
    var encryptsLocalFiles: Bool {
        GroupDefaults(path: groupDirectory + "/groupDefaults.json")[GroupDefaultKeys.privacyEncryptLocalFiles]
    }

    /// Opens a file to send: the user's own file as it is, or a received file in `files/` that is
    /// sealed at rest (sent on: forwarding, the share helper), through its key.
    func openLocalFile(_ path: String) throws(ChatError) -> (LocalFileReader, key: SecureBytes?) {
        let key = path.hasPrefix(filesDirectory + "/") ? try store.localFileKey(path: path) : nil
        do { return (try LocalFileReader(path: path, key: key), key) } catch { throw .file(error) }
    }

    /// Where a received file is assembled until it is complete and verified.
    func partialPath(_ file: ChatFile) -> String { "\(tmpDirectory)/file_\(file.fileId).partial" }

    /// Offers a file to a contact (`/f @name path`). A file that is missing, unreadable, not a
    /// regular file or over `FileChunking.maxFileSize` is refused before anything is sent.
    ///
    /// `content` is the message the file goes with: `.file(caption)` by default, or
    /// `.image(text: caption, image: thumbnail)` for an image (the share helper's).
    public func sendFile(to name: String, path: String, content: MsgContent = .file("")) async throws(ChatError) -> ChatItem {
        let contact = try contact(named: name)
        let connection = try connected(contact)
        let absolute = Self.absolutePath(path)
        let fileName = FileNames.sanitized(absolute)
        let size: Int64
        let digest: [UInt8]
        let (source, key) = try openLocalFile(absolute)
        do throws(ChatFileError) {
            let sourceSize = source.size
            guard sourceSize <= FileChunking.maxFileSize else {
                throw ChatFileError.tooLarge(
                    name: fileName, size: sourceSize, limit: FileChunking.maxFileSize)
            }
            size = sourceSize
            digest = try source.digest()
        } catch {
            throw .file(error)
        }
        var generator = SystemRandomNumberGenerator()
        let msgId = SharedMsgID.random(using: &generator)
        let invitation = FileInvitation(
            fileName: fileName, fileSize: size, fileDigest: FileDigest(bytes: digest))
        let body = try encode(.msgNew(MsgContainer(content: content, file: invitation)), msgId: msgId)
        let agentMsgID: Int64
        do { agentMsgID = try await agent.sendMessage(connection, body: body) } catch {
            throw .agent("\(error)")
        }
        var item = try store.insertItem(
            user, contact: contact, direction: .sent, content: content, status: .sndNew, sharedMsgId: msgId,
            agentMsgID: agentMsgID)
        item.file = try store.insertFile(
            user, contact: contact, item: item, name: fileName, path: absolute, size: size, digest: digest,
            status: .sndStored)
        if let key {
            try store.setFileKey(item.file!, key)
            item.file?.fileKey = key
        }
        return item
    }

    /// Accepts a received file (`/fr id [dir/ | path]`): saved to the group's `files/` unless a
    /// directory or a path is given; an existing file there is never replaced.
    public func receiveFile(_ id: Int64, to path: String? = nil) async throws(ChatError) -> ChatFile {
        let file = try store.file(id: id, user)
        guard file.direction == .received else { throw .file(.noFile(id)) }
        return try await accept(file, contact: try filePeer(file), to: path)
    }

    /// A file by its number (`/fs id`), with how many of its chunks are done (received, or
    /// accepted by the relay).
    public func fileStatus(_ id: Int64) throws(ChatError) -> (ChatFile, chunksDone: Int) {
        let file = try store.file(id: id, user)
        if file.direction == .received { return (file, try store.rcvChunkCount(file)) }
        let (queued, unsent) = try store.sndChunkCounts(file)
        return (file, queued - unsent)
    }

    /// Saves a file's plaintext to `path` (`/fsave id path`): a received file once complete, or
    /// a sent one; a sealed file is decrypted on the way (a directory takes the file's name).
    /// Refused, with nothing written, when the destination exists or the stored file does not
    /// authenticate. Returns the path written.
    public func saveFile(_ id: Int64, to path: String) throws(ChatError) -> String {
        let file = try store.file(id: id, user)
        guard file.direction == .sent || file.status == .rcvComplete, file.filePath != nil else {
            throw .file(.notReceived(name: file.fileName, file.status))
        }
        var target = Self.absolutePath(path)
        if path.hasSuffix("/") || TransferFiles.isDirectory(target) {
            target = FileNames.unique(file.fileName, in: target, exists: TransferFiles.exists)
        }
        do { try LocalFile.save(file, to: target) } catch { throw .file(error) }
        return target
    }

    /// A file's plaintext in memory (inline images, the share helper): a sealed file decrypted
    /// and authenticated.
    public func fileContents(_ id: Int64) throws(ChatError) -> [UInt8] {
        let file = try store.file(id: id, user)
        guard file.direction == .sent || file.status == .rcvComplete else {
            throw .file(.notReceived(name: file.fileName, file.status))
        }
        do { return try LocalFile.contents(of: file) } catch { throw .file(error) }
    }

    /// Cancels sending or receiving a file (`/fc id`). The other side is told: the recipient by
    /// `x.file.cancel` (and a cancel chunk when chunks are flowing), the sender by the file's
    /// connection going away.
    public func cancelFile(_ id: Int64) async throws(ChatError) -> ChatFile {
        var file = try store.file(id: id, user)
        guard !file.status.isFinal else { throw .file(.alreadyDone(name: file.fileName, file.status)) }
        let contact = try filePeer(file)
        let fileConnection = try store.fileConnection(file)
        if file.direction == .sent {
            if let msgId = file.sharedMsgId, contact.ready, let id = contact.agentConnectionID {
                _ = try? await agent.sendMessage(id, body: try encode(.fileCancel(msgId: msgId)))
            }
            file.status = .sndCancelled
            try store.finishFile(file, .sndCancelled)
            // The cancel chunk leaves before the connection goes (deleted on its SENT).
            if let fileConnection { try await sendCancelChunk(file, connection: fileConnection) }
        } else {
            file.status = .rcvCancelled
            try store.finishFile(file, .rcvCancelled)
            TransferFiles.remove(partialPath(file))
            if let fileConnection { try? await agent.deleteConnection(fileConnection) }
        }
        return file
    }

    /// Accepts `file`: a connection for it, offered to the sender in `x.file.acpt.inv`.
    func accept(_ file: ChatFile, contact: ChatContact, to path: String?) async throws(ChatError) -> ChatFile
    {
        switch file.status {
        case .rcvInvitation: break
        case .rcvAccepted, .rcvTransfer: throw .file(.alreadyReceiving(name: file.fileName))
        default: throw .file(.alreadyDone(name: file.fileName, file.status))
        }
        guard file.fileSize <= FileChunking.maxFileSize else {
            throw .file(.tooLarge(name: file.fileName, size: file.fileSize, limit: FileChunking.maxFileSize))
        }
        guard let msgId = file.sharedMsgId else { throw .file(.noFile(file.fileId)) }
        let contactConnection = try connected(contact)
        let target = try targetPath(for: file, requested: path)
        do {
            try GroupContainer.ensurePrivateDirectory(tmpDirectory, createParents: false)
            try GroupContainer.ensurePrivateDirectory(filesDirectory, createParents: false)
        } catch {
            throw .file(.unwritable(path: tmpDirectory, reason: "\(error)"))
        }
        let fileConnection: String
        let link: ConnectionLink
        do { (fileConnection, link) = try await agent.createInvitation() } catch { throw .agent("\(error)") }
        try store.acceptFile(file, path: target, agentConnectionID: fileConnection)
        // Sealed from the first chunk: the partial file in tmp/ is never plaintext either.
        let key = encryptsLocalFiles ? LocalFileCipher.randomKey() : nil
        try store.setFileKey(file, key)
        do {
            _ = try await agent.sendMessage(
                contactConnection,
                body: try encode(
                    .fileAcptInv(msgId: msgId, fileConnReq: link.description, fileName: file.fileName)))
        } catch {
            try store.setFileStatus(file, .rcvInvitation)
            try? await agent.deleteConnection(fileConnection)
            throw .agent("\(error)")
        }
        var accepted = file
        accepted.status = .rcvAccepted
        accepted.filePath = target
        accepted.fileKey = key
        return accepted
    }

    /// Where an accepted file will be saved: `files/<name>`, `<dir>/<name>`, or the path given.
    func targetPath(for file: ChatFile, requested: String?) throws(ChatError) -> String {
        guard let requested, !requested.isEmpty else {
            return FileNames.unique(file.fileName, in: filesDirectory, exists: TransferFiles.exists)
        }
        let absolute = Self.absolutePath(requested)
        if requested.hasSuffix("/") || TransferFiles.isDirectory(absolute) {
            guard TransferFiles.isDirectory(absolute) else {
                throw .file(.unwritable(path: requested, reason: "no such directory"))
            }
            guard access(absolute, W_OK) == 0 else {
                throw .file(.unwritable(path: requested, reason: TransferFile.reason(errno)))
            }
            return FileNames.unique(file.fileName, in: absolute, exists: TransferFiles.exists)
        }
        let directory = TransferFiles.directory(of: absolute)
        guard TransferFiles.isDirectory(directory) else {
            throw .file(.unwritable(path: requested, reason: "no such directory"))
        }
        guard access(directory, W_OK) == 0 else {
            throw .file(.unwritable(path: requested, reason: TransferFile.reason(errno)))
        }
        guard !TransferFiles.exists(absolute) else { throw .file(.alreadyExists(path: requested)) }
        return absolute
    }

    /// `path` made absolute (against the current directory, `~` as the home directory) and
    /// tidied, so a transfer resumed after a restart elsewhere still finds it.
    static func absolutePath(_ path: String) -> String {
        var expanded = path
        if expanded == "~" || expanded.hasPrefix("~/"),
            let home = ProcessEnvironment.home(ProcessEnvironment.current)
        {
            expanded = home + expanded.dropFirst()
        }
        let url =
            expanded.hasPrefix("/")
            ? URL(fileURLWithPath: expanded)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(expanded)
        return url.standardizedFileURL.path
    }
}

extension ChatController {
    /// The items with the files they offered (`/tail` shows `sends file ...` for them).
    func withFiles(_ items: [ChatItem]) throws(ChatError) -> [ChatItem] {
        var result: [ChatItem] = []
        for var item in items {
            if case .file = item.content { item.file = try store.file(itemId: item.itemId) }
            result.append(item)
        }
        return result
    }
}
