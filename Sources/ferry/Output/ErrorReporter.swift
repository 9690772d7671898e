import ArgumentParser
import FerryBundle
import FerryCanonical
import FerryConvert
import FerryCoreData
import FerryModel
import FerryStore
import FerryFiles
import Foundation

/// Maps errors to one line on stderr and an exit status, in one place:
/// usage 64, bad input data 65, missing input 66, cannot create output 73, I/O 74, findings 1 (sysexits.h).
enum ErrorReporter {
    /// Prints Ferry's own errors as one line and returns their exit status; nil for the errors
    /// ArgumentParser reports itself (help, usage, ExitCode). Returning rather than exiting lets the
    /// error be released before the process ends, so LeakSanitizer sees no leak at exit.
    static func report(_ error: any Error) -> Int32? {
        if let modelError = error as? ModelError {
            Console.error("ferry: error: \(modelError)")
            return status(of: modelError.kind)
        }
        if let legacyError = error as? CoreDataReadError {
            Console.error("ferry: error: \(legacyError)")
            return status(of: legacyError.kind)
        }
        if let outputError = error as? OutputError {
            Console.error("ferry: error: \(outputError)")
            return 73
        }
        if let conversionError = error as? ConversionError {
            Console.error("ferry: error: \(conversionError)")
            return status(of: conversionError.kind)
        }
        if let storeError = error as? StoreError {
            Console.error("ferry: error: \(storeError)")
            return status(of: storeError.kind)
        }
        if let bundleError = error as? BundleError {
            Console.error("ferry: error: \(bundleError)")
            return status(of: bundleError.kind)
        }
        return nil
    }

    static func status(of kind: CoreDataReadError.Kind) -> Int32 {
        switch kind {
        case .fileNotFound: return 66
        case .unreadable: return 74
        case .unknownEntity: return 64
        default: return 65
        }
    }

    static func status(of kind: ConversionError.Kind) -> Int32 {
        switch kind {
        case .unreadable(let reason): return reason == "no such file or directory" ? 66 : 74
        default: return 65
        }
    }

    /// 75 (try again later) for a locked store.
    static func status(of kind: StoreError.Kind) -> Int32 {
        switch kind {
        case .cannotCreate, .backup: return 73
        case .locked: return 75
        case .database: return 74
        default: return 65
        }
    }

    static func status(of kind: BundleError.Kind) -> Int32 {
        switch kind {
        case .fileNotFound: return 66
        case .cannotWrite: return 73
        case .invalid, .unusableStore: return 65
        }
    }

    static func status(of kind: ModelError.Kind) -> Int32 {
        switch kind {
        case .fileNotFound: return 66
        case .unreadable: return 74
        case .unknownVersion, .unknownEntity: return 64
        default: return 65
        }
    }
}
