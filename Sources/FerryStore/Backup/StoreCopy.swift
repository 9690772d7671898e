import Foundation

/// A consistent copy of a store through SQLite's backup API.
package enum StoreCopy {
    package static func copy(_ source: String, to destination: String) throws {
        let reader = try CanonicalStore(path: source, readOnly: true)
        try reader.copy(to: destination)
        try reader.close()
    }
}
