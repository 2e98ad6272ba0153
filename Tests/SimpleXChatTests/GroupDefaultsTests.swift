import Foundation
import Synchronization
import Testing
import TestSupport

@testable import SimpleXChat

/// Collects reported problems.
final class ProblemLog: Sendable {
    private let problems = Mutex<[GroupDefaultsProblem]>([])
    var all: [GroupDefaultsProblem] { problems.withLock { $0 } }
    var reporter: @Sendable (GroupDefaultsProblem) -> Void { { problem in self.problems.withLock { $0.append(problem) } } }
}

@Suite struct GroupDefaultsTests {
    let tmp: TemporaryDirectory
    let container: GroupContainer

    init() throws {
        tmp = try TemporaryDirectory("defaults")
        container = try GroupContainer(path: tmp.appending("group"))
    }

    @Test func unsetKeysReadTheirDefaults() throws {
        let defaults = GroupDefaults(container: container)
        #expect(defaults[.appState] == .suspended)
        #expect(defaults[.nseState] == .suspended)
        #expect(defaults[.shareState] == .inactive)
        #expect(defaults[.ntfPreviewMode] == .message)
        #expect(defaults[.notificationMode] == .instant)
        #expect(defaults[.chatLayout] == .terminal)
        #expect(defaults[.privacyAcceptImages] == true)
        #expect(defaults[.networkTCPKeepCnt] == 4)
        #expect(defaults[.networkSocksProxy] == nil)
        #expect(!FileManager.default.fileExists(atPath: container.groupDefaultsPath))
    }

    @Test func valuesPersistAcrossInstancesInAPrivateFile() throws {
        let writer = GroupDefaults(container: container)
        try writer.set(.ntfPreviewMode, .hidden)
        try writer.set(.networkSocksProxy, "127.0.0.1:9050")
        try writer.set(.chatLastStart, Date(timeIntervalSince1970: 1_700_000_000.5))
        try writer.update {
            $0[.appState] = .active
            $0[.ntfBadgeCount] += 3
        }
        let reader = GroupDefaults(container: container)
        #expect(reader[.ntfPreviewMode] == .hidden)
        #expect(reader[.networkSocksProxy] == "127.0.0.1:9050")
        #expect(reader[.chatLastStart] == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(reader[.appState] == .active)
        #expect(reader[.ntfBadgeCount] == 3)
        #expect(try permissions(of: container.groupDefaultsPath) == 0o600)
        let text = try String(contentsOfFile: container.groupDefaultsPath, encoding: .utf8)
        #expect(text.contains("\"ntfPreviewMode\" : \"hidden\""))
        // Atomic replacement leaves no temp files behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: container.path).filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty)

        try reader.reset(.ntfPreviewMode)
        #expect(writer[.ntfPreviewMode] == .message)
    }

    @Test func aReaderSeesAnotherWritersChange() throws {
        let a = GroupDefaults(container: container)
        let b = GroupDefaults(container: container)
        #expect(a[.nseState] == .suspended)
        for state in [NSEState.starting, .active, .suspending, .suspended, .active] {
            try b.set(.nseState, state)
            #expect(a[.nseState] == state)
        }
    }

    @Test func invalidValuesFallBackToDefaultsAndAreReportedOnce() throws {
        let json = """
            {"appState": "dancing", "ntfBadgeCount": "seven", "privacyAcceptImages": false,
             "networkSocksProxy": 5, "futureKey": {"a": [1, 2]}}
            """
        try json.write(toFile: container.groupDefaultsPath, atomically: true, encoding: .utf8)
        let log = ProblemLog()
        let defaults = GroupDefaults(container: container, report: log.reporter)
        #expect(defaults[.appState] == .suspended)
        #expect(defaults[.appState] == .suspended)
        #expect(defaults[.ntfBadgeCount] == 0)
        #expect(defaults[.networkSocksProxy] == nil)
        // Valid neighbours are unaffected.
        #expect(defaults[.privacyAcceptImages] == false)
        #expect(
            log.all == [
                .invalidValue(key: "appState", value: "\"dancing\""),
                .invalidValue(key: "ntfBadgeCount", value: "\"seven\""),
                .invalidValue(key: "networkSocksProxy", value: "5"),
            ])
        #expect(log.all[0].description == "setting appState has an invalid value \"dancing\"; using its default")

