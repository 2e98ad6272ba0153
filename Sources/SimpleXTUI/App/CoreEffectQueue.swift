import SimpleXChat
import Synchronization

/// Effects on their way to the core's worker, in order. A chat list reload, or marking a chat
/// read, asked while the same one still waits is the same work and is not queued again: every
/// message in the open chat asks for both, and at 2,000 messages a second the worker would fall
/// ever further behind reloading a list of a thousand chats thousands of times. Once the worker
/// takes one, a new request queues again (it may have to see what changed since).
public final class CoreEffectQueue: Sendable {
    private struct Waiting {
        var chatList = false
        var markRead: Set<Int64> = []
    }

    private let waiting = Mutex(Waiting())
    private let stream: AsyncStream<AppEffect>
    private let continuation: AsyncStream<AppEffect>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: AppEffect.self)
    }

    /// Queues `effect`; false when the same one is already waiting (nothing was queued).
    @discardableResult
    public func enqueue(_ effect: AppEffect) -> Bool {
        let fresh = waiting.withLock { waiting in
            switch effect {
            case .loadChatList:
                defer { waiting.chatList = true }
                return !waiting.chatList
            case .markRead(let contactId):
                return waiting.markRead.insert(contactId).inserted
            default:
                return true
            }
        }
        if fresh { continuation.yield(effect) }
        return fresh
    }

    /// Runs `body` on each effect in order until `finish()`; an effect stops waiting as it is taken.
    public func run(_ body: (AppEffect) async -> Void) async {
        for await effect in stream {
            waiting.withLock { waiting in
                switch effect {
                case .loadChatList: waiting.chatList = false
                case .markRead(let contactId): waiting.markRead.remove(contactId)
                default: break
                }
            }
            await body(effect)
        }
    }

    /// Ends `run` once the effects already queued have run.
    public func finish() { continuation.finish() }
}
