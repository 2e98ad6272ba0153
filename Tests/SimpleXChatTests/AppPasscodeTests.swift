import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// SimpleX Lock's passcodes in a real keychain file: what the lock screen decides for a typed
/// passcode, and that the keychain never holds a passcode in the clear.
@Suite struct AppPasscodeTests {
    let tmp: TemporaryDirectory
    let keychainPath: String
    let keyFile: KeyFileMasterKey

    init() throws {
        tmp = try TemporaryDirectory("passcode")
        let container = try GroupContainer(path: tmp.appending("group"))
        keychainPath = container.keychainPath
        keyFile = try #require(KeyFileMasterKey(environment: ["XDG_CONFIG_HOME": tmp.appending("config")]))
    }

    func keychain() async throws -> KeychainStore { try await KeychainStore.open(path: keychainPath, masterKey: keyFile) }

    @Test func theAppPasscodeUnlocksAndAnyOtherIsWrong() async throws {
        let store = try await keychain()
        #expect(try !AppPasscode.isSet(.appPassword, in: store))
        #expect(try AppPasscode.check("1234", in: store, selfDestructEnabled: true) == .wrong)
        try AppPasscode.set("2580", as: .appPassword, in: store, limits: .minimum)
        #expect(try AppPasscode.isSet(.appPassword, in: store))
        // Another process (the service, a restarted client) reads the same verifier.
        let other = try await keychain()
        #expect(try AppPasscode.check("2580", in: other, selfDestructEnabled: false) == .unlock)
        for wrong in ["2581", "258", "25800", "", "0852"] {
            #expect(try AppPasscode.check(wrong, in: other, selfDestructEnabled: false) == .wrong, "\(wrong)")
        }
        // The stored item is a salted hash: the passcode is not in it, and setting it again salts anew.
        let first = try #require(try store.get(.appPassword)).withUnsafeBytes { Array($0) }
        #expect(!first.containsSubsequence(Array("2580".utf8)))
        try AppPasscode.set("2580", as: .appPassword, in: store, limits: .minimum)
        let second = try #require(try store.get(.appPassword)).withUnsafeBytes { Array($0) }
        #expect(first != second)
        #expect(try AppPasscode.check("2580", in: store, selfDestructEnabled: false) == .unlock)
        // Nor is it anywhere in the keychain file.
        let file = try #require(FileManager.default.contents(atPath: keychainPath))
        #expect(!Array(file).containsSubsequence(Array("2580".utf8)))
    }

    @Test func theSelfDestructPasscodeCountsOnlyWhenEnabledAndMustDifferFromTheAppPasscode() async throws {
        let store = try await keychain()
        #expect(throws: AppPasscode.Failure.notSet) {
            try AppPasscode.set("9999", as: .selfDestructPassword, in: store, limits: .minimum)
        }
        try AppPasscode.set("1111", as: .appPassword, in: store, limits: .minimum)
        #expect(throws: AppPasscode.Failure.sameAsOther) {
            try AppPasscode.set("1111", as: .selfDestructPassword, in: store, limits: .minimum)
        }
        try AppPasscode.set("9999", as: .selfDestructPassword, in: store, limits: .minimum)
        #expect(throws: AppPasscode.Failure.sameAsOther) {
            try AppPasscode.set("9999", as: .appPassword, in: store, limits: .minimum)
        }
        #expect(try AppPasscode.check("1111", in: store, selfDestructEnabled: true) == .unlock)
        #expect(try AppPasscode.check("9999", in: store, selfDestructEnabled: true) == .selfDestruct)
        #expect(try AppPasscode.check("9999", in: store, selfDestructEnabled: false) == .wrong)
        // Turning the lock off removes both: nothing is left to type at a lock screen.
        try AppPasscode.remove(.appPassword, in: store)
        #expect(try store.itemNames().filter { $0.hasSuffix("Password") }.isEmpty)
        #expect(try AppPasscode.check("9999", in: store, selfDestructEnabled: true) == .wrong)
    }

    @Test func aPasscodeOfTheWrongLengthIsRefusedAndChangesNothing() async throws {
        let store = try await keychain()
        try AppPasscode.set("4321", as: .appPassword, in: store, limits: .minimum)
        for bad in ["123", "", String(repeating: "7", count: AppPasscode.maximumLength + 1)] {
            #expect(throws: AppPasscode.Failure.length(bad.count)) {
                try AppPasscode.set(bad, as: .appPassword, in: store, limits: .minimum)
            }
        }
        #expect(try AppPasscode.check("4321", in: store, selfDestructEnabled: false) == .unlock)
        #expect("\(AppPasscode.Failure.length(3))" == "a passcode has 4 to 64 characters, not 3")
    }
}

extension Array where Element == UInt8 {
    fileprivate func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<$0 + needle.count]) == needle }
    }
}
