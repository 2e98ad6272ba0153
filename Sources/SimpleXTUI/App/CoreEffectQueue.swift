import SimpleXChat
import Synchronization

/// Effects on their way to the core's worker, in order. A chat list reload, or marking a chat
/// read, asked while the same one still waits is the same work and is not queued again: every
/// message in the open chat asks for both, and at 2,000 messages a second the worker would fall
/// ever further behind reloading a list of a thousand chats thousands of times. Once the worker
/// takes one, a new request queues again (it may have to see what changed since). A search in a
/// chat still waiting when another is asked for is superseded: its results would be dropped.
public final class CoreEffectQueue: Sendable {
    private struct Waiting {
        var chatList = false
        var markRead: Set<Int64> = []
        /// The number of the last search in a chat queued: only that one runs.
        var latestSearch = 0
    }

    private let waiting = Mutex(Waiting())
    /// Each effect with its search number (0 for the rest).
    private let stream: AsyncStream<(AppEffect, Int)>
    private let continuation: AsyncStream<(AppEffect, Int)>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: (AppEffect, Int).self)
    }

    /// Queues `effect`; false when the same one is already waiting (nothing was queued).
    @discardableResult
    public func enqueue(_ effect: AppEffect) -> Bool {
        let (fresh, search) = waiting.withLock { waiting -> (Bool, Int) in
            switch effect {
            case .loadChatList:
                defer { waiting.chatList = true }
                return (!waiting.chatList, 0)
            case .markRead(let contactId):
                return (waiting.markRead.insert(contactId).inserted, 0)
            case .search:
                waiting.latestSearch += 1
                return (true, waiting.latestSearch)
            default:
                return (true, 0)
            }
        }
        if fresh { continuation.yield((effect, search)) }
        return fresh
    }

    /// Runs `body` on each effect in order until `finish()`; an effect stops waiting as it is
    /// taken, and a superseded search is skipped.
    public func run(_ body: (AppEffect) async -> Void) async {
        for await (effect, search) in stream {
            let superseded = waiting.withLock { waiting in
                switch effect {
                case .loadChatList: waiting.chatList = false
                case .markRead(let contactId): waiting.markRead.remove(contactId)
                default: break
                }
                return search != 0 && search != waiting.latestSearch
            }
            if !superseded { await body(effect) }
        }
    }

    /// Ends `run` once the effects already queued have run.
    public func finish() { continuation.finish() }
}
