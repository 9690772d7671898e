import ArgumentParser
import FerryCoreData
import FerryFiles
import FerrySystem
import Foundation

/// `ferry`: moves Core Data / SwiftData app data between model files, legacy stores,
/// a canonical SQLite store and portable bundles. Each subcommand is a thin layer over a library.
@main
struct Ferry: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "ferry",
        abstract: "Read, check and carry the data of Core Data and SwiftData apps.",
        discussion: """
            Ferry reads Core Data model files (.xcdatamodeld, .xcdatamodel, contents) and Core Data / SwiftData
            SQLite stores without Xcode or Core Data, and converts legacy app data into one canonical store.

            Examples:
              ferry inspect Model.xcdatamodeld
              ferry lint Model.xcdatamodeld --cloudkit
              ferry diff Model.xcdatamodeld
              ferry dump Model.sqlite --model Model.xcdatamodeld
              ferry load records/ --model Model.xcdatamodeld --to New.sqlite
              ferry check New.sqlite --model Model.xcdatamodeld
              ferry convert Samples/roots Samples/molten --to data.ferry
              ferry export data.ferry -o data.tar.zst
              ferry verify data.tar.zst
              ferry import data.tar.zst --to other.ferry
              ferry backup data.ferry; ferry backups data.ferry; ferry restore data.ferry
              ferry clean . --dry-run

            `ferry --version` prints Ferry's version.
            """,
        subcommands: [Inspect.self, Lint.self, Diff.self, Decompile.self, Dump.self, Load.self, Check.self, Convert.self, Export.self, Verify.self, Import.self,
                      Backup.self, Backups.self, Restore.self, Clean.self]
    )

    static func main() {
        // Ctrl-C, kill and a closed terminal remove what this run made and leave every target as it
        // was. First of all: the signals are blocked in every thread started after this.
        Interruption.install(prefix: "ferry: ")
        // SQLite's temporary files and Ferry's own go in a folder of this run's, which an
        // interruption removes whole: a file made and not yet unlinked cannot stay behind.
        RunTemporaryFolder.install()
        // And none is made once an interruption has begun removing that folder: SQLite would
        // then turn to TMPDIR or /tmp, where nothing removes what it leaves. After the folder's
        // install: this initializes SQLite, which may read SQLITE_TMPDIR then.
        SQLiteTemporaryFiles.install()
        // `ferry --version` is answered here rather than by a root flag or `CommandConfiguration.version`:
        // ArgumentParser would match either after a subcommand too, where `--version NAME` picks a model version.
        if CommandLine.arguments.dropFirst().elementsEqual(["--version"]) {
            Console.output("\(version)\n")
            return
        }
        // Past a file-size limit, writes fail with EFBIG and are reported, instead of a signal killing Ferry
        // with a partial file behind.
        signal(SIGXFSZ, SIG_IGN)
        SystemCall.tuneAllocator()
        if let status = runCommand() { Foundation.exit(status) }
    }

    /// Runs the command; returns the exit status of an error Ferry reported, once the error is gone.
    /// Errors ArgumentParser reports (help, usage, ExitCode) exit from here.
    private static func runCommand() -> Int32? {
        do {
            var command = try parseAsRoot()
            try command.run()
            return nil
        } catch {
            if let status = ErrorReporter.report(error) { return status }
            // Usage errors in the style of every other error: "ferry: error: …", then the usage.
            if exitCode(for: error) == .validationFailure {
                let message = fullMessage(for: error)
                Console.error(message.hasPrefix("Error: ") ? "ferry: error: " + message.dropFirst("Error: ".count) : message)
                return ExitCode.validationFailure.rawValue
            }
            exit(withError: error)
        }
    }
}
