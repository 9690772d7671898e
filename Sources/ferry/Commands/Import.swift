import ArgumentParser
import FerryBundle
import FerryStore
import Foundation

extension Ferry {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring a bundle's data into a store, replacing it, or merging with --merge.",
            discussion: """
                The bundle is unpacked into a private staging folder beside STORE, refusing every unsafe entry (links, \
                devices, absolute or .. paths, duplicates and aliases, names in no manifest, entries over limits, \
                compression bombs) and verified whole before anything is used. The current store is backed up (verified, \
                timestamped, rotated, in STORE.backups/), then replaced by rename: at every moment STORE is the old store \
                or the new one. --merge upserts the bundle's rows into the existing store by id, in one transaction.

                Examples:
                  ferry import data.tar.zst --to data.ferry
                  ferry import phone.tar.zst --to data.ferry --merge
                """)

        @Argument(help: ArgumentHelp("The bundle file.", valueName: "file"), completion: .file())
        var bundle: String

        @Option(name: .customLong("to"), help: ArgumentHelp("The store to create, replace or merge into.", valueName: "store"),
                completion: .file())
        var store: String

        @Flag(help: "Upsert the bundle's records into the existing store by id instead of replacing it.")
        var merge = false

        @OptionGroup var backups: BackupOptions

        func run() throws {
            LeftoverNotice.sweep(beside: store)
            let result = try ProgressLine.around { line in
                var importer = BundleImporter(backup: backups.backup, merge: merge, progress: line?.bundleUpdates)
                importer.replaceForeign = backups.replaceForeign
                return try importer.importBundle(bundle, into: store)
            }
            let rows = result.merge.map(MergeCount.line) ?? CanonicalTables.countsLine(result.counts)
            Console.error("""
                ferry: \(result.merged ? "merged" : "imported") bundle \(result.bundleID ?? "?") into \(store)
                  \(rows.isEmpty ? "no rows" : rows)
                """ + (result.backup.map { "\n  previous store backed up to \($0)" } ?? ""))
        }
    }
}
