// The full-screen client (issue 23): cold start of the real binary in a pty, keystroke to frame,
// scrolling back, search, bytes per change, memory, and keystrokes under a flood of messages,
// over the reading benchmark's million-item database (ChatDatabaseBuilder).
import CSQLite
import Foundation
import Glibc
import SimpleXChat
import SimpleXCrypto
import SimpleXDesktop
import SimpleXProtocol
import SimpleXTUI
import TestSupport

func tuiBenchmarkLines() async throws -> [String] {
    // SIMPLEX_BENCH_CHAT_DIR keeps the database between runs (as the chat section does); the
    // TUI's key file and settings go in a directory beside it.
    let kept = ProcessInfo.processInfo.environment["SIMPLEX_BENCH_CHAT_DIR"]
    let base =
        try kept.map { path -> String in
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return path
        } ?? RelayBench.temporaryDirectory("tui")
    defer { if kept == nil { try? FileManager.default.removeItem(atPath: base) } }
    let group = base
    let config = base + "/tui-bench-config"
    try FileManager.default.createDirectory(
        atPath: config, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let clock = ContinuousClock()
    let buildStart = clock.now
    let path = group + "/simplex_v1_chat.db"
    let reused = kept != nil && FileManager.default.fileExists(atPath: path)
    let built =
        try reused
        ? ChatDatabaseBuilder.existing(in: group)
        : ChatDatabaseBuilder.build(in: group, contacts: 1_000, items: 1_000_000)
    var lines = [
        "database: \(grouped(Double(built.items))) items in \(grouped(Double(built.contactIds.count))) chats, "
            + "the long one \(grouped(Double(built.longChatItems))) items; "
            + (reused
                ? "reused (SIMPLEX_BENCH_CHAT_DIR)"
                : "built in \(format((clock.now - buildStart).seconds, 1)) s")
    ]

    // The relay the client is configured with, and the agent key in the keychain's key file (no
    // session bus), as the client finds them.
    let relay = try await RelayProcess()
    try ChatController.setServers(groupDirectory: group, [try SMPServerAddress(relay.address)])
    var environment = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "HOME": config, "SIMPLEX_GROUP_DIR": group, "XDG_CONFIG_HOME": config, "TERM": "xterm-256color",
        "COLORTERM": "truecolor", "TZ": "UTC", "LANG": "C.UTF-8",
    ]
    if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] {
        environment["XDG_RUNTIME_DIR"] = runtime
    }
    let container = try GroupContainer.open(environment: environment)
    let keychain = try await DesktopKeychain.open(container: container, bus: nil, environment: environment)
    let secrets = try AgentSecrets.load(from: keychain)
    // The databases are encrypted (by the client's first start, or here) under the keychain's key.
    let databaseKey = try DatabaseKey.load(from: keychain)

    // SIMPLEX_BENCH_ONLY=tui-cold, tui-keys, tui-scroll, tui-search or tui-flood runs one part.
    func part(_ name: String) -> Bool { runs("tui") || runs("tui-" + name) }
    if part("cold") { lines += try coldStartLines(environment: environment) }

    let openStart = clock.now
    let chat = try await ChatController.open(groupDirectory: group, secrets: secrets, databaseKey: databaseKey)
    let opened = clock.now - openStart
    let user = await chat.user
    let listStart = clock.now
    let effects = AppEffects(
        chat: chat, groupDirectory: group, environment: [:], chatRead: { _ in }, report: { _ in })
    let entries = await effects.chatList()
    let listed = clock.now - listStart
    lines.append(
        "  in this process: ChatController.open \(milliseconds(opened.seconds)), the chat list "
            + "(AppEffects.chatList, \(entries.count) entries) \(milliseconds(listed.seconds))")
    let long = built.contactIds[0]
    let bench = TUIBenchContext(
        chat: chat, group: group, databaseKey: databaseKey, user: user, long: long, contacts: built.contactIds)
    if part("keys") { lines += try await bench.keystrokeLines() }
    if part("scroll") { lines += try await bench.scrollLines() }
    if part("search") { lines += try await bench.searchLines() }
    if part("flood") { lines += try await bench.floodLines() }
    await chat.stop()
    _ = try? await relay.stop()
    return lines

    func coldStartLines(environment: [String: String]) throws -> [String] {
        let binary = try BuiltProducts.path("simplex-chat")
        // The first start makes the agent's database and warms the page cache: not counted.
        _ = try TUITerminalRun.coldStart(
            binary: binary, environment: environment, width: 200, height: 60, marker: "contact")
        var starts: [TUIColdStart] = []
        for _ in 0..<5 {
            starts.append(
                try TUITerminalRun.coldStart(
                    binary: binary, environment: environment, width: 200, height: 60, marker: "contact"))
        }
        let sorted = starts.sorted { $0.completeFrame < $1.completeFrame }
        let median = sorted[sorted.count / 2]
        let all = starts.map { format($0.completeFrame.seconds * 1000, 0) }.joined(separator: ", ")
        let pss = median.pssAtFrame.map(megabytes) ?? "unreadable"
        let settled = median.pssSettled.map(megabytes) ?? "unreadable"
        return [
            "cold start to the first complete frame (simplex-chat in a 200×60 pty, no session bus, relay on loopback, "
                + "to the end of the first synchronized update with the chat list on it): median "
                + "\(format(median.completeFrame.seconds * 1000, 0)) ms of \(all) ms (goal ≤ 150 ms); "
                + "its first update (empty list) at \(format(median.firstUpdate.seconds * 1000, 0)) ms; "
                + "\(grouped(Double(median.bytes))) bytes written by then; exit after Ctrl+Q \(median.exitStatus)",
            "client memory (PSS, smaps_rollup) with the database open: \(pss) at the first complete frame, "
                + "\(settled) a second later (goal ≤ 40 MB)",
        ]
    }
}

