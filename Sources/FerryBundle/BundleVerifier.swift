import FerryJSON
import Foundation

/// The outcome of `ferry verify`: every problem found, and what the bundle says it holds.
public struct BundleVerification: Sendable {
    public var path: String
    public var problems: [BundleProblem]
    public var bundleID: String?
    public var createdAt: String?
    public var counts: [String: Int]
    public var payloadFiles: Int
    public var payloadBytes: Int64

    public var isValid: Bool { problems.isEmpty }
}

/// `ferry verify`: streams a bundle once, without unpacking it, and checks completeness, every
/// checksum, every entry's safety and the archive's seal.
public struct BundleVerifier: Sendable {
    public var limits: BundleLimits

    public init(limits: BundleLimits = BundleLimits()) {
        self.limits = limits
    }

    public func verify(_ path: String) throws -> BundleVerification {
        let scan = try BundleScanner(limits: limits).scan(path)
        return Self.verification(path, scan: scan, result: BagValidator().validate(scan))
    }

    static func verification(_ path: String, scan: BundleScan, result: BagValidator.Result) -> BundleVerification {
        var counts: [String: Int] = [:]
        for (table, value) in result.bundle?["counts"]?.object ?? JSONObject() {
            if let count = value.number?.int64 { counts[table] = Int(count) }
        }
        let payload = scan.files.filter { $0.key.hasPrefix("data/") }
        return BundleVerification(path: path, problems: result.problems, bundleID: result.bundle?["bundleId"]?.string,
                                  createdAt: result.bundle?["createdAt"]?.string, counts: counts, payloadFiles: payload.count,
                                  payloadBytes: payload.values.reduce(0) { $0 + $1.size })
    }
}
