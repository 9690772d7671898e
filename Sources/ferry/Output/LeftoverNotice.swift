import FerryFiles
import Foundation

/// What runs that died left behind, removed before a command writes and said in one line.
enum LeftoverNotice {
    /// Before a command writes `target`: removes the scratch dead runs left for it (beside it,
    /// in its backups folder, in the temp folder) and says what and how many bytes.
    static func sweep(beside target: String) {
        let found = Leftovers.find(beside: target)
        guard !found.isEmpty else { return }
        let failures = Leftovers.remove(found)
        let removed = found.filter { leftover in !failures.contains { $0.path == leftover.path } }
        if !removed.isEmpty {
            let names = removed.map { ($0.path as NSString).lastPathComponent }
            Console.error("ferry: removed \(Console.count(removed.count, "leftover")) of interrupted runs (\(bytes(removed.reduce(0) { $0 + $1.bytes }))): "
                          + names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : ""))
        }
        for failure in failures { Console.error("ferry: warning: \(failure.path): \(failure.reason)") }
    }

    /// Bytes as a person reads them: 191.2 MB, 12 KB, 512 bytes.
    static func bytes(_ count: Int64) -> String {
        switch count {
        case ..<1_000: return count == 1 ? "1 byte" : "\(count) bytes"
        case ..<1_000_000: return "\(count / 1_000) KB"
        case ..<1_000_000_000: return String(format: "%.1f MB", Double(count) / 1e6)
        default: return String(format: "%.2f GB", Double(count) / 1e9)
        }
    }
}
