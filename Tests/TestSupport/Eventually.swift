/// Polls `condition` until it holds or `timeout` passes; the result says which.
public func eventually(timeout: Duration = .seconds(20), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// Polls an asynchronous `condition` (a bus call, a file) until it holds or `timeout` passes,
/// every `interval` (longer for a condition that starts a process, such as the notification
/// server mock's helper: a python each time, which on a loaded machine starves other tests).
public func eventually(
    timeout: Duration = .seconds(20), every interval: Duration = .milliseconds(5), _ condition: () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return await condition()
}
