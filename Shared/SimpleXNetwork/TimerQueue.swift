/// A loop's timers: a binary min-heap on (deadline, id), with lazy cancellation.
struct TimerQueue {
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let id: UInt64
        static func < (a: Entry, b: Entry) -> Bool { (a.deadline, a.id) < (b.deadline, b.id) }
    }

    private var heap: [Entry] = []
    /// Live timers; a cancelled one leaves its heap entry behind, skipped when it comes up.
    private var bodies: [UInt64: () -> Void] = [:]

    var isEmpty: Bool { bodies.isEmpty }

    mutating func add(id: UInt64, deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) {
        bodies[id] = body
        heap.append(Entry(deadline: deadline, id: id))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func cancel(id: UInt64) {
        bodies[id] = nil
        // Without this a loop that keeps cancelling would grow the heap forever.
        if heap.count > 64 && heap.count > 2 * bodies.count { compact() }
    }

    /// Milliseconds until the earliest deadline (rounded up), or -1 when there is no timer.
    mutating func timeoutMS(now: ContinuousClock.Instant) -> Int32 {
        while let first = heap.first, bodies[first.id] == nil { popFirst() }
        guard let first = heap.first else { return -1 }
        let left = now.duration(to: first.deadline)
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// Removes and returns the earliest live timer due at `now`. The caller runs it outside this
    /// mutation, since a timer body may add or cancel timers.
    mutating func popDue(now: ContinuousClock.Instant) -> (() -> Void)? {
        while let first = heap.first, first.deadline <= now {
            popFirst()
            if let body = bodies.removeValue(forKey: first.id) { return body }
        }
        return nil
    }

    private mutating func popFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left] < heap[smallest] { smallest = left }
            if right < heap.count && heap[right] < heap[smallest] { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    private mutating func compact() {
        let live = heap.filter { bodies[$0.id] != nil }
        heap = []
        for entry in live.sorted(by: <) { heap.append(entry) }  // a sorted array is a valid heap
    }
}
