import Testing

@testable import SimpleXTUI

/// The core's effect queue merges a request with the same one still waiting, and only that.
struct CoreEffectQueueTests {
    @Test func aReloadOrAMarkReadAskedWhileTheSameWaitsIsNotQueuedAgain() async {
        let queue = CoreEffectQueue()
        #expect(queue.enqueue(.loadChatList))
        #expect(!queue.enqueue(.loadChatList))
        #expect(queue.enqueue(.markRead(contactId: 1)))
        #expect(!queue.enqueue(.markRead(contactId: 1)))
        #expect(queue.enqueue(.markRead(contactId: 2)))
        // Anything else is queued every time: two sends are two messages.
        #expect(queue.enqueue(.send(contactId: 1, text: "hi", quoting: nil)))
        #expect(queue.enqueue(.send(contactId: 1, text: "hi", quoting: nil)))
        #expect(!queue.enqueue(.loadChatList))
        queue.finish()
        var ran: [AppEffect] = []
        await queue.run { ran.append($0) }
        #expect(
            ran == [
                .loadChatList, .markRead(contactId: 1), .markRead(contactId: 2),
                .send(contactId: 1, text: "hi", quoting: nil), .send(contactId: 1, text: "hi", quoting: nil),
            ])
    }

    @Test func onceTheWorkerTakesAReloadANewRequestQueuesAgain() async {
        let queue = CoreEffectQueue()
        queue.enqueue(.loadChatList)
        var ran = 0
        await queue.run { _ in
            ran += 1
            // Asked while the first reload runs: the list may have changed since it started.
            if ran == 1 {
                #expect(queue.enqueue(.loadChatList))
                queue.finish()
            }
        }
        #expect(ran == 2)
    }
}

extension CoreEffectQueueTests {
    @Test func aSearchStillWaitingWhenAnotherIsAskedForIsNotRun() async {
        let queue = CoreEffectQueue()
        queue.enqueue(.search(contactId: 1, text: "lun", before: nil, count: 20))
        queue.enqueue(.markRead(contactId: 1))
        queue.enqueue(.search(contactId: 1, text: "lunch", before: nil, count: 20))
        queue.finish()
        var ran: [AppEffect] = []
        await queue.run { ran.append($0) }
        #expect(ran == [.markRead(contactId: 1), .search(contactId: 1, text: "lunch", before: nil, count: 20)])
    }
}
