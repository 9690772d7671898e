import FerryCanonical
import FerryJSON
import FerryCoreData
import FerryFiles
import Foundation

/// What every normalizer shares: how to read dates, where to report, whether to keep going
/// past a bad record, and the batch being built.
///
/// Not `Sendable`: one thread reads the inputs into it (``BatchPipeline``'s reading thread, or
/// the caller's), and hands it on only when that thread has ended. What the store's thread
/// takes from it while it is read, a batch, moves through ``BatchSink/flush(_:)``, and the
/// report is a ``ReportBuilder``, which owns its lock.
public final class ConversionContext {
    public let dates: LegacyDateDecoder
    public let report: ReportBuilder
    public let keepGoing: Bool
    public var batch = CanonicalBatch()
    /// Where large inputs hand over records as they go, so that memory stays flat; nil keeps
    /// the whole batch until the end.
    public var sink: BatchSink?
    /// Records per hand-over to the sink.
    public var flushThreshold = 20_000
    public var progress: (@Sendable (ConversionProgress) -> Void)?
    /// Ids seen per table, to refuse duplicates with the record that had them first: 16-byte
    /// keys for UUIDs (a million ids fit in tens of megabytes), text for anything else.
    private var seen: [String: [UUIDKey: SeenAt]] = [:]
    private var seenText: [String: [String: SeenAt]] = [:]
    private var seenFiles: [String: UInt32] = [:]
    private var seenFileNames: [String] = []
    private var lastFile: (path: String, index: UInt32)?
    private var lastFileName: (path: String, name: String)?
    private var lastFileTime: (path: String, time: String)?
    /// Where claimed UUIDs go past `claimsInMemory` of them; without one, all stay in memory.
    public var ledger: ClaimLedger?
    public var claimsInMemory = 1 << 17
    /// Log ids are left unclaimed: the store refuses duplicates (``ConversionOptions/logIDsCheckedByStore``).
    public var logIDsCheckedByStore = false
    /// Opens zip archives (``ConversionOptions/openArchive``).
    public var openArchive: ArchiveOpener?
    private var claimsHeld = 0
    private var spilled = false
    /// The claims in the ledger, to skip the query for ids it cannot hold; made at the first spill.
    private var spilledClaims: ClaimFilter?

    public init(dates: LegacyDateDecoder = LegacyDateDecoder(), report: ReportBuilder, keepGoing: Bool) {
        self.dates = dates
        self.report = report
        self.keepGoing = keepGoing
    }

    /// Runs `body` for one record: its errors are thrown, or with `keepGoing` reported as
    /// rejected while the other records go on.
    public func record(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ConversionError {
            guard keepGoing else { throw error }
            report.rejected(error)
        }
    }

    /// Refuses an id already used in the same table by another record of this conversion.
    public func claim(_ id: String, table: String, at location: RecordLocation) throws {
        if logIDsCheckedByStore, table == "log" { return }
        let fileIndex: UInt32
        // Records come file by file: the last file's index spares hashing its path every time.
        if let last = lastFile, last.path == location.file { fileIndex = last.index } else if let known = seenFiles[location.file] {
            fileIndex = known
            lastFile = (location.file, known)
        } else {
            fileIndex = UInt32(seenFileNames.count)
            seenFiles[location.file] = fileIndex
            seenFileNames.append(location.file)
        }
        let here = SeenAt(file: fileIndex, record: UInt32(clamping: location.record ?? 0))
        var first: SeenAt?
        if let key = UUIDKey(id) {
            first = seen[table, default: [:]].updateValue(here, forKey: key)
            if let first {
                seen[table]![key] = first
            } else if let ledger, spilled, spilledClaims?.mayContain(table: table, high: key.high, low: key.low) ?? true,
                      let prior = try ledger.firstClaim(table: table, high: key.high, low: key.low) {
                seen[table]![key] = nil
                first = SeenAt(file: prior.file, record: prior.record)
            } else {
                claimsHeld += 1
                if claimsHeld >= claimsInMemory, let ledger { try spill(to: ledger) }
            }
        } else {
            first = seenText[table, default: [:]].updateValue(here, forKey: id)
            if let first { seenText[table]![id] = first }
        }
        if let first {
            var located = location
            located.field = located.field ?? "id"
            let sameFile = first.file == fileIndex
            throw ConversionError(.duplicateID(id, firstRecord: sameFile && first.record > 0 ? Int(first.record) : nil), at: located)
        }
    }

