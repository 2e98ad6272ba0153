import Foundation
import SimpleXProtocol

/// The file transfers themselves: the events of files' own connections, chunks out and in,
/// and resuming after a restart.
///
/// Resuming: a chunk is recorded once it is handed to the agent (whose send queue persists it),
/// and once it is written to the partial file in `tmp/` before its message is acknowledged. After
/// a restart the sender hands over the chunks not yet recorded, the agent delivers what was
/// waiting, and the relay delivers again what was not acknowledged; a chunk that comes twice is
/// written at its place again and counted once. The SHA-512 digest checked at the end catches
/// whatever went wrong in between: a mismatch deletes the file and says so.
extension ChatController {
    /// Events of a file's own connection; false when `event` is not about one.
    func handleFileEvent(_ event: AgentEvent) async throws(ChatError) -> Bool {
        guard let id = event.fileConnectionID, let file = try store.file(agentConnectionID: id) else { return false }
        let contact = try store.contact(id: file.contactId)
        switch event {
        case .confirmation:
            // The sender joined the connection we offered for the file.
            guard file.status == .rcvAccepted else { break }
            do { try await agent.allowConnection(id, connInfo: try encode(.ok)) } catch { throw .agent("\(error)") }
        case .connected:
            if file.status == .rcvAccepted {
                try store.setFileStatus(file, .rcvTransfer)
                emit(.file(.rcvStarted(contact, try store.file(id: file.fileId, user))))
            } else if file.status == .sndStored {
                try store.setFileStatus(file, .sndTransfer)
                let sending = try store.file(id: file.fileId, user)
                emit(.file(.sndStarted(contact, sending)))
                try await sendChunks(sending, contact: contact, connection: id)
            }
        case .message(_, let message):
            var finished = false
            if file.direction == .received, file.status == .rcvTransfer || file.status == .rcvAccepted {
                finished = try await receiveChunk(message.body, file: file, contact: contact)
            }
            // No receipts on a file's connection: the transfer's own completion says it all.
            try? await agent.ackMessage(id, agentMsgID: message.agentMsgID)
            if finished { try? await agent.deleteConnection(id) }
        case .sent(_, let agentMsgID):
            if file.status.isFinal {
                // A cancel chunk went out: nothing more to send on this connection.
                if file.status != .sndComplete { try? await agent.deleteConnection(id) }
            } else if file.status == .sndTransfer, try store.markSndChunkSent(file, agentMsgID: agentMsgID) {
                try await chunkSent(file, contact: contact, connection: id)
            }
        case .sendFailed(_, _, let reason):
            guard file.direction == .sent, !file.status.isFinal else { break }
            // AUTH: the recipient deleted the connection, which is how it cancels.
            let cancelled = reason.hasSuffix("AUTH")
            try store.finishFile(file, cancelled ? .sndCancelled : .sndError)
            let failed = try store.file(id: file.fileId, user)
            emit(.file(cancelled ? .sndCancelledByRecipient(contact, failed) : .sndError(contact, failed, reason: reason)))
            try? await agent.deleteConnection(id)
        case .info, .delivered, .receiveFailed, .subscriptionEnded, .contactRequest, .relayDown, .relayUp:
            break
        }
        return true
    }

    /// Hands the next chunks to the agent, up to `FileChunking.sendWindow` not yet with the relay.
    func sendChunks(_ file: ChatFile, contact: ChatContact, connection: String) async throws(ChatError) {
        let chunking = file.chunking
        let (queued, unsent) = try store.sndChunkCounts(file)
        guard let next = chunking.nextChunks(queued: queued, unsent: unsent) else { return }
        let source: TransferFile
        do throws(ChatFileError) {
            let (opened, size) = try TransferFile.openForReading(file.filePath ?? "")
            guard size == file.fileSize else { throw ChatFileError.changedWhileSending(path: file.filePath ?? "") }
            source = opened
        } catch {
            return try await failSending(file, contact: contact, connection: connection, error)
        }
        for number in next {
            let bytes: [UInt8]
            do throws(ChatFileError) {
                bytes = try source.read(at: chunking.offset(of: number), count: chunking.length(of: number))
                guard bytes.count == chunking.length(of: number) else { throw ChatFileError.changedWhileSending(path: source.path) }
            } catch {
                return try await failSending(file, contact: contact, connection: connection, error)
            }
            let agentMsgID: Int64
            do {
                agentMsgID = try await agent.sendMessage(connection, body: try FileChunk.chunk(number: UInt32(number), bytes: bytes).encoded())
            } catch {
                throw .agent("\(error)")
            }
            try store.insertSndChunk(file, number: number, agentMsgID: agentMsgID)
        }
    }