/// What the in-process figures share: the open core, the user, the long chat.
struct TUIBenchContext {
    let chat: ChatController
    let group: String
    let databaseKey: DatabaseKey
    let user: ChatUser
    let long: Int64
    let contacts: [Int64]

    func client(width: Int = 200, height: Int = 60) async -> TUIBenchClient {
        await TUIBenchClient.opened(
            long, chat: chat, groupDirectory: group, user: user, width: width, height: height)
    }

    /// Typed text: the builder's words, `count` characters.
    static func typed(_ count: Int) -> [Character] {
        var text = ""
        var index = 0
        while text.count < count {
            text += ChatDatabaseBuilder.words[index % ChatDatabaseBuilder.words.count] + " "
            index += 7
        }
        return Array(text.prefix(count))
    }

    /// Keystroke to frame written, and the bytes of one-line changes.
    func keystrokeLines() async throws -> [String] {
        let client = await client()
        let clock = ContinuousClock()
        var samples: [Double] = []
        var bytes: [Int] = []
        var effectCount = 0
        for character in Self.typed(1_000) {
            let start = clock.now
            let effects = client.model.update(.key(.character(character)))
            effectCount += effects.count
            for effect in effects { await client.serve(effect) }
            let frame = client.frame()
            samples.append((clock.now - start).seconds)
            bytes.append(frame.bytes)
        }
        let typing = TUILatencies(samples)
        let sortedBytes = bytes.sorted()
        var lines = [
            "keystroke to frame written at 200×60, the 500,000-item chat open, 1,000 characters typed "
                + "(update + AppView.draw + Frame + Renderer.render + write): \(typing.text) (goal p99 ≤ 5 ms)"
                + (effectCount > 0 ? "; \(effectCount) effects asked" : "")
        ]
        // One-line changes on a fresh screen.
        let fresh = await self.client()
        _ = fresh.model.update(.key(.character("h")))
        let typedOne = fresh.frame().bytes
        guard let chatState = fresh.model.chat,
            var sent = chatState.items.last(where: { $0.direction == .sent })
        else {
            return lines + ["(no sent item in the window for the status figure)"]
        }
        sent.status = sent.status == .sndRcvd ? .sndSent : .sndRcvd
        for effect in fresh.model.update(.core(.itemStatus(chatState.contact, sent))) {
            await fresh.serve(effect)
        }
        await fresh.settle()
        let status = await fresh.frameServingLoads().bytes
        // An item from far back stands in for one arriving: a new id, real content.
        let arriving = try await chat.chatItems(contactId: long, .before(id: sent.itemId / 2, count: 1)).first
        var received = 0
        if let arriving {
            for effect in fresh.model.update(.core(.newItem(chatState.contact, arriving))) {
                await fresh.serve(effect)
            }
            await fresh.settle()
            received = await fresh.frameServingLoads().bytes
        }
        lines.append(
            "bytes written for a one-line change: a typed character \(typedOne) B (over the 1,000 above: median "
                + "\(sortedBytes[sortedBytes.count / 2]) B, max \(grouped(Double(sortedBytes.last ?? 0))) B); "
                + "a delivery status on the newest sent item \(status) B (goal ≤ 200); a received message in the "
                + "open chat (the pane scrolls up, the list's preview changes) \(grouped(Double(received))) B"
        )
        return lines
    }

