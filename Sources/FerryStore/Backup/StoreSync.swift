import FerryFiles

/// FerryFiles' flushing and renaming into place, failing with the store's errors.
package enum StoreSync {
    package static func flush(_ path: String) throws {
        do { try FileSync.flush(path) } catch { throw StoreError(.database(error.reason), path: path) }
    }

    /// Flushes `temporary` (unless `flushing` is false), renames it onto `destination` and flushes
    /// the folder; a failed rename is reported against `store` as `renameFailed` says.
    package static func publish(_ temporary: String, as destination: String, flushing: Bool = true, clearing: [String] = [],
                                reportingAs store: String, renameFailed: (String) -> StoreError.Kind) throws {
        do {
            try FileSync.publish(temporary, as: destination, flushing: flushing, clearing: clearing)
        } catch where error.step == .flush {
            throw StoreError(.database(error.reason), path: error.path)
        } catch {
            throw StoreError(renameFailed(error.reason), path: store)
        }
    }
}