    /// Moves the claimed UUIDs held in memory to the ledger, so that memory stays flat however
    /// many records come.
    private func spill(to ledger: ClaimLedger) throws {
        var claims: [ClaimedID] = []
        claims.reserveCapacity(claimsHeld)
        if spilledClaims == nil { spilledClaims = ClaimFilter() }
        for (table, keys) in seen {
            for (key, at) in keys {
                claims.append(ClaimedID(table: table, high: key.high, low: key.low, file: at.file, record: at.record))
                spilledClaims!.insert(table: table, high: key.high, low: key.low)
            }
        }
        // The dictionary goes before the ledger works, and the claims are sorted where they lie:
        // at 131,072 claims each copy is 5 MB more at the peak.
        seen.removeAll()
        claims.sort { ($0.table, $0.high, $0.low) < ($1.table, $1.high, $1.low) }
        try ledger.keep(claims)
        claimsHeld = 0
        spilled = true
    }

    /// Hands the batch to the sink once it holds `flushThreshold` records, a recipe counted as
    /// ``CanonicalBatch/recipeWeight`` of them.
    public func flushIfNeeded() throws {
        guard let sink, batch.recordCount + batch.recipes.count * (CanonicalBatch.recipeWeight - 1) >= flushThreshold else { return }
        flushedRecords += batch.recordCount
        try sink.flush(self)
    }

    /// Top-level records made so far, the ones already handed to the sink included.
    public var recordsMade: Int { flushedRecords + batch.recordCount }
    private var flushedRecords = 0

    /// The last component of an input's path, as records name their file (`source_file`);
    /// kept for the file being read, which every record of it names.
    public func fileName(_ path: String) -> String {
        if let last = lastFileName, last.path == path { return last.name }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        lastFileName = (path, name)
        return name
    }

    /// Says that `fields` of a record were made up from `from`: in the report, and on the record
    /// (its `synthesizedTimes`, written into `extras`), so the two always agree.
    func synthesized(_ fields: [String], table: String, from: String, marking marks: inout [String: String]) {
        for field in fields {
            report.synthesized(table: table, field: field, from: from)
            marks[field] = from
        }
    }

    /// Created/modified times for legacy records that have none: the input file's modification
    /// time, so that converting the same file again gives the same values.
    /// Kept for the file being read: the format readers ask per record, and each asking was a
    /// `stat` (several for an archive's entry).
    /// - Throws: ``ConversionError`` naming the file when its time cannot be read: 1970 made up
    ///   in its place would be stored as the records' times.
    public func fileTime(_ path: String) throws(ConversionError) -> String {
        if let last = lastFileTime, last.path == path { return last.time }
        let date: Date
        do {
            guard let modified = try FileManager.default.attributesOfItem(atPath: Self.inputFile(path))[.modificationDate] as? Date else {
                throw ConversionError(.unreadable("the file has no modification time"), at: RecordLocation(file: path))
            }
            date = modified
        } catch let error as ConversionError {
            throw error
        } catch {
            throw ConversionError(.unreadable("cannot read its modification time: \((error as NSError).localizedDescription)"), at: RecordLocation(file: path))
        }
        let time = CanonicalTime.string(date)
        lastFileTime = (path, time)
        return time
    }

    /// The input file of a record's location: the file itself, or for an archive's entry
    /// (`export.zip!1.zip!recipe.json`) the archive, however many `!` its own name holds.
    static func inputFile(_ located: String) -> String {
        var candidate = located
        while !FileManager.default.fileExists(atPath: candidate), let bang = candidate.lastIndex(of: "!") {
            candidate = String(candidate[..<bang])
        }
        return candidate
    }
}
