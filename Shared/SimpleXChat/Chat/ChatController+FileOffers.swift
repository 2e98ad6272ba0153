import Foundation
import SimpleXProtocol

/// Files on the contact's own connection: offers received (and images accepted at once),
/// acceptances and cancellations; and resuming transfers at start.
extension ChatController {
    /// A file offered with a received message: stored, and accepted at once when it is an image
    /// and privacyAcceptImages is on. Returns the file and, when accepted, the accepted file.
    func fileOffered(_ invitation: FileInvitation, item: ChatItem, from contact: ChatContact)
        async throws(ChatError)
        -> (ChatFile, accepted: ChatFile?)
    {
        let name = FileNames.sanitized(invitation.fileName)
        let file = try store.insertFile(
            user, contact: contact, item: item, name: name, path: nil, size: invitation.fileSize,
            digest: invitation.fileDigest?.bytes,
            status: .rcvInvitation)
        let defaults = GroupDefaults(path: groupDirectory + "/groupDefaults.json")
        guard FileNames.isImage(name), invitation.fileSize <= FileChunking.maxFileSize,
            defaults[GroupDefaultKeys.privacyAcceptImages]
        else {
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
    func fileAccepted(msgId: SharedMsgID, link text: String?, fileName: String, from contact: ChatContact)
        async throws(ChatError)
    {
        guard let file = try store.file(contact, sharedMsgId: msgId, sent: true), file.status == .sndStored,
            try store.fileConnection(file) == nil
        else { return }  // unknown, cancelled, or this acceptance came before
        guard fileName == file.fileName, let text else {
            try store.finishFile(file, .sndError)
            let reason =
                text == nil
                ? "the recipient asked for the file inline, which this client does not send"
                : "the recipient named another file"
            emit(.file(.sndError(contact, try store.file(id: file.fileId, user), reason: reason)))
            return
        }
        do {
            let connection = try await agent.joinConnection(
                try ConnectionLink(text), connInfo: try encode(.ok))
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
        guard let file = try store.file(contact, sharedMsgId: msgId, sent: false), !file.status.isFinal else {
            return
        }
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
                let contact = try filePeer(file)
                switch file.status {
                case .rcvAccepted:
                    // Refused unless the sender's confirmation came and was not yet answered.
                    if let ok = try? encode(.ok) {
                        try? await agent.allowConnection(connection, connInfo: ok)
                    }
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
