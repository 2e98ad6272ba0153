import Foundation
import Testing
import TestSupport

/// Each file manager's "Send with SimpleX Chat", installed as `make install` fills it in and invoked
/// as that file manager invokes it (its argument forms and environment), with names that hold
/// spaces, quotes, a newline and non-ASCII letters; the chat is chosen in a stand-in zenity.
@Suite(.timeLimit(.minutes(3)))
struct FileManagerEntryTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Services/ShareService").standardized.path

    static func installed(_ name: String) throws -> String {
        try String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)
            .replacingOccurrences(of: "@BINDIR@", with: BuiltProducts.directory)
    }

    static func value(_ key: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("\(key)=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    static let names = ["with space.txt", "quote's \"double\".txt", "new\nline.txt", "ünïcødé.txt"]

    @Test func theOpenWithDesktopFileIsValid() async throws {
        let tmp = try TemporaryDirectory("share-desktop")
        let file = tmp.appending("simplex-share.desktop")
        try Self.installed("simplex-share.desktop").write(toFile: file, atomically: true, encoding: .utf8)
        let validate = try ChildProcess("/usr/bin/desktop-file-validate", [file])
        #expect(try await validate.wait() == 0, "\(validate.allOutput)")
        #expect(validate.allOutput.isEmpty && validate.allErrors.isEmpty, "\(validate.allOutput)")
        #expect(Self.value("Exec", in: try Self.installed("simplex-share.desktop")) == "\(BuiltProducts.directory)/simplex-share %F")
        // Dolphin's service menu too (KIO reads its MimeType and Actions whatever its Type).
        let menu = tmp.appending("servicemenu.desktop")
        let installed = try Self.installed("file-managers/dolphin-servicemenu.desktop")
        try installed.write(toFile: menu, atomically: true, encoding: .utf8)
        let menuCheck = try ChildProcess("/usr/bin/desktop-file-validate", [menu])
        #expect(try await menuCheck.wait() == 0, "\(menuCheck.allOutput)")
        #expect(menuCheck.allOutput.isEmpty && menuCheck.allErrors.isEmpty, "\(menuCheck.allOutput)")
        let execs = installed.split(separator: "\n").filter { $0.hasPrefix("Exec=") }
        #expect(execs.count == 2 && Set(execs).count == 1, "the menu's action runs what its entry says: \(execs)")
        #expect(Self.value("MimeType", in: installed) == "application/octet-stream;")
        #expect(Self.value("Actions", in: installed) == "sendWithSimpleX;")
    }

    @Test func everyFileManagerEntryPassesTheSelectionIntact() async throws {
        let users = try await ShareEndToEndTests.Users()
        let selection = try TemporaryDirectory("selection")
        let paths = try Self.names.map { name -> String in
            let path = selection.appending(name)
            try "contents of \(name)".write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let bin = try TemporaryDirectory("dialog-bin")
        try "#!/bin/sh\necho @1\n".write(toFile: bin.appending("zenity"), atomically: true, encoding: .utf8)
        chmod(bin.appending("zenity"), 0o755)
        var environment = CLIUser.environment(users.alice, bus: users.bus)
        environment["PATH"] = bin.path
        // Bob accepts none of the files: each share waits 300 ms for him rather than 5 s.
        environment["SIMPLEX_SHARE_ACCEPT_WAIT_MS"] = "300"
        let share = try BuiltProducts.path("simplex-share")

        // Each entry's invocation: (what, program, arguments, extra environment).
        var invocations: [(String, String, [String], [String: String?])] = []
        // GIO and KIO expand %F to one argument per file.
        invocations.append(("Open With", share, paths, [:]))
        let dolphin = try #require(Self.value("Exec", in: try Self.installed("file-managers/dolphin-servicemenu.desktop")))
        #expect(dolphin == "\(share) -- %F")
        invocations.append(("Dolphin", share, ["--"] + paths, [:]))
        let nemo = try #require(Self.value("Exec", in: try Self.installed("file-managers/simplex-share.nemo_action")))
        #expect(nemo == "\(share) -- %F")
        invocations.append(("Nemo", share, ["--"] + paths, [:]))
        // Nautilus: the script runs in the folder with the names as arguments, and the paths in
        // NAUTILUS_SCRIPT_SELECTED_FILE_PATHS.
        let script = selection.appending("nautilus-script")
        try Self.installed("file-managers/nautilus-script").write(toFile: script, atomically: true, encoding: .utf8)
        invocations.append(
            ("Nautilus", "/bin/sh", ["-c", #"cd "$0" && script="$1" && shift && exec /bin/sh "$script" "$@""#, selection.path, script] + Self.names,
             ["NAUTILUS_SCRIPT_SELECTED_FILE_PATHS": paths.joined(separator: "\n") + "\n"]))
        // Thunar: its uca.xml (with an action of the user's), the command run by /bin/sh with each
        // path shell-quoted in place of %F.
        let uca = selection.appending("uca.xml")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <actions><action><name>Open Terminal Here</name><unique-id>1-users-own</unique-id><command>xterm</command></action></actions>
            """.write(toFile: uca, atomically: true, encoding: .utf8)
        let helper = "\(Self.folder)/file-managers/thunar-uca.py"
        let install = try ChildProcess("/usr/bin/python3", [helper, "install", uca, BuiltProducts.directory])
        #expect(try await install.wait() == 0, "\(install.allErrors)")
        let xml = try String(contentsOfFile: uca, encoding: .utf8)
        #expect(xml.contains("1-users-own") && xml.contains("simplex-share-1"))
        let command = try #require(xml.firstMatch(of: /<command>([^<]*simplex-share[^<]*)<\/command>/)).1
        #expect(command == "\(share) -- %F")
        let quoted = paths.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        invocations.append(("Thunar", "/bin/sh", ["-c", String(command).replacingOccurrences(of: "%F", with: quoted)], [:]))

        var offered = 0
        for (what, program, arguments, extra) in invocations {
            let process = try ChildProcess(program, arguments, environment: environment.merging(extra) { $1 })
            process.closeInput()
            #expect(try await process.wait() == 0, "\(what): \(process.allErrors)")
            #expect(process.allOutput.last == "sent 4 items to bob (the files go when bob accepts)", "\(what): \(process.allOutput)")
            offered += 4
            #expect(
                await eventually { users.bob.process.allOutput.filter { $0.contains("alice> sends file") }.count == offered },
                "\(what)")
        }
        // The names arrived whole (a newline, which a file name shown in a chat cannot hold, as a space).
        let lines = users.bob.process.allOutput.filter { $0.contains("alice> sends file") }
        for name in ["with space.txt", "quote's \"double\".txt", "ünïcødé.txt"] {
            #expect(lines.filter { $0.contains(name) }.count == invocations.count, "\(name): \(lines)")
        }

        // Removing ours leaves the user's action.
        let remove = try ChildProcess("/usr/bin/python3", [helper, "remove", uca])
        #expect(try await remove.wait() == 0)
        let after = try String(contentsOfFile: uca, encoding: .utf8)
        #expect(after.contains("1-users-own") && !after.contains("simplex-share"))
        try await users.bob.quit()
    }
}