    /// PageUp through the long chat: each page's update, loads and draw; memory every 1,000.
    func scrollLines() async throws -> [String] {
        let client = await client()
        let clock = ContinuousClock()
        var samples: [Double] = []
        var memory: [Int] = [residentBytes()]
        // SQLite's heap (its page caches: 32 MiB for the chat store) apart, which fills as the
        // pages of older items are read and then stays.
        var sqlite: [Int] = [Int(sqlite3_memory_used())]
        var loads = 0
        let newest = client.model.chat?.items.last?.itemId ?? 0
        var slowest = (seconds: 0.0, page: 0, loads: 0)
        var oldestAfterFirst1000: Int64 = 0
        // Pages read ahead: the query on the core's worker, then the page applied and drawn (as
        // AppRuntime does when the worker reports it), both between keystrokes.
        var aheadReads: [Double] = []
        var aheadApplied: [Double] = []
        for page in 1...10_000 {
            let start = clock.now
            for effect in client.model.update(.key(.key(.pageUp))) { await client.serve(effect) }
            let drawn = await client.frameAhead(servingAhead: false)
            let seconds = (clock.now - start).seconds
            samples.append(seconds)
            if seconds > slowest.seconds { slowest = (seconds, page, drawn.pages) }
            loads += drawn.pages
            if let ahead = drawn.ahead {
                let read = clock.now
                await client.serve(ahead)
                aheadReads.append((clock.now - read).seconds)
                let applied = clock.now
                await client.settle()
                loads += await client.frameServingLoads().pages
                aheadApplied.append((clock.now - applied).seconds)
            }
            if page % 1_000 == 0 {
                memory.append(residentBytes())
                sqlite.append(Int(sqlite3_memory_used()))
            }
            if page == 1_000 { oldestAfterFirst1000 = client.model.chat?.items.first?.itemId ?? 0 }
        }
        let oldest = client.model.chat?.items.first?.itemId ?? 0
        let database = try Database(path: group + "/simplex_v1_chat.db", key: databaseKey)
        let passed =
            try database.fetchValue(
                Int.self,
                "SELECT count(*) FROM chat_items WHERE contact_id = ? AND chat_item_id BETWEEN ? AND ?",
                arguments: [long, oldest, newest]) ?? 0
        let passedIn1000 =
            try database.fetchValue(
                Int.self,
                "SELECT count(*) FROM chat_items WHERE contact_id = ? AND chat_item_id BETWEEN ? AND ?",
                arguments: [long, oldestAfterFirst1000, newest]) ?? 0
        try database.close()
        let pages = TUILatencies(samples)
        return [
            "one page scrolled back (PageUp, \(client.model.height / 2) lines) in the 500,000-item chat, 10,000 pages, "
                + "the older pages loaded with chatItems(.before) as the view asks (\(grouped(Double(loads))) loads, "
                + "\(grouped(Double(aheadReads.count))) of them ahead, between keystrokes): "
                + "\(pages.text) (goal p99 ≤ 5 ms); the slowest page #\(slowest.page) with \(slowest.loads) loads waited for; "
                + "the window moved back \(grouped(Double(passedIn1000))) items in the first 1,000 pages "
                + "(\(grouped(Double(1_000 * (client.model.height / 2)))) lines), \(grouped(Double(passed))) in all",
            "  pages read ahead (between keystrokes): the query on the core's worker \(TUILatencies(aheadReads).text); "
                + "the page applied and drawn \(TUILatencies(aheadApplied).text)",
            "  resident memory every 1,000 pages (from the start): "
                + memory.map(megabytes).joined(separator: ", ") + " (goal: flat); of which SQLite's heap: "
                + sqlite.map(megabytes).joined(separator: ", ") + " (the chat store's page caches: the "
                + "main one's 32 MiB, and the 1 MiB of the connection that reads the pages scrolled to); the rest: "
                + zip(memory, sqlite).map { megabytes($0 - $1) }.joined(separator: ", "),
        ]
    }

