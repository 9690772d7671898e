import FerrySystem
import Foundation

/// What tells that a store file is as it was: its inode, size, modification time and SQLite's
/// file change counter (header bytes 24–27, which every committing writer in rollback-journal
/// mode increments). Taken when a copy of the store is made, compared before the copy replaces it.
public struct StoreState: Sendable, Equatable {
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var modifiedNanoseconds: Int64
    var changeCounter: [UInt8]

    /// - Throws: ``StoreError`` when the file cannot be read.
    public init(of store: String) throws {
        let descriptor = open(store, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError(.database("cannot read: \(SystemCall.errorText())"), path: store) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw StoreError(.database("cannot read: \(SystemCall.errorText())"), path: store) }
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        (modified, modifiedNanoseconds) = SystemCall.modificationTime(status)
        var header = [UInt8](repeating: 0, count: 4)
        let read = header.withUnsafeMutableBytes { SystemCall.read(descriptor, into: $0.baseAddress!, count: 4, at: 24) }
        changeCounter = read == 4 ? header : []
    }
}
