import Foundation
import SimpleXChat

/// File lines, in the SimpleX CLI's words (`src/Simplex/Chat/View.hs`: `receivedFileInvitation_`,
/// `viewSentFileInvitation`, `savingFile'`, `receivingFile_'`, `sendingFile_`, `viewFileTransferStatus`).
extension CLIView {
    /// `file 1 (photo.jpg)`.
    static func transfer(_ file: ChatFile) -> String { "file \(file.fileId) (\(file.fileName))" }

    /// A file item: `12:01 /f @bob ./photo.jpg` sent, `12:01 alice> sends file photo.jpg (1.2 KiB / 1234 bytes)` received.
    func fileItem(_ item: ChatItem, file: ChatFile, contact: ChatContact) -> [String] {
        let time = self.time(item.timestamp)
        var lines: [String] = []
        if !item.text.isEmpty {
            var text = item
            text.file = nil
            lines = self.item(text, contact: contact)
        }
        if item.direction == .sent {
            lines.append("\(time) /f @\(contact.viewName) \(file.filePath ?? file.fileName)")
            if !file.status.isFinal && file.status != .sndTransfer {
                lines.append("use /fc \(file.fileId) to cancel sending")
            }
        } else {
            let size = "\(FileChunking.readableSize(file.fileSize)) / \(file.fileSize) bytes"
            lines.append("\(time) \(contact.viewName)> sends file \(file.fileName) (\(size))")
            if file.status == .rcvInvitation {
                lines.append("use /fr \(file.fileId) [<dir>/ | <path>] to receive it")
            }
        }
        return lines
    }

    /// `saving file 1 from alice to /home/me/.local/share/simplex/files/photo.jpg`.
    func fileAccepted(_ file: ChatFile, contact: ChatContact) -> [String] {
        ["saving file \(file.fileId) from \(contact.viewName) to \(file.filePath ?? file.fileName)"]
    }

    /// What `/fc` prints.
    func fileCancelled(_ file: ChatFile, contact: ChatContact) -> [String] {
        file.direction == .sent
            ? ["cancelled sending \(Self.transfer(file)) to \(contact.viewName)"]
            : ["cancelled receiving \(Self.transfer(file)) from \(contact.viewName)"]
    }

    /// What `/fs` prints.
    func fileStatus(_ file: ChatFile, chunksDone: Int, contact: ChatContact) -> [String] {
        let percent = min(100, chunksDone * 100 / file.chunking.chunkCount)
        let transfer = Self.transfer(file)
        switch file.status {
        case .sndStored: return ["sending \(transfer) not accepted: \(contact.viewName)"]
        case .sndTransfer: return ["sending \(transfer) in progress (\(percent)%): \(contact.viewName)"]
        case .sndComplete: return ["sending \(transfer) complete: \(contact.viewName)"]
        case .sndCancelled: return ["sending \(transfer) cancelled: \(contact.viewName)"]
        case .sndError: return ["sending \(transfer) error: \(contact.viewName)"]
        case .rcvInvitation:
            return ["receiving \(transfer) not accepted yet, use /fr \(file.fileId) to receive file"]
        case .rcvAccepted: return ["receiving \(transfer) just started"]
        case .rcvTransfer:
            return [
                "receiving \(transfer) progress \(percent)% of \(FileChunking.readableSize(file.fileSize))"
            ]
        case .rcvComplete: return ["receiving \(transfer) complete, path: \(file.filePath ?? "")"]
        case .rcvCancelled: return ["receiving \(transfer) cancelled"]
        case .rcvError: return ["receiving \(transfer) error"]
        }
    }

    /// What the line mode prints as a transfer goes on.
    func fileEvent(_ event: ChatFileEvent) -> [String] {
        switch event {
        case .rcvAccepted(let contact, let file):
            return fileAccepted(file, contact: contact)
        case .rcvStarted(let contact, let file):
            return ["started receiving \(Self.transfer(file)) from \(contact.viewName)"]
        case .rcvProgress(_, let file, let percent):
            return [
                "receiving \(Self.transfer(file)) progress \(percent)% of \(FileChunking.readableSize(file.fileSize))"
            ]
        case .rcvComplete(let contact, let file):
            return ["completed receiving \(Self.transfer(file)) from \(contact.viewName)"]
        case .rcvError(let contact, let file, let reason):
            return ["error receiving \(Self.transfer(file)) from \(contact.viewName)", reason]
        case .rcvCancelledBySender(let contact, let file):
            return ["\(contact.viewName) cancelled sending \(Self.transfer(file))"]
        case .sndStarted(let contact, let file):
            return ["started sending \(Self.transfer(file)) to \(contact.viewName)"]
        case .sndProgress(let contact, let file, let percent):
            return ["sending \(Self.transfer(file)) in progress (\(percent)%): \(contact.viewName)"]
        case .sndComplete(let contact, let file):
            return ["completed sending \(Self.transfer(file)) to \(contact.viewName)"]
        case .sndError(let contact, let file, let reason):
            return ["error sending \(Self.transfer(file)) to \(contact.viewName)", reason]
        case .sndCancelledByRecipient(let contact, let file):
            return ["\(contact.viewName) cancelled receiving \(Self.transfer(file))"]
        }
    }
}
