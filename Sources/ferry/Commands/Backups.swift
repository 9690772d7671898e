import ArgumentParser
import FerryJSON
import FerryStore
import Foundation

extension Ferry {
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a verified, timestamped copy of a store in STORE.backups/.",
            discussion: """
                The copy is taken under SQLite's shared lock, compared with the store byte for byte (a store in WAL mode: through SQLite's backup API, by row counts), checked with PRAGMA quick_check, flushed, \
                and only then named; the oldest copies beyond --keep are removed after that.

                Example:
                  ferry backup data.ferry --keep 10
                """)

        @Argument(help: ArgumentHelp("The store to back up.", valueName: "store"), completion: .file())
        var store: String

        @Option(help: ArgumentHelp("How many backups to keep.", valueName: "n"))
        var keep = 5

        func validate() throws {
            guard keep >= 1 else { throw ValidationError("--keep must be at least 1") }
        }

        func run() throws {
            guard FileManager.default.fileExists(atPath: store) else { throw StoreError(.fileNotFound("no such store"), path: store) }
            LeftoverNotice.sweep(beside: store)
            let (path, removed) = try StoreBackup(keep: keep).backUp(store)
            Console.output(path + "\n")
            if !removed.isEmpty {
                Console.error("ferry: removed \(Console.count(removed.count, "older backup")) beyond --keep \(keep): "
                              + removed.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))
            }
        }
    }

    struct Backups: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a store's backups, oldest first.",
            discussion: """
                Example:
                  ferry backups data.ferry
                """)

        @Argument(help: ArgumentHelp("The store.", valueName: "store"), completion: .file())
        var store: String

        @Option(help: "Report format.")
        var format: ReportFormat = .text

        func run() throws {
            let backups = StoreBackup.backups(of: store)
            // A store that is gone may still have backups (to restore from); neither is a mistyped name.
            guard !backups.isEmpty || FileManager.default.fileExists(atPath: store) else {
                throw StoreError(.fileNotFound("no such store, and no backups in \(StoreBackup.folder(for: store))/"), path: store)
            }
            let sizes = backups.map { ((try? FileManager.default.attributesOfItem(atPath: $0))?[.size] as? Int) ?? 0 }
            switch format {
            case .json:
                let list: [JSONValue] = zip(backups, sizes).map { ["path": .string($0), "bytes": .integer($1)] }
                Console.output(JSONWriter.string(["store": .string(store), "backups": .array(list)], pretty: true) + "\n")
            case .text:
                if backups.isEmpty { Console.error("ferry: \(store) has no backups in \(StoreBackup.folder(for: store))/") }
                for (path, size) in zip(backups, sizes) { Console.output("\(path)\t\(size) bytes\n") }
            }
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put a backup back in place of a store (the newest, or --from BACKUP).",
            discussion: """
                The backup is checked, copied beside the store and checked again; the current store is backed up first \
                (a damaged one is kept as a raw copy, damaged-…, in STORE.backups/); then the copy is renamed over the \
                store, so the store is at every moment the old one or the restored one.

                Examples:
                  ferry restore data.ferry
                  ferry restore data.ferry --from data.ferry.backups/data-20261122T101500.123Z.ferry
                """)

        @Argument(help: ArgumentHelp("The store to restore.", valueName: "store"), completion: .file())
        var store: String

        @Option(help: ArgumentHelp("The backup to restore (default: the newest).", valueName: "backup"), completion: .file())
        var from: String?

        @OptionGroup var backups: BackupOptions

        func run() throws {
            LeftoverNotice.sweep(beside: store)
            let result = try StoreRestore(backup: backups.backup).restore(store, from: from)
            let rows = CanonicalTables.countsLine(result.counts)
            Console.error("ferry: restored \(store) from \(result.restoredFrom)\n  \(rows)"
                          + (result.previousStore.map { "\n  the store as it was is kept in \($0)" } ?? ""))
        }
    }
}
