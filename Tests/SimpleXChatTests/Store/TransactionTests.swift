import Foundation
import SimpleXChat
import Synchronization
import TestSupport
import Testing

@Suite struct TransactionTests {
    struct Abort: Error {}

    @Test func commitsWhenTheBodyReturns() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute("CREATE TABLE t (x)")
        let value = try database.transaction {
            #expect(database.isInTransaction)
            try database.execute("INSERT INTO t VALUES (1)")
            return 42
        }
        #expect(value == 42)
        #expect(!database.isInTransaction)
        #expect(try database.count("t") == 1)
    }

    @Test func rollsBackWhenTheBodyThrows() throws {
        let dir = try TemporaryDirectory("store")
        let path = dir.appending("chat.db")
        let database = try Database(path: path)
        try database.execute("CREATE TABLE t (x)")
        #expect(throws: Abort.self) {
            try database.transaction {
                try database.execute("INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }
        #expect(!database.isInTransaction)
        #expect(try database.count("t") == 0)
        // Another connection sees nothing either: the rollback was not just local.
        #expect(try Database(path: path).count("t") == 0)
    }

    @Test func rollsBackWhenAStatementInsideFails() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute("CREATE TABLE t (x UNIQUE)")
        let error = try #require(throws: DatabaseError.self) {
            try database.transaction {
                try database.execute("INSERT INTO t VALUES (1)")
                try database.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(error.extendedResultCode == .constraintUnique)
        #expect(try database.count("t") == 0)
        // The connection is usable after the rollback.
        try database.transaction { try database.execute("INSERT INTO t VALUES (2)") }
        #expect(try database.count("t") == 1)
    }

    @Test func aTransactionInsideAnotherJoinsItAndTheOutermostDecides() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute("CREATE TABLE t (x)")
        try database.transaction {
            try database.transaction { try database.execute("INSERT INTO t VALUES (1)") }
            #expect(database.isInTransaction)  // the inner one did not commit
            try database.execute("INSERT INTO t VALUES (2)")
        }
        #expect(try database.count("t") == 2)
        #expect(throws: Abort.self) {
            try database.transaction {
                try database.transaction { try database.execute("INSERT INTO t VALUES (3)") }
                throw Abort()
            }
        }
        #expect(try database.count("t") == 2)
    }

    @Test func aSavepointThatThrowsUndoesOnlyItsOwnWrites() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute("CREATE TABLE t (x)")
        try database.transaction {
            try database.savepoint { try database.execute("INSERT INTO t VALUES (1)") }
            // (Caught by hand: `#expect(throws:)` inside this closure reported no error.)
            var thrown = false
            do {
                try database.savepoint { () throws -> Void in
                    try database.execute("INSERT INTO t VALUES (2)")
                    throw Abort()
                }
            } catch is Abort {
                thrown = true
            }
            #expect(thrown)
            #expect(database.isInTransaction)  // the transaction goes on
            try database.savepoint { try database.execute("INSERT INTO t VALUES (3)") }
        }
        #expect(try database.fetchAll("SELECT x FROM t ORDER BY x").map { try $0.decode(Int64.self, at: 0) } == [1, 3])
    }

    @Test func twoConnectionsWriteTheSameFile() throws {
        let dir = try TemporaryDirectory("store")
        let path = dir.appending("chat.db")
        let first = try Database(path: path)
        let second = try Database(path: path)
        try first.execute("CREATE TABLE t (x)")
        for round in 0..<10 {
            try first.execute("INSERT INTO t VALUES (?)", arguments: [round])
            try second.transaction { try second.execute("INSERT INTO t VALUES (?)", arguments: [-round]) }
        }
        #expect(try first.count("t") == 20)
        #expect(try second.count("t") == 20)
    }

    @Test func withoutABusyTimeoutASecondWriterFailsWhileTheFirstHoldsTheLock() throws {
        let dir = try TemporaryDirectory("store")
        let path = dir.appending("chat.db")
        let first = try Database(path: path)
        try first.execute("CREATE TABLE t (x)")
        let second = try Database(path: path, busyTimeout: .zero)
        try first.execute("BEGIN IMMEDIATE")
        let error = try #require(throws: DatabaseError.self) {
            try second.execute("INSERT INTO t VALUES (2)")
        }
        #expect(error.resultCode == .busy)
        try first.execute("COMMIT")
    }

    /// The lock conflict of the test above, resolved by the busy timeout: the second process's
    /// write waits until the first commits instead of failing.
    @Test func aSecondWriterWaitsForTheFirstWithTheBusyTimeout() throws {
        final class Outcome: Sendable {
            let error = Mutex<String?>(nil)
        }
        let dir = try TemporaryDirectory("store")
        let path = dir.appending("chat.db")
        let first = try Database(path: path)
        try first.execute("CREATE TABLE t (x)")
        try first.execute("BEGIN IMMEDIATE")
        try first.execute("INSERT INTO t VALUES (1)")

        let opened = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Thread.detachNewThread {
            defer { finished.signal() }
            do {
                let second = try Database(path: path, busyTimeout: .seconds(30))
                opened.signal()
                try second.execute("INSERT INTO t VALUES (2)")
            } catch {
                outcome.error.withLock { $0 = "\(error)" }
                opened.signal()
            }
        }
        opened.wait()
        // Give the second writer time to run into the lock (not asserted: only makes it likely).
        usleep(200_000)
        try first.execute("COMMIT")
        finished.wait()
        #expect(outcome.error.withLock { $0 } == nil)
        #expect(try first.fetchAll("SELECT x FROM t ORDER BY x").map { try $0[0] as Int } == [1, 2])
    }
}
