import Foundation

/// Reading and writing BagIt 1.0 tag files (RFC 8493): `bagit.txt`, `bag-info.txt` and
/// `manifest-<algorithm>.txt`.
enum BagItFiles {
    static let declaration = "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"

    /// `checksum  path` lines, sorted by path; CR, LF and % in paths are percent-encoded (RFC 8493 §2.1.3).
    static func manifest(_ digests: [String: FileDigest]) -> String {
        digests.keys.sorted().map { "\(digests[$0]!.sha256)  \(encode($0))\n" }.joined()
    }

    /// `Label: value` lines, in the order given.
    static func info(_ fields: [(String, String)]) -> String {
        fields.map { "\($0.0): \($0.1)\n" }.joined()
    }

    /// Parses a manifest; each line is a problem or an entry.
    static func parseManifest(_ text: String, file: String) -> (entries: [String: String], problems: [BundleProblem]) {
        var entries: [String: String] = [:]
        var problems: [BundleProblem] = []
        for (number, line) in lines(text).enumerated() where !line.isEmpty {
            let parts = line.split(maxSplits: 1, omittingEmptySubsequences: true, whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 2, parts[0].count == 64, parts[0].allSatisfy(\.isHexDigit) else {
                problems.append(BundleProblem(.malformed, file, "line \(number + 1) is not \"<sha-256> <path>\""))
                continue
            }
            let path = decode(String(parts[1]).trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
            if entries[path] != nil {
                problems.append(BundleProblem(.malformed, file, "line \(number + 1) lists \(path) a second time"))
            }
            entries[path] = parts[0].lowercased()
        }
        return (entries, problems)
    }

    /// Parses `Label: value` lines; continuation lines (starting with whitespace) extend the previous value.
    static func parseInfo(_ text: String) -> [(String, String)] {
        var fields: [(String, String)] = []
        for line in lines(text) where !line.isEmpty {
            if line.first == " " || line.first == "\t", !fields.isEmpty {
                fields[fields.count - 1].1 += " " + line.trimmingCharacters(in: .whitespaces)
            } else if let colon = line.firstIndex(of: ":") {
                fields.append((String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                               String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
            }
        }
        return fields
    }

    private static func lines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func encode(_ path: String) -> String {
        path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\n", with: "%0A").replacingOccurrences(of: "\r", with: "%0D")
    }

    static func decode(_ path: String) -> String {
        path.replacingOccurrences(of: "%0A", with: "\n").replacingOccurrences(of: "%0a", with: "\n")
            .replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0d", with: "\r")
            .replacingOccurrences(of: "%25", with: "%")
    }
}

/// A file's SHA-256 (lowercase hex) and size.
public struct FileDigest: Sendable, Hashable {
    public var sha256: String
    public var size: Int64
}
