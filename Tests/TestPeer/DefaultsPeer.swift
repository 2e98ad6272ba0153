import Foundation
import SimpleXChat
import SimpleXSystem

/// `simplex-test-peer defaults <groupDefaults.json> increment <n>`: n read-modify-write updates of
/// ntfBadgeCount, as the notification service does for each message, racing other processes.
func runDefaultsPeer(_ arguments: [String]) async throws -> Int32 {
    if arguments == ["--hardening"] {
        print("dumpable before: \(ProcessHardening.isDumpable)")
        ProcessHardening.protectSecrets()
        print("dumpable after: \(ProcessHardening.isDumpable)")
        let mask = umask(0o077)
        print("umask: 0\(String(mask, radix: 8))")
        return 0
    }
    guard arguments.count == 3, arguments[1] == "increment", let count = Int(arguments[2]) else {
        FileHandle.standardError.write(Data("usage: simplex-test-peer defaults <path> increment <n>\n".utf8))
        return 64
    }
    let defaults = GroupDefaults(path: arguments[0])
    print("ready")
    for _ in 0..<count {
        try defaults.update { $0[.ntfBadgeCount] += 1 }
    }
    print("done \(count)")
    return 0
}
