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
        let status: Int32
        switch error {
        case let error as ModelError: status = Self.status(of: error.kind)
        case let error as CoreDataReadError: status = Self.status(of: error.kind)
        case is OutputError: status = 73
        case let error as CoreDataWriteError: status = Self.status(of: error.kind)
        case let error as ConversionError: status = Self.status(of: error.kind)
        case let error as StoreError: status = Self.status(of: error.kind)
        case let error as BundleError: status = Self.status(of: error.kind)
        default: return nil
        }
        Console.error("ferry: error: \(error)")
        return status
    }

    static func status(of kind: CoreDataReadError.Kind) -> Int32 {
        switch kind {
        case .fileNotFound: return 66
        case .unreadable: return 74
        case .unknownEntity: return 64
        default: return 65
        }
    }

    static func status(of kind: CoreDataWriteError.Kind) -> Int32 {
        switch kind {
        case .exists, .cannotWrite: return 73
        default: return 65
        }
    }

    static func status(of kind: ConversionError.Kind) -> Int32 {
        switch kind {
        case .fileNotFound: return 66
        case .unreadable: return 74
        default: return 65
        }
    }

    /// 75 (try again later) for a locked store.
    static func status(of kind: StoreError.Kind) -> Int32 {
        switch kind {
        case .cannotCreate, .backup: return 73
        case .locked, .changedMeanwhile: return 75
        case .fileNotFound: return 66
        case .database: return 74
        default: return 65
        }
    }

    static func status(of kind: BundleError.Kind) -> Int32 {
        switch kind {
        case .fileNotFound: return 66
        case .cannotWrite: return 73
        case .unreadable: return 74
        case .invalid, .unusableStore, .notABundle: return 65
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
