import FerryBundle
import FerryCanonical
import FerryConvert
import Foundation

/// A progress line for long conversions and exports, redrawn in place on stderr when it is a
/// terminal: how much is done of how much, throughput and time left.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    /// What the line is about (an input file, an export stage): throughput restarts when it changes.
    private var subject = ""
    private var subjectStart = DispatchTime.now()
    private var lastDraw: DispatchTime?
    private var drawn = false

    /// Whether stderr is a terminal: piped or logged output gets no progress lines.
    static var wanted: Bool { isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" }

    /// Runs `body` with a progress line when stderr is a terminal (nil otherwise), and clears
    /// the line when `body` ends, however it ends, so that the summary or error starts clean.
    static func around<Value>(_ body: (ProgressLine?) throws -> Value) rethrows -> Value {
        let line = wanted ? ProgressLine() : nil
        defer { line?.finish() }
        return try body(line)
    }

    /// What a conversion reports, drawn on this line.
    var conversionUpdates: @Sendable (ConversionProgress) -> Void { { [self] in update($0) } }
    /// What an export or import reports, drawn on this line.
    var bundleUpdates: @Sendable (BundleProgress) -> Void { { [self] in update($0) } }

    func update(_ progress: ConversionProgress) {
        draw(subject: progress.file) { Self.text(progress, elapsed: $0) }
    }

    func update(_ progress: BundleProgress) {
        draw(subject: progress.stage.rawValue) { Self.text(progress, elapsed: $0) }
    }

    private func draw(subject current: String, _ text: (Double) -> String) {
        lock.lock()
        defer { lock.unlock() }
        let now = DispatchTime.now()
        let changed = current != subject
        if changed {
            subject = current
            subjectStart = now
        }
        // A redraw five times a second is enough to read, and costs nothing measurable.
        if !changed, let lastDraw, now.uptimeNanoseconds - lastDraw.uptimeNanoseconds < 200_000_000 { return }
        lastDraw = now
        let elapsed = Double(now.uptimeNanoseconds - subjectStart.uptimeNanoseconds) / 1e9
        Console.error(partial: "\r\u{1B}[K" + text(elapsed))
        drawn = true
    }

    /// Clears the line, so that the summary starts on a clean one.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { Console.error(partial: "\r\u{1B}[K") }
        drawn = false
    }

    static func text(_ progress: ConversionProgress, elapsed: Double) -> String {
        let name = (progress.file as NSString).lastPathComponent
        let megabytes = Double(progress.bytesRead) / 1e6
        var parts = ["ferry: \(name): \(progress.records.formatted(.number.grouping(.automatic))) records"]
        if let total = progress.totalBytes, total > 0 {
            let percent = min(100, Int(Double(progress.bytesRead) * 100 / Double(total)))
            parts.append(String(format: "%.1f of %.1f MB (%d%%)", megabytes, Double(total) / 1e6, percent))
        } else {
            parts.append(String(format: "%.1f MB", megabytes))
        }
        guard elapsed > 0.05, progress.bytesRead > 0 else { return parts.joined(separator: ", ") }
        let rate = Double(progress.bytesRead) / elapsed
        parts.append(String(format: "%.1f MB/s", rate / 1e6))
        if let total = progress.totalBytes, total > progress.bytesRead {
            parts.append("about \(duration(Double(total - progress.bytesRead) / rate)) left")
        }
        return parts.joined(separator: ", ")
    }

    static func text(_ progress: BundleProgress, elapsed: Double) -> String {
        let percent = progress.total > 0 ? min(100, Int(progress.done * 100 / progress.total)) : 100
        var parts: [String]
        let rate = elapsed > 0.05 ? Double(progress.done) / elapsed : 0
        switch progress.stage {
        case .tables:
            parts = ["ferry: export: \(progress.done.formatted(.number.grouping(.automatic))) of about "
                     + "\(progress.total.formatted(.number.grouping(.automatic))) rows (\(percent)%)"]
            if rate > 0 { parts.append("\(Int(rate).formatted(.number.grouping(.automatic))) rows/s") }
        case .archive, .unpack:
            let verb = progress.stage == .archive ? "export: archiving" : "import: unpacking"
            parts = ["ferry: \(verb) " + String(format: "%.1f of %.1f MB (%d%%)", Double(progress.done) / 1e6, Double(progress.total) / 1e6, percent)]
            if rate > 0 { parts.append(String(format: "%.1f MB/s", rate / 1e6)) }
        case .check:
            // The parts differ too much in size (one table can be half the work) for a rate or
            // a time left to mean anything, and the line is redrawn only as parts finish.
            return "ferry: import: checking the store, \(progress.done) of \(progress.total) parts done"
        }
        if rate > 0, progress.total > progress.done {
            parts.append("about \(duration(Double(progress.total - progress.done) / rate)) left")
        }
        return parts.joined(separator: ", ")
    }

    private static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        return whole < 60 ? "\(whole) s" : String(format: "%d:%02d", whole / 60, whole % 60)
    }
}
