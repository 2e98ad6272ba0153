import Foundation
@testable import SimpleXChat
import Testing

@testable import SimpleXTUI

/// Each content renderer as a user reads it in a terminal row 40 cells wide.
@Suite struct LayoutContentTests {
    @Test func metaShowsEditTimerStatusAndTime() {
        var item = Fixture.text("hi", from: Fixture.me)
        item.edited = true
        item.timedTTL = 300
        let expected: [(ChatItemStatus, String)] = [
            (.sndNew, "◷"), (.sndSent, "✓"), (.sndRcvd, "✓✓"), (.sndError, "⚠"),
        ]
        for (status, icon) in expected {
            item.status = status
            #expect(Fixture.body(item).last == row("hi", "✎ ⌛5m \(icon) 12:00", width: 40))
        }
        // No status on received items, as iOS.
        #expect(Fixture.body(Fixture.text("hi")).last == row("hi", "12:00", width: 40))
        var twelve = Fixture.settings()
        twelve.timeFormat = .twelveHour
        #expect(
            Fixture.body(Fixture.text("hi", at: 75), settings: twelve).last == row("hi", "1:15 pm", width: 40)
        )
    }

    @Test func quotesShowTheirSenderAndAtMostThreeLines() {
        var item = Fixture.text("ok")
        item.quote = .init(senderName: "you", text: "one\ntwo\nthree\nfour")
        #expect(
            Fixture.body(item) == [
                " alice", "", " ▌ you", " ▌ one", " ▌ two", " ▌ three…", "", row("ok", "12:00", width: 40),
            ])
    }

    @Test func forwardedItemsHaveAHeaderAndNoGapBelowIt() {
        var item = Fixture.text("news")
        item.forwarded = true
        #expect(Fixture.body(item) == [" alice", " ↪ forwarded", row("news", "12:00", width: 40)])
    }

    @Test func emojiOnlyMessagesHaveNoDecoration() {
        #expect(EmojiText.isShortEmoji("👍"))
        #expect(EmojiText.isShortEmoji("👩‍👩‍👧 ❤️"))
        #expect(!EmojiText.isShortEmoji("👍 ok"))
        #expect(!EmojiText.isShortEmoji("😀😀😀😀😀😀"))
        #expect(!EmojiText.isShortEmoji("12"))
        var quoted = Fixture.text("👍")
        quoted.quote = .init(senderName: nil, text: "lunch?")
        #expect(Fixture.body(quoted) == [" alice", "", " ▌ lunch?", "", row("👍", "12:00", width: 40)])
    }

    @Test func deletedItemsAreCards() {
        var deleted = Fixture.text("secret plans")
        deleted.deletion = .deleted
        #expect(Fixture.body(deleted) == [" alice", "", row(" message deleted ", "12:00", width: 40)])
        deleted.deletion = .markedDeleted
        #expect(Fixture.body(deleted) == [" alice", "", row(" [marked deleted] ", "12:00", width: 40)])
    }

    @Test func imagesAreABoxTheMediaViewDrawsInto() throws {
        var item = Fixture.item(.image(.init("a cat")))
        item.mediaCells = CellSize(columns: 16, rows: 3)
        let laid = ChatViewLayout.layout(
            for: item, older: nil, width: 40, settings: Fixture.settings(), state: .plain, now: Fixture.now)
        let media = try #require(laid.media)
        #expect(media == MediaPlacement(line: 3, column: 1, size: CellSize(columns: 16, rows: 3)))
        #expect(
            laid.lines.map(\.text) == [
                centre("Today", 40), " alice", "", " " + String(repeating: " ", count: 16),
                "   [image 16x3]  ",
                " " + String(repeating: " ", count: 16), "", row("a cat", "12:00", width: 40),
            ])
        // The box never overflows a narrow row.
        item.mediaCells = CellSize(columns: 60, rows: 2)
        let narrow = ChatViewLayout.layout(
            for: item, older: nil, width: 20, settings: Fixture.settings(), state: .plain, now: Fixture.now)
        #expect(narrow.media?.size == CellSize(columns: 18, rows: 2))
    }

    @Test func videoAndVoiceShowTheirDuration() {
        var video = Fixture.item(.video(.init(""), duration: 65))
        video.mediaCells = CellSize(columns: 16, rows: 2)
        #expect(
            Fixture.body(video).suffix(2) == [
                "   [video 16x2]  ", row("     ▶ 1:05     ", "12:00", width: 40),
            ])
        #expect(
            Fixture.body(Fixture.item(.voice(.init(""), duration: 3725))).last
                == row(" ▶ voice message 1:02:05 ", "12:00", width: 40))
    }

    @Test func filesShowNameSizeAndProgress() {
        var item = Fixture.item(.file(.init("")))
        item.file = .init(name: "report.pdf", size: 2 << 20, status: .rcvTransfer, progressBytes: 1 << 20)
        let lines = Fixture.body(item)
        #expect(lines[2] == "  📄 report.pdf" + String(repeating: " ", count: 24))
        #expect(lines[3] == "  ██████░░░░░░ 50% · 1.0 MiB / 2.0 MiB ")
        #expect(lines.last?.hasSuffix("12:00") == true)
        item.file?.status = .rcvInvitation
        #expect(Fixture.body(item)[3].hasPrefix("  2.0 MiB · not received"))
    }

    @Test func linkPreviewsAreCardsAboveTheText() {
        let preview = LinkPreview(
            uri: "https://simplex.chat/blog", title: "SimpleX", description: "Private messaging", image: "")
        let item = Fixture.item(.link(.init("look https://simplex.chat/blog"), preview))
        #expect(
            Fixture.body(item, width: 60) == [
                " alice", "", "  SimpleX           ", "  Private messaging ", "  simplex.chat      ", "",
                row("look https://simplex.chat/blog", "12:00", width: 60),
            ])
    }

    @Test func reportsCallsAndInvalidData() {
        let report = Fixture.item(.report(.init("buy now"), reason: .spam))
        #expect(Fixture.body(report) == [" alice", " ⚑ Spam", row("buy now", "12:00", width: 40)])
        let call = ChatViewItem.call(
            .init(video: false, status: .missed), id: 4, at: Fixture.noon, sender: Fixture.alice)
        #expect(Fixture.body(call) == [" alice", row("📞 missed call", "12:00", width: 40)])
        let ended = ChatViewItem.call(
            .init(video: true, status: .ended(duration: 133)), id: 5, at: Fixture.noon, sender: Fixture.me)
        #expect(Fixture.body(ended).last == row("📹 call ended · 2:13", "12:00", width: 40))
        #expect(
            Fixture.body(Fixture.item(.invalid("bad json"))) == [
                " alice", "", row(" invalid data ", "12:00", width: 40),
            ])
        let feature = ChatViewItem.event(
            .feature(name: "Voice messages", state: "enabled"), id: 6, at: Fixture.noon)
        #expect(Fixture.body(feature) == [row("Voice messages: enabled", "12:00", width: 40)])
    }

    @Test func itemsFromTheStoreBecomeRows() {
        let stored = ChatItem(
            itemId: 7, contactId: 3, direction: .received, content: .text("hi"), status: .rcvNew,
            timestamp: Fixture.noon,
            edited: true, deleted: false, forwarded: false, sharedMsgId: nil,
            quote: ChatItemQuote(sharedMsgId: nil, sentByUser: true, content: .voice(text: "", duration: 12)),
            reactions: [
                .init(emoji: "👍", byUser: false), .init(emoji: "👍", byUser: true),
                .init(emoji: "🎉", byUser: false),
            ])
        let item = ChatViewItem(stored, contactName: "carol", userName: "bob")
        #expect(item.sender == .contact(3, name: "carol"))
        #expect(item.status == nil)
        #expect(item.quote?.senderName == "you")
        #expect(item.quote?.text.source == "voice message (00:12)")
        #expect(
            item.reactions == [
                .init(emoji: "👍", count: 2, byUser: true), .init(emoji: "🎉", count: 1, byUser: false),
            ])
        var gone = stored
        gone.content = .placeholder(type: "contactDeleted", text: "deleted contact")
        let event = ChatViewItem(gone, contactName: "carol", userName: "bob")
        #expect(event.sender == nil)
        #expect(event.content == .event(.contactDeleted))
        gone.content = .placeholder(type: "invalid", text: "invalid message: x")
        gone.deleted = true
        let invalid = ChatViewItem(gone, contactName: "carol", userName: "bob")
        #expect(invalid.content == .invalid("invalid message: x"))
        #expect(invalid.deletion == .markedDeleted)
    }

    /// The core's event items (ChatItemEvent) as rows: no sender and no status, errors as cards,
    /// the rest as event lines in the TUI's words (iOS's for integrity errors).
    @Test func theCoresEventItemsBecomeEventRows() {
        func stored(_ event: ChatItemEvent) -> ChatViewItem {
            let item = ChatItem(
                itemId: 8, contactId: 3, direction: event.direction, content: event.content,
                status: event.direction == .sent ? .sndSent : .rcvNew, timestamp: Fixture.noon, edited: false,
                deleted: false, forwarded: false, sharedMsgId: nil, quote: nil, reactions: [])
            return ChatViewItem(item, contactName: "carol", userName: "bob")
        }
        let gap = stored(.rcvIntegrityError(.msgSkipped(from: 2, to: 4)))
        #expect(gap.sender == nil && gap.status == nil && gap.content == .event(.messagesSkipped(3)))
        #expect(Fixture.body(gap) == [row(" 3 skipped message(s) ", "12:00", width: 40)])
        #expect(stored(.rcvIntegrityError(.msgBadHash)).content == .event(.messageError("bad message hash")))
        let decryption = stored(.rcvDecryptionError(.ratchetEarlier, count: 2))
        #expect(Fixture.body(decryption) == [row(" decryption error, 2 messages ", "12:00", width: 40)])

        let voice = stored(.rcvChatFeature(.voice, PrefEnabled(forUser: false, forContact: false), param: nil))
        #expect(Fixture.body(voice) == [row("Voice messages: off", "12:00", width: 40)])
        let timer = stored(.sndChatFeature(.timedMessages, PrefEnabled(forUser: true, forContact: true), param: 86_400))
        #expect(timer.sender == nil && timer.status == nil)
        #expect(Fixture.body(timer, width: 60) == [row("Disappearing messages: enabled (1 day)", "12:00", width: 60)])
        let offer = stored(.rcvChatPreference(.timedMessages, .yes, param: 3_600))
        #expect(offer.content == .event(.preference(name: "Disappearing messages", value: "offered 1 hour")))
        let note = stored(.rcvDirectE2EEInfo)
        #expect(note.content == .event(.connection(ChatItemEvent.rcvDirectE2EEInfo.text)))
        #expect(Fixture.body(note, width: 60).first?.hasPrefix(" This conversation is protected by") == true)
    }
}