    /// Search in the long chat: the core call alone (the client's first page, and the 200 it
    /// asked for before), the full scan a search was before the word index, and through the
    /// client (the search effect, its results applied, the chat opened at the newest, the frame).
    func searchLines() async throws -> [String] {
        let clock = ContinuousClock()
        // As AppEffects asks: one more than the page says whether older results exist.
        let firstPage = ChatSearch.firstPage + 1
        func core(_ word: String, count: Int, runs: Int) async throws -> TUILatencies {
            _ = try await chat.search(word, in: "bob", count: count)
            var samples: [Double] = []
            for _ in 0..<runs {
                let start = clock.now
                _ = try await chat.search(word, in: "bob", count: count)
                samples.append((clock.now - start).seconds)
            }
            return TUILatencies(samples)
        }
        let rare = try await core("zebra", count: firstPage, runs: 20)
        let common = try await core("lunch", count: firstPage, runs: 100)
        let common200 = try await core("lunch", count: 200, runs: 50)
        // A word in about a third of all items: as the last word it is also a prefix, which FTS5
        // (without a prefix index) answers by reading all of its postings first; the store looks
        // it up whole when no longer word starts with it (ChatStore.searchQuery). With a trailing
        // space it is a whole word anyway.
        let frequent = try await core("hello", count: firstPage, runs: 50)
        let frequentWord = try await core("hello ", count: firstPage, runs: 50)
        // The full scan (LIKE over the long chat, newest first, as before the index) of the same pages.
        let database = try Database(path: group + "/simplex_v1_chat.db", key: databaseKey)
        let scanSQL = ChatSchema.Reading.page(.before, search: .scan, literalWords: 1)
        func scan(_ word: String, count: Int, runs: Int) throws -> TUILatencies {
            var samples: [Double] = []
            for _ in 0...runs {
                let start = clock.now
                _ = try database.fetchAll(
                    scanSQL, arguments: [user.userId, long, Int64.max, count, nil, nil, "%\(word)%"])
                samples.append((clock.now - start).seconds)
            }
            return TUILatencies(Array(samples.dropFirst()))
        }
        let rareScan = try scan("zebra", count: firstPage, runs: 3)
        let commonScan = try scan("lunch", count: firstPage, runs: 20)
        let common200Scan = try scan("lunch", count: 200, runs: 10)
        try database.close()
        var lines = [
            "search for a word in the 500,000-item chat (ChatController.search, the client's first page: "
                + "\(firstPage) asked, \(ChatSearch.firstPage) shown, more read as n steps on): "
                + "\"zebra\" (3 items) \(rare.text); \"lunch\" (1 item in 50) \(common.text) (goal p99 ≤ 20 ms); "
                + "\"lunch\", 200 found (as the client asked before) \(common200.text); \"hello\" (a third of all "
                + "items; the last word, a prefix, but no longer word starts with it) \(frequent.text), "
                + "\"hello \" (the whole word only) \(frequentWord.text)",
            "  beside the full scan (LIKE over the long chat, as before the index), the same pages: \"zebra\" "
                + "\(rareScan.text), ratio p50 \(format(rareScan.p50 / rare.p50, 0))×; \"lunch\" first page "
                + "\(commonScan.text), ratio \(format(commonScan.p50 / common.p50, 1))×; 200 \"lunch\" "
                + "\(common200Scan.text), ratio \(format(common200Scan.p50 / common200.p50, 1))×",
        ]
        for word in ["zebra", "lunch"] {
            for asked in [nil, 200] {
                let (timed, found) = await clientSearch(word, asking: asked)
                lines.append(
                    "  through the client, \"\(word)\"" + (asked.map { ", \($0) asked as before" } ?? "")
                        + " (Enter in the search prompt to the frame with the newest result under the cursor: "
                        + "the search, its \(found) results applied, the chat opened around the newest, the frame): "
                        + timed.text)
            }
        }
        return lines
    }

    /// Enter in the search prompt of the long chat (open at its newest) to the frame with the
    /// newest result under the cursor, 20 times; `asking` a count instead of the client's first
    /// page, as it searched before. The latencies, and how many results were loaded.
    func clientSearch(_ word: String, asking: Int?) async -> (TUILatencies, String) {
        let clock = ContinuousClock()
        let client = await client()
        var samples: [Double] = []
        var found = ""
        for _ in 0..<20 {
            for effect in client.model.update(.openRequested("@\(long)")) { await client.serve(effect) }
            await client.settle()
            _ = await client.frameServingLoads()
            client.model.focus = .compose
            for effect in client.model.update(.key(.control("f"))) { await client.serve(effect) }
            for character in word {
                for effect in client.model.update(.key(.character(character))) { await client.serve(effect) }
            }
            _ = client.frame()
            let start = clock.now
            for effect in client.model.update(.key(.key(.enter))) {
                if case .search(let contactId, let text, _, _) = effect, let asking {
                    await client.serve(.search(contactId: contactId, text: text, before: nil, count: asking))
                } else {
                    await client.serve(effect)
                }
            }
            await client.settle()
            _ = await client.frameServingLoads()
            samples.append((clock.now - start).seconds)
            found = client.model.search?.countText ?? "-"
        }
        return (TUILatencies(samples), found)
    }
}
