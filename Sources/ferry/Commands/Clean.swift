import ArgumentParser
import FerryFiles
import Foundation

extension Ferry {
    struct Clean: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove what interrupted or killed runs of Ferry left in a folder.",
            discussion: """
                Ferry names every temporary file and staging folder after the process that made it \
                (.NAME.PURPOSE.ferry-HOST-PID-TAG.partial). A run that is interrupted removes its own; one that is killed \
                (SIGKILL, a power cut) cannot, and the next command that writes the same target removes them. \
                This command does the same for every such name in FOLDER, in the backups folders inside it, and \
                in the temp folder and SQLite's (SQLITE_TMPDIR, TMPDIR, else /var/tmp), for processes that are no \
                longer running; a live run's files are left alone.

                Example:
                  ferry clean ~/Data --dry-run
                """)

        @Argument(help: ArgumentHelp("The folder to clean (default: the current one).", valueName: "folder"), completion: .directory)
        var folder = "."

        @Flag(help: "List what would be removed, and remove nothing.")
        var dryRun = false

        func run() throws {
            // The same codes as every command: missing 66, the wrong kind 65, unreadable 74.
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else { try fail("no such folder", 66) }
            guard isFolder.boolValue else { try fail("is a file; clean takes the folder that holds the leftovers", 65) }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder)
            } catch {
                try fail("cannot be read: \((error as NSError).localizedDescription)", 74)
            }
            let backups = names.filter { $0.hasSuffix(".backups") }.sorted()
            let found = Leftovers.find(in: folder)
                + backups.flatMap { Leftovers.find(in: (folder as NSString).appendingPathComponent($0)) }
                + Leftovers.inTemporaryFolders()
            let failures = dryRun ? [] : Leftovers.remove(found)
            for leftover in found where !failures.contains(where: { $0.path == leftover.path }) {
                Console.output("\(dryRun ? "would remove" : "removed") \(leftover.path) (\(LeftoverNotice.bytes(leftover.bytes)), process \(leftover.processID))\n")
            }
            for failure in failures { Console.error("ferry: error: \(failure.path): \(failure.reason)") }
            let total = found.reduce(0) { $0 + $1.bytes }
            Console.error("ferry: \(dryRun ? "would remove" : "removed") \(Console.count(found.count - failures.count, "leftover")) "
                          + "(\(LeftoverNotice.bytes(total)))")
            if !failures.isEmpty { throw ExitCode(74) }
        }

        private func fail(_ reason: String, _ status: Int32) throws -> Never {
            Console.error("ferry: error: \(folder): \(reason)")
            throw ExitCode(status)
        }
    }
}