        // Writing another key keeps keys this version does not know.
        try defaults.set(.chatLayout, .classic)
        let raw = GroupDefaults(container: container).snapshot().raw
        #expect(raw["futureKey"] == .object(["a": .array([.int(1), .int(2)])]))
        #expect(raw["chatLayout"] == .string("classic"))
    }

    @Test func aCorruptedFileReadsAsDefaultsAndIsKeptAsideOnTheNextWrite() throws {
        let garbage = Data([0x7B, 0x22, 0xFF, 0x00, 0x13])
        #expect(FileManager.default.createFile(atPath: container.groupDefaultsPath, contents: garbage))
        let log = ProblemLog()
        let defaults = GroupDefaults(container: container, report: log.reporter)
        #expect(defaults[.ntfPreviewMode] == .message)
        #expect(log.all.count == 1)
        #expect(log.all.first?.description.contains("unreadable") == true)

        try defaults.set(.ntfPreviewMode, .contact)
        #expect(GroupDefaults(container: container)[.ntfPreviewMode] == .contact)
        #expect(FileManager.default.contents(atPath: container.groupDefaultsPath + ".corrupt") == garbage)
        #expect(log.all.count == 1)
    }

    @Test func textInputIsParsedPerKeyType() throws {
        var values = GroupDefaults(container: container).snapshot()
        try values.set(GroupDefaultKeys.ntfPreviewMode, text: "contact")
        try values.set(GroupDefaultKeys.privacyLinkPreviews, text: "off")
        try values.set(GroupDefaultKeys.networkTCPKeepCnt, text: "9")
        #expect(values[.ntfPreviewMode] == .contact)
        #expect(values[.privacyLinkPreviews] == false)
        #expect(values[.networkTCPKeepCnt] == 9)
        #expect {
            try values.set(GroupDefaultKeys.ntfPreviewMode, text: "everything")
        } throws: { error in
            "\(error)" == "invalid value 'everything' for ntfPreviewMode: use one of hidden, contact, message"
        }
        #expect {
            try values.set(GroupDefaultKeys.networkTCPKeepCnt, text: "many")
        } throws: { error in
            "\(error)" == "invalid value 'many' for networkTCPKeepCnt: expected a whole number"
        }
        #expect(values[.networkTCPKeepCnt] == 9)
        // One chat in the other layout: `@id=layout` pairs; anything else changes nothing.
        try values.set(GroupDefaultKeys.chatLayoutByChat, text: "@12=classic,@3=terminal")
        #expect(values[.chatLayoutByChat] == ChatLayoutOverrides(["@12": .classic, "@3": .terminal]))
        #expect {
            try values.set(GroupDefaultKeys.chatLayoutByChat, text: "@12=bubbles")
        } throws: { error in
            "\(error)"
                == "invalid value '@12=bubbles' for chatLayoutByChat: expected name=value pairs separated by commas"
        }
        #expect(values[.chatLayoutByChat]["@12"] == .classic)
    }

    @Test func concurrentUpdatesInOneProcessLoseNothing() async throws {
        let path = container.groupDefaultsPath
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    // Separate instances, as separate processes would have.
                    let defaults = GroupDefaults(path: path)
                    for _ in 0..<50 { try? defaults.update { $0[.ntfBadgeCount] += 1 } }
                }
            }
        }
        #expect(GroupDefaults(path: path)[.ntfBadgeCount] == 200)
    }

    @Test func concurrentUpdatesFromSeveralProcessesLoseNothing() async throws {
        let peer = try BuiltProducts.path("simplex-test-peer")
        let path = container.groupDefaultsPath
        let processes = try (0..<4).map { _ in try ChildProcess(peer, ["defaults", path, "increment", "150"]) }
        for process in processes {
            #expect(try await process.wait() == 0)
            #expect(process.allOutput.last == "done 150")
        }
        #expect(GroupDefaults(path: path)[.ntfBadgeCount] == 600)
    }
}
