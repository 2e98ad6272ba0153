import Testing

@testable import SimpleXChat
@testable import SimpleXShareService

/// The progress a standalone share shows, from the core's file events, without a terminal.
@Suite struct ShareProgressTests {
    let bob = ChatContact(
        contactId: 1, localDisplayName: "bob", profile: Profile(displayName: "bob", fullName: ""),
        localAlias: "",
        agentConnectionID: "c1",
        ready: true)

    func file(_ id: Int64, _ name: String, size: Int64, direction: ChatItemDirection = .sent) -> ChatFile {
        ChatFile(
            fileId: id, contactId: 1, itemId: id, sharedMsgId: nil, direction: direction, fileName: name,
            fileSize: size,
            filePath: nil, status: .sndStored, digest: nil, chunkSize: FileChunking.smpChunkSize)
    }

    /// `apply` outside `#expect`, which cannot take a mutating call.
    func applied(_ progress: inout ShareProgress, _ event: ChatFileEvent) -> Bool { progress.apply(event) }

    @Test func itWaitsForTheAcceptanceThenCountsTheBytesHandedOverByTenths() {
        let photo = file(7, "photo.bin", size: 5 * 1_048_576)
        var progress = ShareProgress(contactName: "bob", files: [photo])
        #expect(!progress.isAccepted && !progress.isFinished)
        #expect(progress.terminalLine(width: 100) == "waiting for bob to accept photo.bin (5.0 MiB)…")
        #expect(progress.notification.body == "photo.bin: waiting for bob to accept")
        #expect(progress.notification.progress == 0)

        #expect(applied(&progress, .sndStarted(bob, photo)))
        #expect(applied(&progress, .sndProgress(bob, photo, percent: 40)))
        #expect(progress.percent == 40 && progress.handedOver == 2 * 1_048_576)
        #expect(
            progress.terminalLine(width: 80)
                == "[################------------------------]  40% 2.0 MiB of 5.0 MiB to bob")
        #expect(progress.notification.progress == 40)
        #expect(progress.notification.body == "photo.bin: 40% (2.0 MiB of 5.0 MiB)")
        // A late event never moves the bar back.
        #expect(applied(&progress, .sndProgress(bob, photo, percent: 30)))
        #expect(progress.percent == 40)

        progress.slow = true
        #expect(progress.terminalLine(width: 200).hasSuffix("to bob  Slow network?"))
        #expect(progress.notification.body == "photo.bin: 40% (2.0 MiB of 5.0 MiB)\nSlow network?")

        #expect(applied(&progress, .sndComplete(bob, photo)))
        #expect(progress.isFinished && progress.percent == 100 && progress.failures.isEmpty)
    }

    @Test func severalFilesAreWeighedBySizeAndAFailureIsKept() {
        let small = file(1, "a.txt", size: 1_000)
        let large = file(2, "b.bin", size: 3_000)
        var progress = ShareProgress(contactName: "bob", files: [small, large])
        #expect(applied(&progress, .sndComplete(bob, small)))
        #expect(progress.percent == 25 && !progress.isFinished)
        #expect(progress.notification.body.hasPrefix("2 files: 25%"))
        #expect(applied(&progress, .sndCancelledByRecipient(bob, large)))
        #expect(progress.isFinished)
        #expect(progress.failures.map { $0.name } == ["b.bin"])
        #expect(progress.failures.first?.reason == "bob cancelled it")
    }

    @Test func otherFilesAndReceivedFilesAreIgnored() {
        var progress = ShareProgress(contactName: "bob", files: [file(1, "a.txt", size: 10)])
        #expect(!applied(&progress, .sndComplete(bob, file(9, "other.txt", size: 10))))
        #expect(!applied(&progress, .rcvComplete(bob, file(1, "a.txt", size: 10, direction: .received))))
        #expect(!progress.isAccepted)
    }

    @Test func aNarrowTerminalGetsALineThatFits() {
        let photo = file(7, "a rather long name of a holiday photo album.bin", size: 1_048_576)
        var progress = ShareProgress(contactName: "bob", files: [photo])
        #expect(progress.terminalLine(width: 30).count == 30)
        _ = applied(&progress, .sndProgress(bob, photo, percent: 90))
        let line = progress.terminalLine(width: 40)
        #expect(line.count <= 40 && line.hasPrefix("[#########-]"), "\(line)")
    }
}
