// `simplex-test-peer notify`: drives a NotificationPresenter from stdin, one result line per command,
// so tests can run the presenter in a process whose session bus is the test's private bus.
//
//   show {DesktopNotification JSON}        -> shown <id>
//   replace <id> {DesktopNotification JSON} -> replaced <id>
//   close <id>                              -> close-ok <id>
//   caps                                    -> caps <capability> ...
// failures: error <noServer|timedOut|failed|usage> <message>; events as they arrive:
//   action <id> <actionID>, closed <id> <reason>
import Foundation
import SimpleXDesktop
import Synchronization

private let usage = "usage: simplex-test-peer notify [--app-name NAME] [--timeout-ms N] < commands"

func runNotifyPeer(_ arguments: [String]) async throws -> Int32 {
    var appName = "simplex-test-peer"
    var timeout = Duration.seconds(3)
    var rest = arguments[...]
    while let option = rest.popFirst() {
        switch option {
        case "--help", "-h":
            print(usage)
            return 0
        case "--app-name" where !rest.isEmpty:
            appName = rest.removeFirst()
        case "--timeout-ms" where Int(rest.first ?? "") != nil:
            timeout = .milliseconds(Int(rest.removeFirst()) ?? 0)
        default:
            FileHandle.standardError.write(Data("\(usage)\n".utf8))
            return 64
        }
    }

    let presenter = NotificationPresenter(appName: appName, timeout: timeout)
    var handles: [UInt32: NotificationHandle] = [:]  // by server id; only the command loop uses it
    let events = Task {
        for await event in presenter.events {
            switch event {
            case .actionInvoked(let handle, let actionID, let token):
                emit("action \(handle.serverID) \(actionID)" + (token.map { " token \($0)" } ?? ""))
            case .replied(let handle, let text): emit("replied \(handle.serverID) \(text)")
            case .closed(let handle, let reason): emit("closed \(handle.serverID) \(reason)")
            }
        }
    }
    for await line in standardInputLines() {
        do {
            emit(try await perform(line, presenter, &handles))
        } catch let error as NotificationError {
            emit("error \(error.kindName) \(error.message)")
        } catch let error as PeerUsageError {
            emit("error usage \(error.message)")
        } catch {
            emit("error failed \(error)")
        }
    }
    events.cancel()
    return 0
}

private func perform(
    _ line: String, _ presenter: NotificationPresenter, _ handles: inout [UInt32: NotificationHandle]
) async throws -> String {
    let (command, argument) = split(line)
    switch command {
    case "show":
        let handle = try await presenter.show(try decode(argument))
        handles[handle.serverID] = handle
        return "shown \(handle.serverID)"
    case "replace":
        let (id, json) = split(argument)
        let old = try handle(id, handles)
        let new = try await presenter.replace(old, with: try decode(json))
        handles[new.serverID] = new
        return "replaced \(new.serverID)"
    case "close":
        let handle = try handle(argument, handles)
        try await presenter.close(handle)
        return "close-ok \(handle.serverID)"
    case "caps":
        return (["caps"] + (try await presenter.serverCapabilities())).joined(separator: " ")
    default:
        throw PeerUsageError(message: "unknown command \(command.debugDescription)")
    }
}

private struct PeerUsageError: Error {
    let message: String
}

private func split(_ text: String) -> (String, String) {
    let trimmed = text.drop(while: \.isWhitespace)
    guard let space = trimmed.firstIndex(of: " ") else { return (String(trimmed), "") }
    return (String(trimmed[..<space]), String(trimmed[trimmed.index(after: space)...]))
}

private func decode(_ json: String) throws -> DesktopNotification {
    do {
        return try JSONDecoder().decode(DesktopNotification.self, from: Data(json.utf8))
    } catch {
        throw PeerUsageError(message: "bad notification JSON: \(error)")
    }
}

private func handle(_ id: String, _ handles: [UInt32: NotificationHandle]) throws -> NotificationHandle {
    guard let serverID = UInt32(id), let handle = handles[serverID] else {
        throw PeerUsageError(message: "no notification with id \(id.debugDescription)")
    }
    return handle
}

private let output = Mutex(())

/// One line to stdout, written whole and unbuffered (results and events come from different tasks).
private func emit(_ line: String) {
    let oneLine = line.replacingOccurrences(of: "\n", with: " ")
    output.withLock { _ in FileHandle.standardOutput.write(Data((oneLine + "\n").utf8)) }
}

/// Lines of stdin, read on a plain thread so no cooperative thread blocks in read(2).
private func standardInputLines() -> AsyncStream<String> {
    let (lines, continuation) = AsyncStream<String>.makeStream()
    let reader = Thread {
        while let line = readLine(strippingNewline: true) { continuation.yield(line) }
        continuation.finish()
    }
    reader.start()
    return lines
}
