import FerryCoreData
import Foundation
import GRDB

/// A connection that reads a person's store and leaves nothing beside it. A read-only one
/// (`SQLITE_OPEN_READONLY`) to a store in WAL mode (Core Data's, or a canonical store switched to
/// it) makes the store's `-wal` and `-shm` and, unable to take the write lock, leaves them when it
/// closes; one opened for writing removes them as the last to close, as SQLite does for every
/// app. So a store with no journal file beside it is opened for writing where it and its folder
/// can be written, but never made (`mode=rw`), and read only through GRDB's `read`, which holds
/// the connection query-only.
///
/// A store with a `-wal` or `-journal` is opened read-only, as before: a connection that may
/// write would recover it first (roll a crashed transaction back, or move the WAL's pages into
/// the file as it closes), changing the file that a dry run promises to leave as it is; and those
/// files were there already.
enum ReadingConnection {
    static func open(_ path: String, _ configuration: Configuration) throws -> DatabaseQueue {
        var configuration = configuration
        let folder = (path as NSString).deletingLastPathComponent
        guard CoreDataStoreFile.supportsURIFilenames, access(path, W_OK) == 0, access(folder.isEmpty ? "." : folder, W_OK) == 0,
              access(path + "-wal", F_OK) != 0, access(path + "-journal", F_OK) != 0 else {
            // Where SQLite cannot write, it makes nothing beside the store; a journal file was there already.
            configuration.readonly = true
            return try DatabaseQueue(path: path, configuration: configuration)
        }
        configuration.readonly = false
        return try DatabaseQueue(path: CoreDataStoreFile.uri(path, query: "mode=rw"), configuration: configuration)
    }
}