    /// The relay accepted a chunk: done when it was the last, else progress and the next chunks.
    private func chunkSent(_ file: ChatFile, contact: ChatContact, connection: String) async throws(ChatError) {
        let chunking = file.chunking
        let (queued, unsent) = try store.sndChunkCounts(file)
        let sent = queued - unsent
        if sent >= chunking.chunkCount {
            try store.finishFile(file, .sndComplete)
            emit(.file(.sndComplete(contact, try store.file(id: file.fileId, user))))
            // Every chunk waits on the recipient's relay; our side of the connection is done.
            try? await agent.deleteConnection(connection)
            return
        }
        if let percent = chunking.progress(from: sent - 1, to: sent) { emit(.file(.sndProgress(contact, file, percent: percent))) }
        try await sendChunks(file, contact: contact, connection: connection)
    }

    /// Stops sending: the recipient gets a cancel chunk (the connection goes once it is sent).
    private func failSending(_ file: ChatFile, contact: ChatContact, connection: String, _ error: ChatFileError) async throws(ChatError) {
        try store.finishFile(file, .sndError)
        emit(.file(.sndError(contact, try store.file(id: file.fileId, user), reason: error.description)))
        do { _ = try await agent.sendMessage(connection, body: try FileChunk.cancel.encoded()) } catch {
            try? await agent.deleteConnection(connection)
        }
    }

    /// Writes a received chunk in place and records it; true when the transfer is over (complete,
    /// failed or cancelled) and its connection can go.
    private func receiveChunk(_ body: [UInt8], file: ChatFile, contact: ChatContact) async throws(ChatError) -> Bool {
        let chunking = file.chunking
        let number: Int
        let bytes: [UInt8]
        do {
            switch try FileChunk(decoding: body) {
            case .cancel:
                try store.finishFile(file, .rcvCancelled)
                TransferFiles.remove(partialPath(file))
                emit(.file(.rcvCancelledBySender(contact, try store.file(id: file.fileId, user))))
                return true
            case .chunk(let n, let data):
                (number, bytes) = (Int(n), data)
            }
        } catch let error as ChatError {
            throw error
        } catch {
            return try failReceiving(file, contact: contact, .invalidChunk("\(error)"))
        }
        let before = try store.rcvChunkCount(file)
        do {
            _ = try chunking.validate(number: UInt32(number), byteCount: bytes.count)
            try TransferFile.openPartial(partialPath(file)).write(bytes, at: chunking.offset(of: number))
        } catch {
            return try failReceiving(file, contact: contact, error)
        }
        let after = try store.insertRcvChunk(file, number: number) ? before + 1 : before
        if after >= chunking.chunkCount { return try completeReceiving(file, contact: contact) }
        if let percent = chunking.progress(from: before, to: after) { emit(.file(.rcvProgress(contact, file, percent: percent))) }
        return false
    }

    /// Every chunk is in: check the size and digest, then move the file to where it was to be
    /// saved (another name when that one was taken meanwhile) and say it is complete.
    private func completeReceiving(_ file: ChatFile, contact: ChatContact) throws(ChatError) -> Bool {
        let partial = partialPath(file)
        let target = file.filePath ?? FileNames.unique(file.fileName, in: filesDirectory, exists: TransferFiles.exists)
        if !TransferFiles.exists(partial), TransferFiles.exists(target), (try? matches(file, at: target)) == true {
            // Moved into place just before a restart, the status not yet written.
            return try finishReceiving(file, contact: contact, at: target)
        }
        var path = target
        do {
            let assembled = try TransferFile.openPartial(partial)
            try assembled.truncate(to: file.fileSize)
            guard try matches(file, in: assembled) else { throw ChatFileError.digestMismatch }
            try assembled.sync()
            while true {
                try store.setFilePath(file, path)
                if try TransferFiles.move(partial, to: path) { break }
                path = FileNames.unique(
                    FileNames.sanitized(path), in: TransferFiles.directory(of: path), exists: TransferFiles.exists)
            }
        } catch let error as ChatError {
            throw error
        } catch let error as ChatFileError {
            return try failReceiving(file, contact: contact, error)
        } catch {
            return try failReceiving(file, contact: contact, .invalidChunk("\(error)"))
        }
        return try finishReceiving(file, contact: contact, at: path)
    }

    private func finishReceiving(_ file: ChatFile, contact: ChatContact, at path: String) throws(ChatError) -> Bool {
        try store.setFilePath(file, path)
        try store.finishFile(file, .rcvComplete)
        emit(.file(.rcvComplete(contact, try store.file(id: file.fileId, user))))
        return true
    }

    /// Whether the file has the offered size and (when given) digest.
    private func matches(_ file: ChatFile, in opened: TransferFile) throws(ChatFileError) -> Bool {
        guard let digest = file.digest else { return true }
        return try opened.digest() == digest
    }

    private func matches(_ file: ChatFile, at path: String) throws(ChatFileError) -> Bool {
        let (opened, size) = try TransferFile.openForReading(path)
        guard size == file.fileSize else { return false }
        return try matches(file, in: opened)
    }

