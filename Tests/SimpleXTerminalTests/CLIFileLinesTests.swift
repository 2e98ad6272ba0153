import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTerminal

/// The line mode's file commands and the lines it prints for files, against SimpleX's CLI
/// (`View.hs`): pure functions, no processes.
@Suite struct CLIFileLinesTests {
    let view = CLIView(
        timeZone: TimeZone(identifier: "UTC")!, now: { Date(timeIntervalSince1970: 1_800_000_000) })
    let alice = ChatContact(
        contactId: 1, localDisplayName: "alice", profile: Profile(displayName: "alice", fullName: ""),
        localAlias: "",
        agentConnectionID: "c", ready: true)

    func file(_ direction: ChatItemDirection, _ status: ChatFileStatus, path: String? = nil) -> ChatFile {
        ChatFile(
            fileId: 1, contactId: 1, itemId: 5, sharedMsgId: nil, direction: direction, fileName: "photo.jpg",
            fileSize: 139_737,
            filePath: path, status: status, digest: nil, chunkSize: FileChunking.smpChunkSize)
    }

    func item(_ direction: ChatItemDirection, _ file: ChatFile) -> ChatItem {
        ChatItem(
            itemId: 5, contactId: 1, direction: direction, content: .file(""), status: .rcvNew,
            timestamp: Date(timeIntervalSince1970: 1_800_000_000), edited: false, deleted: false,
            forwarded: false, sharedMsgId: nil,
            quote: nil, reactions: [], file: file)
    }

    @Test func fileCommandsParse() throws {
        #expect(
            try CLICommand.parse("/f @bob ./my photo.jpg") == .sendFile(to: "bob", path: "./my photo.jpg"))
        #expect(
            try CLICommand.parse("/file @'bob smith' /tmp/a") == .sendFile(to: "bob smith", path: "/tmp/a"))
        #expect(try CLICommand.parse("/fr 1") == .receiveFile(id: 1, path: nil))
        #expect(try CLICommand.parse("/fr 12 ~/Downloads/") == .receiveFile(id: 12, path: "~/Downloads/"))
        #expect(try CLICommand.parse("/fc 3") == .cancelFile(id: 3))
        #expect(try CLICommand.parse("/fs 3") == .fileStatus(id: 3))
        #expect(throws: CLIParseError("usage: /f @<name> <path>")) { try CLICommand.parse("/f @bob") }
        #expect(throws: CLIParseError("usage: /f @<name> <path>")) {
            try CLICommand.parse("/f bob photo.jpg")
        }
        #expect(throws: CLIParseError("usage: /fr <file id> [<dir>/ | <path>]")) {
            try CLICommand.parse("/fr photo.jpg")
        }
    }

    @Test func anOfferPrintsAsSimplexPrintsIt() {
        #expect(
            view.item(item(.received, file(.received, .rcvInvitation)), contact: alice) == [
                "08:00 alice> sends file photo.jpg (136.5 KiB / 139737 bytes)",
                "use /fr 1 [<dir>/ | <path>] to receive it",
            ])
        // Accepted (an image received at once): no hint to accept it.
        #expect(view.item(item(.received, file(.received, .rcvAccepted)), contact: alice).count == 1)
        #expect(
            view.item(item(.sent, file(.sent, .sndStored, path: "/home/me/photo.jpg")), contact: alice) == [
                "08:00 /f @alice /home/me/photo.jpg", "use /fc 1 to cancel sending",
            ])
    }

    @Test func transfersPrintAsSimplexPrintsThem() {
        let received = file(.received, .rcvTransfer, path: "/g/files/photo.jpg")
        #expect(
            view.fileAccepted(received, contact: alice) == ["saving file 1 from alice to /g/files/photo.jpg"])
        #expect(
            view.event(.file(.rcvStarted(alice, received))) == [
                "started receiving file 1 (photo.jpg) from alice"
            ])
        #expect(
            view.event(.file(.rcvProgress(alice, received, percent: 40))) == [
                "receiving file 1 (photo.jpg) progress 40% of 136.5 KiB"
            ])
        #expect(
            view.event(.file(.rcvComplete(alice, received))) == [
                "completed receiving file 1 (photo.jpg) from alice"
            ])
        #expect(
            view.event(.file(.rcvError(alice, received, reason: "why"))) == [
                "error receiving file 1 (photo.jpg) from alice", "why",
            ])
        #expect(
            view.event(.file(.rcvCancelledBySender(alice, received))) == [
                "alice cancelled sending file 1 (photo.jpg)"
            ])
        let sent = file(.sent, .sndTransfer)
        #expect(
            view.event(.file(.sndStarted(alice, sent))) == ["started sending file 1 (photo.jpg) to alice"])
        #expect(
            view.event(.file(.sndComplete(alice, sent))) == ["completed sending file 1 (photo.jpg) to alice"])
        #expect(
            view.event(.file(.sndCancelledByRecipient(alice, sent))) == [
                "alice cancelled receiving file 1 (photo.jpg)"
            ])
        #expect(view.fileCancelled(sent, contact: alice) == ["cancelled sending file 1 (photo.jpg) to alice"])
        #expect(
            view.fileStatus(sent, chunksDone: 5, contact: alice) == [
                "sending file 1 (photo.jpg) in progress (55%): alice"
            ])
    }

    @Test func theChatListNamesAFileThatHasNoText() {
        let sent = item(.sent, file(.sent, .sndComplete, path: "/tmp/photo.jpg"))
        #expect(
            view.chats([ChatPreview(contact: alice, lastItem: sent, unreadCount: 0)]) == ["@alice: you: file photo.jpg"])
        var captioned = item(.received, file(.received, .rcvInvitation))
        captioned.content = .file("the holiday")
        #expect(
            view.chats([ChatPreview(contact: alice, lastItem: captioned, unreadCount: 1)]) == [
                "@alice (1 unread): the holiday"
            ])
    }
}
