import ArgumentParser
import FerryStore

/// `--keep-backups N` of every command that replaces a store: it backs the store up first,
/// verified, and keeps the newest N backups. `--replace-foreign`: a target Ferry did not write
/// is refused without it.
struct BackupOptions: ParsableArguments {
    @Option(help: ArgumentHelp("How many backups of the store to keep.", valueName: "n"))
    var keepBackups = 5

    @Flag(help: "Replace a target Ferry did not write (an app's store, another SQLite file, any other file), after a backup of it.")
    var replaceForeign = false

    func validate() throws {
        guard keepBackups >= 1 else { throw ValidationError("--keep-backups must be at least 1") }
    }

    var backup: StoreBackup { StoreBackup(keep: keepBackups) }
}
