import Foundation

/// The outcome of running a program: exit status and everything it printed.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutData: Data
    /// It was ended by a signal it did not handle: a crash (a trap, a fatal error).
    public var crashed = false
}

/// Runs the built `ferry` (or any program) and captures its output, as a user's shell would.
public enum CommandRunner {
    /// The `ferry` executable built beside the test bundle, or `FERRY_BINARY` when set.
    public static let ferry: String = {
        if let path = ProcessInfo.processInfo.environment["FERRY_BINARY"] { return path }
        let testBinary = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                             ?? CommandLine.arguments[0])
        var directory = testBinary.deletingLastPathComponent()
        // On macOS the test binary sits inside an .xctest bundle.
        while directory.path != "/" && !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("ferry").path) {
            if directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents" || directory.lastPathComponent == "MacOS" {
                directory.deleteLastPathComponent()
            } else {
                break
            }
        }
        return directory.appendingPathComponent("ferry").path
    }()

    /// Runs ferry with a temp folder of its own: a writing run sweeps dead runs' leftovers from
    /// the temp folder and says so, which in a shared one would be another test's business.
    public static func ferry(_ arguments: [String], in directory: URL? = nil) throws -> CommandResult {
        let temporary = TemporaryDirectory("ferry-run")
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        environment["SQLITE_TMPDIR"] = nil
        return try withExtendedLifetime(temporary) { try run(ferry, arguments, in: directory, environment: environment) }
    }

    public static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String]? = nil) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs, so that neither fills up and blocks it.
        let errorData = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            errorData.data = errors.fileHandleForReading.readDataToEndOfFile()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                             stderr: String(decoding: errorData.data, as: UTF8.self), stdoutData: outputData,
                             crashed: process.terminationReason == .uncaughtSignal)
    }

    /// Runs ferry and kills it (SIGKILL) after `delay` seconds, as a crash or a power cut would.
    /// Its temp folder is one of its own, removed afterwards: what a killed run leaves there (its
    /// temporary folder at least) would otherwise be swept, and reported, by any later run of
    /// any test.
    /// - Returns: whether it was still running when killed.
    @discardableResult
    public static func ferryKilled(_ arguments: [String], after delay: Double) throws -> Bool {
        let temporary = TemporaryDirectory("ferry-killed-run")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ferry)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        environment["SQLITE_TMPDIR"] = nil
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(useconds_t(delay * 1_000_000))
        let killed = process.isRunning && kill(process.processIdentifier, SIGKILL) == 0
        process.waitUntilExit()
        withExtendedLifetime(temporary) {}
        return killed
    }

    /// Whether a program is on PATH.
    public static func isAvailable(_ program: String) -> Bool {
        (try? run("/usr/bin/env", ["which", program]).status) == 0
    }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}
