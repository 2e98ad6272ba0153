internal import CSystem
import Glibc

/// A plain pthread for an event loop: Swift's cooperative threads must never block in epoll_wait.
struct LoopThread {
    private let body: () -> Void

    init(_ body: @escaping () -> Void) { self.body = body }

    /// Starts the thread detached; `name` shows in `top -H` (truncated to 15 bytes).
    func start(name: String) {
        let box = Unmanaged.passRetained(Box(body: body, name: name)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                _ = CSystem_setThreadName(String(box.name.prefix(15)))
                box.body()
                return nil
            }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }

    private final class Box {
        let body: () -> Void
        let name: String
        init(body: @escaping () -> Void, name: String) {
            self.body = body
            self.name = name
        }
    }
}
