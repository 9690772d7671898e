import FerryCoreData
import Foundation
import GRDB

/// A connection that reads a person's store and leaves nothing beside it. A read-only one
/// (`SQLITE_OPEN_READONLY`) to a store in WAL mode (Core Data's, or a canonical store switched to
/// it) makes the store's `-wal` and `-shm` and, unable to take the write lock, leaves them when it
/// closes; one opened for writing removes them as the last to close, as SQLite does for every
/// app. So the store is opened for writing where it and its folder can be written, but never
/// made (`mode=rw`), and read only through GRDB's `read`, which holds the connection query-only.
enum ReadingConnection {
    static func open(_ path: String, _ configuration: Configuration) throws -> DatabaseQueue {
        var configuration = configuration
        let folder = (path as NSString).deletingLastPathComponent
        guard CoreDataStoreFile.supportsURIFilenames, access(path, W_OK) == 0, access(folder.isEmpty ? "." : folder, W_OK) == 0 else {
            // Where SQLite cannot write, it makes nothing beside the store either.
            configuration.readonly = true
            return try DatabaseQueue(path: path, configuration: configuration)
        }
        configuration.readonly = false
        return try DatabaseQueue(path: CoreDataStoreFile.uri(path, query: "mode=rw"), configuration: configuration)
    }
}
