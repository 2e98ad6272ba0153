// Keystrokes while 2,000 messages a second arrive in the open chat, with AppRuntime's loop: every
// pending event applied, one frame drawn for the batch, the effects run by one worker on the core.
import Foundation
import SimpleXChat
import SimpleXTUI
import Synchronization

/// Effects asked and run during the flood, by kind.
private final class FloodCounters: Sendable {
    let asked = Mutex<[String: Int]>([:])
    let queued = Mutex<[String: Int]>([:])
    let done = Mutex<[String: Int]>([:])

    static func kind(_ effect: AppEffect) -> String {
        switch effect {
        case .loadChatList: "loadChatList"
        case .markRead: "markRead"
        case .loadOlder, .loadNewer: "page"
        default: "other"
        }
    }

    func text() -> String {
        let asked = asked.withLock { $0 }
        let queued = queued.withLock { $0 }
        let done = done.withLock { $0 }
        return asked.keys.sorted().map {
            "\($0) \(grouped(Double(asked[$0] ?? 0))) asked, \(grouped(Double(queued[$0] ?? 0))) queued, "
                + "\(grouped(Double(done[$0] ?? 0))) run"
        }
        .joined(separator: "; ")
    }
}

extension TUIBenchContext {
    static let floodRate = 2_000
    static let floodSeconds = 5
    /// A keystroke every 10 ms while the messages arrive.
    static let floodKeysPerSecond = 100

    func floodLines() async throws -> [String] {
        let client = await client()
        guard let contact = client.model.chat?.contact, let oldest = client.model.chat?.items.first?.itemId
        else {
            return ["(the chat did not open for the flood figure)"]
        }
        // What arrives: real items from the middle of the long chat, ids new to the window.
        var pages: [[ChatItem]] = []
        var before = oldest / 2
        let wanted = Self.floodRate * Self.floodSeconds
        while pages.reduce(0, { $0 + $1.count }) < wanted {
            let page = try await chat.chatItems(contactId: long, .before(id: before, count: 500))
            guard let first = page.first else { break }
            pages.append(page)
            before = first.itemId
        }
        let arriving = Array(pages.reversed().joined().prefix(wanted))
        let typed = Self.typed(1_000)
        let inbox = client.inbox
        let effects = client.effects
        let counters = FloodCounters()
        let stopped = Atomic<Bool>(false)
        // AppRuntime's queue: a reload asked while one waits is not queued again.
        let queue = CoreEffectQueue()
        let worker = Task {
            await queue.run { effect in
                if stopped.load(ordering: .relaxed) { return }
                await effects.run(effect)
                counters.done.withLock { $0[FloodCounters.kind(effect), default: 0] += 1 }
            }
        }
        let sentinel = "flood-done"
        // On a thread of its own, as the terminal's reader and the core's events come: tasks on
        // the 2-thread cooperative pool would wait behind the loop and the worker.
        let produced = Atomic<Bool>(false)
        Thread.detachNewThread {
            let clock = ContinuousClock()
            let start = clock.now
            var posted = 0
            var keys = 0
            while posted < arriving.count {
                let elapsed = (clock.now - start).seconds
                let due = min(arriving.count, Int(elapsed * Double(Self.floodRate)))
                while posted < due {
                    inbox.post(.core(.newItem(contact, arriving[posted])))
                    posted += 1
                }
                while keys < Int(elapsed * Double(Self.floodKeysPerSecond)) {
                    inbox.post(.key(.character(typed[keys % typed.count])))
                    keys += 1
                }
                usleep(500)
            }
            inbox.post(.notice(sentinel))
            produced.store(true, ordering: .releasing)
        }

        let clock = ContinuousClock()
        var keyLatencies: [Double] = []
        var frameTimes: [Double] = []
        var applied = 0
        var iterator = inbox.wake.makeAsyncIterator()
        var done = false
        while !done, await iterator.next() != nil {
            let batch = inbox.takeAll()
            let start = clock.now
            var asked: [AppEffect] = []
            for (event, _) in batch {
                if case .notice(let text) = event, text == sentinel { done = true }
                if case .core(.newItem) = event { applied += 1 }
                asked += client.model.update(event)
            }
            let (_, load, _) = client.frame()
            let end = clock.now
            for effect in asked + (load.map { [$0] } ?? []) where TUIBenchClient.runsInCore(effect) {
                counters.asked.withLock { $0[FloodCounters.kind(effect), default: 0] += 1 }
                if queue.enqueue(effect) {
                    counters.queued.withLock { $0[FloodCounters.kind(effect), default: 0] += 1 }
                }
            }
            frameTimes.append((end - start).seconds)
            for (event, posted) in batch {
                if case .key = event { keyLatencies.append((end - posted).seconds) }
            }
        }
        precondition(produced.load(ordering: .acquiring))
        let report = counters.text()
        stopped.store(true, ordering: .relaxed)
        queue.finish()
        await worker.value
        let keysTimed = TUILatencies(keyLatencies)
        let frames = TUILatencies(frameTimes)
        return [
            "keystroke to frame while \(grouped(Double(Self.floodRate))) messages a second arrive in the open chat "
                + "(\(Self.floodSeconds) s, a key every \(1_000 / Self.floodKeysPerSecond) ms; each batch of events "
                + "applied, one frame, effects on one worker as AppRuntime runs them): \(keysTimed.text) over "
                + "\(keysTimed.count) keys (goal p99 ≤ 20 ms); frame (batch applied + draw + render) \(frames.text) "
                + "over \(grouped(Double(frames.count))) frames for \(grouped(Double(applied))) messages (goal: none over 50 ms)",
            "  effects the flood asked of the core while it lasted: \(report)",
        ]
    }
}
