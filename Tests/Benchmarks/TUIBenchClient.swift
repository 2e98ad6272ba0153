// The full-screen client's loop in this process, for the TUI figures (TUIBench.swift): the model,
// the view, the renderer and the effects on a real ChatController, as AppRuntime wires them,
// without a terminal (the frames go to /dev/null).
import Foundation
import Glibc
import SimpleXChat
import SimpleXTUI
import Synchronization

/// Events the effects reported, waiting for the loop (AppRuntime's inbox), each with the time it
/// was posted.
final class TUIBenchInbox: Sendable {
    private let events = Mutex<[(AppEvent, ContinuousClock.Instant)]>([])
    private let wakeContinuation: AsyncStream<Void>.Continuation
    let wake: AsyncStream<Void>

    init() {
        (wake, wakeContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func post(_ event: AppEvent) {
        let now = ContinuousClock.now
        events.withLock { $0.append((event, now)) }
        wakeContinuation.yield()
    }

    func takeAll() -> [(AppEvent, ContinuousClock.Instant)] {
        events.withLock { events in
            defer { events.removeAll(keepingCapacity: true) }
            return events
        }
    }

    func finish() { wakeContinuation.finish() }
}

/// One client: its model, view (with the layout cache), renderer and effects.
final class TUIBenchClient {
    var model: AppModel
    let view = AppView()
    var renderer = Renderer(colors: .truecolor)
    let effects: AppEffects
    let inbox = TUIBenchInbox()
    let chat: ChatController
    private let sink: Int32

    /// A client at `width` × `height` over `chat`, its chat list loaded.
    init(chat: ChatController, groupDirectory: String, user: ChatUser, width: Int, height: Int) async {
        self.chat = chat
        model = AppModel(width: width, height: height, now: Date(), user: user)
        let inbox = inbox
        effects = AppEffects(
            chat: chat, groupDirectory: groupDirectory, environment: [:], chatRead: { _ in },
            report: { inbox.post($0) })
        sink = Glibc.open("/dev/null", O_WRONLY | O_CLOEXEC)
        await serve(.loadChatList)
        await settle()
        _ = frame()
    }

    deinit { Glibc.close(sink) }

    /// A client with `contactId`'s chat open (at its first unread item, as a user opens it) and
    /// drawn once.
    static func opened(
        _ contactId: Int64, chat: ChatController, groupDirectory: String, user: ChatUser, width: Int = 200,
        height: Int = 60
    ) async -> TUIBenchClient {
        let client = await TUIBenchClient(
            chat: chat, groupDirectory: groupDirectory, user: user, width: width, height: height)
        for effect in client.model.update(.openRequested("@\(contactId)")) { await client.serve(effect) }
        await client.settle()
        _ = await client.frameServingLoads()
        precondition(client.model.chat?.items.isEmpty == false, "the chat did not open")
        return client
    }

    /// Runs an effect as the runtime would, awaiting it; the terminal's own effects are no-ops here.
    func serve(_ effect: AppEffect) async {
        if Self.runsInCore(effect) { await effects.run(effect) }
    }

    /// Whether the effect goes to the core's worker (the rest are the terminal's, no-ops here).
    static func runsInCore(_ effect: AppEffect) -> Bool {
        switch effect {
        case .quit, .suspend, .copy, .openEditor, .createProfile, .saveDraft: false
        default: true
        }
    }

    /// Applies what the effects reported, serving the effects that leads to, until nothing is left.
    func settle() async {
        while true {
            let batch = inbox.takeAll()
            if batch.isEmpty { return }
            for (event, _) in batch {
                for effect in model.update(event) { await serve(effect) }
            }
        }
    }

    /// Draws, renders and writes one frame (AppRuntime.draw): the bytes written, the page the
    /// view asked for as it neared the end of the window, and whether it shows that end (so the
    /// user waits for the page).
    func frame() -> (bytes: Int, load: AppEffect?, waits: Bool) {
        let screen = view.draw(&model)
        let load = model.pageRequest(screen)
        let frame = Frame(
            width: model.width, height: model.height, lines: screen.lines,
            cursor: screen.cursor.map { ScreenPosition(row: $0.row, column: $0.column) })
        let bytes = renderer.render(frame)
        if !bytes.isEmpty {
            _ = bytes.withUnsafeBytes { Glibc.write(sink, $0.baseAddress, $0.count) }
        }
        return (bytes.count, load, screen.reachedEnd)
    }

    /// A frame, and while the view asks for a page: the page loaded (the real query), applied and
    /// drawn again. Returns the bytes of every frame and how many pages were loaded.
    func frameServingLoads() async -> (bytes: Int, pages: Int) {
        let drawn = await frameAhead(servingAhead: true)
        return (drawn.bytes, drawn.pages)
    }

    /// A frame as the user waits for it: a page the view needs because it shows the window's
    /// end is loaded, applied and drawn again (all of that is waited for); a page asked for
    /// ahead of that is returned unserved (`servingAhead` false): in the client it runs on the
    /// core's worker and arrives between keystrokes.
    func frameAhead(servingAhead: Bool) async -> (bytes: Int, pages: Int, ahead: AppEffect?) {
        var (bytes, load, waits) = frame()
        var pages = 0
        while let effect = load {
            guard waits || servingAhead else { return (bytes, pages, effect) }
            await serve(effect)
            await settle()
            pages += 1
            let next = frame()
            bytes += next.bytes
            (load, waits) = (next.load, next.waits)
        }
        return (bytes, pages, nil)
    }
}

/// Resident memory of this process, from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// A process's proportional set size (shared pages divided among their users), from
/// /proc/<pid>/smaps_rollup; nil when it cannot be read.
func proportionalBytes(pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else {
        return nil
    }
    for line in text.split(separator: "\n") where line.hasPrefix("Pss:") {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return kilobytes.map { $0 * 1024 }
    }
    return nil
}

/// "12.3 MB".
func megabytes(_ bytes: Int) -> String { format(Double(bytes) / 1_000_000, 1) + " MB" }

/// "0.42 ms" / "980 µs".
func milliseconds(_ seconds: Double) -> String {
    seconds >= 0.001 ? format(seconds * 1000, 2) + " ms" : grouped(seconds * 1e6) + " µs"
}

/// p50, p99 and the maximum of a set of durations in seconds.
struct TUILatencies {
    let p50: Double
    let p99: Double
    let max: Double
    let count: Int

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        p50 = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        max = sorted.last ?? 0
    }

    var text: String { "p50 \(milliseconds(p50)), p99 \(milliseconds(p99)), max \(milliseconds(max))" }
}