    /// The transfer failed: nothing is kept, and the user is told why.
    private func failReceiving(_ file: ChatFile, contact: ChatContact, _ error: ChatFileError) throws(ChatError) -> Bool {
        TransferFiles.remove(partialPath(file))
        try store.finishFile(file, .rcvError)
        emit(.file(.rcvError(contact, try store.file(id: file.fileId, user), reason: error.description)))
        return true
    }

    // MARK: - Offers and acceptances on the contact's connection

    /// A file offered with a received message: stored, and accepted at once when it is an image
    /// and privacyAcceptImages is on. Returns the file and, when accepted, the accepted file.
    func fileOffered(_ invitation: FileInvitation, item: ChatItem, from contact: ChatContact) async throws(ChatError)
        -> (ChatFile, accepted: ChatFile?)
    {
        let name = FileNames.sanitized(invitation.fileName)
        let file = try store.insertFile(
            user, contact: contact, item: item, name: name, path: nil, size: invitation.fileSize, digest: invitation.fileDigest?.bytes,
            status: .rcvInvitation)
        let defaults = GroupDefaults(path: groupDirectory + "/groupDefaults.json")
        guard FileNames.isImage(name), invitation.fileSize <= FileChunking.maxFileSize, defaults[GroupDefaultKeys.privacyAcceptImages] else {
            return (file, nil)
        }
        do {
            let accepted = try await accept(file, contact: contact, to: nil)
            return (accepted, accepted)
        } catch {
            emit(.error("cannot receive \(name) automatically: \(error)"))
            return (file, nil)
        }
    }

    /// The recipient accepted a file we offered (`x.file.acpt.inv`): join the connection it gave.
    func fileAccepted(msgId: SharedMsgID, link text: String?, fileName: String, from contact: ChatContact) async throws(ChatError) {
        guard let file = try store.file(contact, sharedMsgId: msgId, sent: true), file.status == .sndStored,
            try store.fileConnection(file) == nil
        else { return }  // unknown, cancelled, or this acceptance came before
        guard fileName == file.fileName, let text else {
            try store.finishFile(file, .sndError)
            let reason = text == nil ? "the recipient asked for the file inline, which this client does not send" : "the recipient named another file"
            emit(.file(.sndError(contact, try store.file(id: file.fileId, user), reason: reason)))
            return
        }
        do {
            let connection = try await agent.joinConnection(try ConnectionLink(text), connInfo: try encode(.ok))
            try store.setFileConnection(file, connection)
        } catch let error as ChatError {
            throw error
        } catch {
            try store.finishFile(file, .sndError)
            emit(.file(.sndError(contact, try store.file(id: file.fileId, user), reason: "\(error)")))
        }
    }

    /// The sender cancelled a file it offered (`x.file.cancel`).
    func fileCancelled(msgId: SharedMsgID, from contact: ChatContact) async throws(ChatError) {
        guard let file = try store.file(contact, sharedMsgId: msgId, sent: false), !file.status.isFinal else { return }
        let connection = try store.fileConnection(file)
        try store.finishFile(file, .rcvCancelled)
        TransferFiles.remove(partialPath(file))
        emit(.file(.rcvCancelledBySender(contact, try store.file(id: file.fileId, user))))
        if let connection { try? await agent.deleteConnection(connection) }
    }

    /// At start: transfers continue where they stopped. Agent events other than messages are
    /// not delivered again after a crash, so what they would have done is done here when it is
    /// still due: allowing the sender's connection, starting to send, chunks whose SENT was lost.
    func resumeFileTransfers() async {
        do {
            for file in try store.unfinishedFiles(user) {
                guard let connection = try store.fileConnection(file) else { continue }
                let contact = try store.contact(id: file.contactId)
                switch file.status {
                case .rcvAccepted:
                    // Refused unless the sender's confirmation came and was not yet answered.
                    if let ok = try? encode(.ok) { try? await agent.allowConnection(connection, connInfo: ok) }
                case .sndStored:
                    // Connected before the crash when a message can go on the connection now.
                    guard (try? await agent.isConnected(connection)) == true else { continue }
                    _ = try await handleFileEvent(.connected(connection: connection))
                case .sndTransfer:
                    try store.forgetUnsentChunks(file)
                    try await sendChunks(file, contact: contact, connection: connection)
                default:
                    break
                }
            }
        } catch {
            emit(.error("resuming file transfers: \(error)"))
        }
    }
}

extension AgentEvent {
    /// The connection an event is about, for the events a file's connection can have.
    fileprivate var fileConnectionID: AgentConnectionID? {
        switch self {
        case .confirmation(let id, _), .info(let id, _), .connected(let id), .message(let id, _), .sent(let id, _),
            .delivered(let id, _, _), .sendFailed(let id, _, _), .receiveFailed(let id, _), .subscriptionEnded(let id):
            id
        case .contactRequest, .relayDown, .relayUp:
            nil
        }
    }
}
