import FerryCoreData
import FerryFiles
import FerryTestSupport
import Foundation
import GRDB
import GRDBSQLite
import Testing

/// ``SQLiteTemporaryFiles``: SQLite's temporary files are made (and unlinked) only while no
/// interruption is removing the run's scratch.
@Suite struct SQLiteTemporaryFilesTests {
    /// A flag another thread sets.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var set = false
        var isSet: Bool { lock.withLock { set } }
        func raise() { lock.withLock { set = true } }
    }

    /// The default VFS, asked to open a temporary file as SQLite does for a sort or a statement
    /// journal (no name, deleted on close), from a thread of its own.
    final class TemporaryFileOpening: @unchecked Sendable {
        let vfs: UnsafeMutablePointer<sqlite3_vfs>
        let started = Flag(), done = Flag()
        var result: Int32 = -1

        init(_ vfs: UnsafeMutablePointer<sqlite3_vfs>) { self.vfs = vfs }

        func start() {
            Thread.detachNewThread { [self] in
                let size = Int(vfs.pointee.szOsFile)
                let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
                memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
                let file = memory.bindMemory(to: sqlite3_file.self, capacity: 1)
                let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE | SQLITE_OPEN_DELETEONCLOSE | SQLITE_OPEN_TEMP_JOURNAL
                started.raise()
                result = vfs.pointee.xOpen?(vfs, nil, file, flags, nil) ?? -1
                _ = file.pointee.pMethods?.pointee.xClose?(file)
                memory.deallocate()
                done.raise()
            }
        }
    }

    @Test func theDefaultVFSIsFerrys() throws {
        #expect(SQLiteTemporaryFiles.install())
        let vfs = try #require(sqlite3_vfs_find(nil))
        #expect(String(cString: vfs.pointee.zName) == SQLiteTemporaryFiles.vfsName)
    }

    /// While the lock is held (as an interruption holds it until the process exits), no
    /// temporary file is opened; once it is let go, the waiting one is.
    @Test func aTemporaryFileWaitsWhileAnInterruptionCouldLook() throws {
        #expect(SQLiteTemporaryFiles.install())
        let opening = TemporaryFileOpening(try #require(sqlite3_vfs_find(nil)))
        ScratchFiles.withoutInterruption {
            opening.start()
            let deadline = Date().addingTimeInterval(10)
            while !opening.started.isSet, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(opening.started.isSet)
            Thread.sleep(forTimeInterval: 0.3)
            #expect(!opening.done.isSet, "a temporary file was opened while an interruption could be removing the scratch")
        }
        let deadline = Date().addingTimeInterval(10)
        while !opening.done.isSet, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(opening.done.isSet)
        #expect(opening.result == SQLITE_OK)
    }

    /// A database opened after installing uses the VFS, and an index build whose sort spills to
    /// temporary files (a 64 KiB cache for 40 000 rows) gives the right order.
    @Test func aSortSpillingToTemporaryFilesStillRuns() throws {
        #expect(SQLiteTemporaryFiles.install())
        let folder = TemporaryDirectory("ferry-vfs")
        let queue = try DatabaseQueue(path: folder.url.appendingPathComponent("sort.sqlite").path)
        try queue.inDatabase { db in
            var vfs: UnsafeMutablePointer<sqlite3_vfs>?
            #expect(sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) == SQLITE_OK)
            #expect(vfs.map { String(cString: $0.pointee.zName) } == SQLiteTemporaryFiles.vfsName)
            try db.execute(sql: "PRAGMA temp_store = FILE; PRAGMA cache_size = -64")
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, key TEXT)")
            try db.execute(sql: """
                WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 40000)
                INSERT INTO t SELECT n, printf('%08d-%s', (n * 7919) % 40000, hex(randomblob(24))) FROM c
                """)
            try db.execute(sql: "CREATE INDEX t_key ON t (key)")
            let keys = try String.fetchAll(db, sql: "SELECT key FROM t INDEXED BY t_key ORDER BY key")
            #expect(keys.count == 40000)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
        }
    }
}
