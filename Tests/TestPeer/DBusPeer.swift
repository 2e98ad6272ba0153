import Foundation
import SimpleXDesktop

/// `simplex-test-peer dbus <bus-address> serve`: a second process on a test's private bus.
///
/// Owns `chat.simplex.TestPeer` and exports, at `/chat/simplex/TestPeer`, interface
/// `chat.simplex.TestPeer1`:
/// - `Combine(s callbackName, s word) -> s`: calls `chat.simplex.TestClient1.Greeting() -> s` on
///   `callbackName` at `/chat/simplex/TestClient`, emits `Combined(s result)` and returns
///   `"<greeting> <word>"`;
/// - `Echo(...) -> (...)`: returns its arguments.
/// Prints `ready <unique name>` once serving; exits 0 when stdin closes or says `quit`.
///
/// `simplex-test-peer dbus - session`: connects with `DBusConnection.session()` and prints
/// `connected` or `error <D-Bus error name>`.
func runDBusPeer(_ arguments: [String]) async throws -> Int32 {
    if arguments == ["-", "session"] {
        do {
            _ = try await DBusConnection.session()
            FileHandle.standardOutput.write(Data("connected\n".utf8))
        } catch let error as DBusError {
            FileHandle.standardOutput.write(Data("error \(error.name)\n".utf8))
        }
        return 0
    }
    guard arguments.count == 2, arguments[1] == "serve" else {
        FileHandle.standardError.write(
            Data("usage: simplex-test-peer dbus <bus-address> serve | dbus - session\n".utf8))
        return 64
    }
    let connection = try await DBusConnection(address: arguments[0])
    let path = "/chat/simplex/TestPeer"
    let interface = "chat.simplex.TestPeer1"
    try connection.export(
        path: path, interface: interface,
        methods: [
            "Combine": { call in
                let args = try call.arguments(matching: "ss")
                let greeting = try await connection.call(
                    destination: args[0].string!, path: "/chat/simplex/TestClient",
                    interface: "chat.simplex.TestClient1", method: "Greeting", timeout: .seconds(10))
                guard let text = greeting.first?.string else {
                    throw DBusError.invalidArgs("Greeting returned \(greeting)")
                }
                let result = "\(text) \(args[1].string!)"
                try await connection.emitSignal(
                    path: path, interface: interface, name: "Combined", arguments: [.string(result)])
                return [.string(result)]
            },
            "Echo": { call in call.arguments },
        ])
    try await connection.requestName("chat.simplex.TestPeer")
    FileHandle.standardOutput.write(Data("ready \(connection.uniqueName)\n".utf8))
    await waitForQuit()
    connection.close()
    return 0
}

/// Returns when stdin reaches EOF or reads `quit`, without blocking a cooperative thread.
private func waitForQuit() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let reader = Thread {
            while let line = readLine(), line != "quit" {}
            done.resume()
        }
        reader.start()
    }
}
