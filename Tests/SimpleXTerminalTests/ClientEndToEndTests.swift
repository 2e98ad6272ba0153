import Foundation
import SimpleXChat
import Testing
import TestSupport

/// Runs the built `simplex-chat` as a user would, each test with its own group directory,
/// config directory and private session bus.
@Suite struct ClientEndToEndTests {
    let tmp: TemporaryDirectory
    let bus: TestBus

    init() async throws {
        tmp = try TemporaryDirectory("client")
        bus = try await TestBus()
    }

    var environment: [String: String?] {
        var env = bus.environment
        env["SIMPLEX_GROUP_DIR"] = tmp.appending("group")
        env["XDG_CONFIG_HOME"] = tmp.appending("config")
        env["HOME"] = tmp.path
        return env
    }

    /// Runs simplex-chat with `arguments`; returns (status, stdout lines, stderr lines).
    func client(_ arguments: [String], environment extra: [String: String?] = [:]) async throws
        -> (status: Int32, out: [String], err: [String])
    {
        var env = environment
        for (key, value) in extra { env[key] = value }
        let process = try ChildProcess(try BuiltProducts.path("simplex-chat"), arguments, environment: env)
        let status = try await process.wait()
        return (status, process.allOutput, process.allErrors)
    }

    @Test func statusOnAFreshMachineCreatesThePrivateStateAndReportsTheKeyFileFallback() async throws {
        let run = try await client(["status"])
        #expect(run.status == 0, "\(run.err)")
        let out = run.out.joined(separator: "\n")
        #expect(out.contains("group directory   \(tmp.appending("group")) (private, 0700)"))
        #expect(out.contains("session bus       connected as :1."))
        #expect(
            out.contains(
                "keychain          a key file: no Secret Service on the session bus, so the keychain's master key is "
                    + "in the key file \(tmp.appending("config"))/simplex/keychain.key (0600); 0 item(s)"))
        let migrations = ChatSchema.migrations
        #expect(
            out.contains(
                "database          simplex_v1_chat.db: \(migrations.count) migration(s) applied (\(migrations.last?.name ?? "")), WAL"
            ))
        #expect(
            out.contains(
                "notifications     unavailable: no notification server: nothing owns org.freedesktop.Notifications "
                    + "on the session bus and no D-Bus service file provides it"))
        #expect(out.contains("settings          notifications instant, previews message, layout terminal"))
        #expect(try permissions(of: tmp.appending("group")) == 0o700)
        #expect(try permissions(of: tmp.appending("group/simplex_v1_chat.db")) == 0o600)
        #expect(try permissions(of: tmp.appending("group/keychain")) == 0o600)
        #expect(try permissions(of: tmp.appending("config/simplex/keychain.key")) == 0o600)

        // A second start opens the same keychain with the same key.
        let again = try await client(["status"])
        #expect(again.status == 0)
        #expect(again.out.contains { $0.contains("the keychain's master key is in the key file") })
    }

    @Test func statusWithoutASessionBusStillWorks() async throws {
        let run = try await client(["status"], environment: ["DBUS_SESSION_BUS_ADDRESS": nil])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains { $0.hasPrefix("session bus       none (") })
        #expect(run.out.contains("notifications     no session bus, so no desktop notifications"))
        #expect(run.out.contains { $0.hasPrefix("keychain          a key file: no Secret Service") })
    }

    @Test func anInsecureGroupDirectoryIsRefusedWithTheFix() async throws {
        let group = tmp.appending("group")
        mkdir(group, 0o777)
        chmod(group, 0o777)
        let run = try await client(["status"])
        #expect(run.status == 1)
        #expect(
            run.err == [
                "simplex-chat: group directory \(group) can be read or written by other users (mode 777): "
                    + "fix it with: chmod 700 \(group)"
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: group).isEmpty)
    }

    @Test func aTamperedKeychainIsReportedAndLeftAlone() async throws {
        #expect(try await client(["status"]).status == 0)
        let path = tmp.appending("group/keychain")
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes[bytes.count - 3] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: path))
        let run = try await client(["status"])
        #expect(run.status == 1)
        #expect(
            run.out.contains(
                "keychain          error: the keychain \(path) is corrupted or was tampered with "
                    + "(authentication failed); nothing was changed"))
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    @Test func aCorruptedDatabaseIsReportedAndLeftAlone() async throws {
        let group = tmp.appending("group")
        #expect(try await client(["defaults"]).status == 0)
        let garbage = Data(repeating: 0x5A, count: 4096)
        try garbage.write(to: URL(fileURLWithPath: "\(group)/simplex_v1_chat.db"))
        let run = try await client(["status"])
        #expect(run.status == 1)
        #expect(
            run.out.contains {
                $0.hasPrefix("database          error: ") && $0.contains("file is not a database")
            })
        #expect(FileManager.default.contents(atPath: "\(group)/simplex_v1_chat.db") == garbage)
    }

    @Test func settingsAreListedChangedAndValidated() async throws {
        let set = try await client(["defaults", "set", "ntfPreviewMode", "hidden"])
        #expect(set.status == 0)
        #expect(set.out == ["ntfPreviewMode = hidden"])
        #expect(try await client(["defaults", "get", "ntfPreviewMode"]).out == ["hidden"])

        let list = try await client(["defaults"])
        #expect(list.out.contains { $0.hasPrefix("ntfPreviewMode ") && $0.hasSuffix(" hidden") })
        #expect(list.out.contains { $0.hasPrefix("chatLayout ") && $0.hasSuffix(" terminal  (default)") })
        #expect(list.out.count == GroupDefaultKeys.all.count)

        let before = FileManager.default.contents(atPath: tmp.appending("group/groupDefaults.json"))
        let bad = try await client(["defaults", "set", "ntfPreviewMode", "loud"])
        #expect(bad.status == 64)
        #expect(
            bad.err == [
                "simplex-chat: invalid value 'loud' for ntfPreviewMode: use one of hidden, contact, message"
            ])
        let unknown = try await client(["defaults", "get", "ntfLoudness"])
        #expect(unknown.status == 64)
        #expect(
            unknown.err == ["simplex-chat: unknown setting ntfLoudness: `simplex-chat defaults` lists them"])
        #expect(FileManager.default.contents(atPath: tmp.appending("group/groupDefaults.json")) == before)

        let reset = try await client(["defaults", "reset", "ntfPreviewMode"])
        #expect(reset.out == ["ntfPreviewMode = message (default)"])
    }

    @Test func usageErrorsExitWith64AndOneLine() async throws {
        let run = try await client(["--frobnicate"])
        #expect(run.status == 64)
        #expect(
            run.err == ["simplex-chat: unknown command or option '--frobnicate': see simplex-chat --help"])
        let help = try await client(["--help"])
        #expect(help.status == 0)
        #expect(help.out.first == "usage: simplex-chat [command]")
    }
}

/// The client with a real Secret Service (gnome-keyring) on its session bus.
@Suite struct ClientWithKeyringTests {
    @Test func statusUsesTheSecretServiceAndWritesNoKeyFile() async throws {
        let keyring = try await TestKeyring()
        let tmp = try TemporaryDirectory("client-keyring")
        var environment = keyring.environment
        environment["SIMPLEX_GROUP_DIR"] = tmp.appending("group")
        let client = try BuiltProducts.path("simplex-chat")

        for _ in 0..<2 {
            let run = try ChildProcess(client, ["status"], environment: environment)
            #expect(try await run.wait() == 0, "\(run.allErrors)")
            #expect(
                run.allOutput.contains(
                    "keychain          the Secret Service: the keychain's master key is kept in the Secret Service; 0 item(s)"
                ))
        }
        let configHome = try #require(keyring.environment["XDG_CONFIG_HOME"] ?? nil)
        #expect(!FileManager.default.fileExists(atPath: "\(configHome)/simplex/keychain.key"))
    }
}
