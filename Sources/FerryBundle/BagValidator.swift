import Crypto
import FerryArchive
import FerryJSON
import Foundation

/// Checks a scanned bag against BagIt 1.0 and Ferry's bundle format: the declaration, every
/// manifest line against the files found (missing, extra, corrupt), Payload-Oxum, the tag
/// manifest, `bundle.json`, and the archive's seal.
struct BagValidator {
    struct Result {
        var problems: [BundleProblem]
        var bundle: JSONObject?
    }

    func validate(_ scan: BundleScan) -> Result {
        var problems = scan.problems
        let tags = scan.tagFiles

        if let declaration = tags[BundleLayout.bagitFile] {
            let fields = Dictionary(BagItFiles.parseInfo(String(decoding: declaration, as: UTF8.self)), uniquingKeysWith: { first, _ in first })
            if fields["BagIt-Version"] != "1.0" && fields["BagIt-Version"] != "0.97" {
                problems.append(BundleProblem(.malformed, BundleLayout.bagitFile, "BagIt-Version is \(fields["BagIt-Version"] ?? "absent"), not 1.0"))
            }
            if fields["Tag-File-Character-Encoding"]?.uppercased() != "UTF-8" {
                problems.append(BundleProblem(.malformed, BundleLayout.bagitFile, "Tag-File-Character-Encoding is not UTF-8"))
            }
        } else {
            problems.append(BundleProblem(.missing, BundleLayout.bagitFile, "the BagIt declaration"))
        }

        var listed: Set<String> = []
        if let manifest = tags[BundleLayout.manifestFile] {
            let (entries, manifestProblems) = BagItFiles.parseManifest(String(decoding: manifest, as: UTF8.self), file: BundleLayout.manifestFile)
            problems += manifestProblems
            for (path, sha) in entries.sorted(by: { $0.key < $1.key }) {
                listed.insert(path)
                guard path.hasPrefix("data/") else {
                    problems.append(BundleProblem(.malformed, BundleLayout.manifestFile, "lists \(path), which is not under data/"))
                    continue
                }
                guard let found = scan.files[path] else {
                    problems.append(BundleProblem(.missing, path, "listed in \(BundleLayout.manifestFile)"))
                    continue
                }
                if found.sha256 != sha { problems.append(BundleProblem(.corrupt, path, "SHA-256 is \(found.sha256), the manifest says \(sha)")) }
            }
            oxum(tags, files: scan.files, listed: listed, problems: &problems)
        } else {
            problems.append(BundleProblem(.missing, BundleLayout.manifestFile, "the payload manifest"))
        }
        for path in scan.files.keys.sorted() where path.hasPrefix("data/") && !listed.contains(path) {
            problems.append(BundleProblem(.extra, path, "in the archive but in no manifest"))
        }

        if let tagManifest = tags[BundleLayout.tagManifestFile] {
            let (entries, tagProblems) = BagItFiles.parseManifest(String(decoding: tagManifest, as: UTF8.self), file: BundleLayout.tagManifestFile)
            problems += tagProblems
            for (path, sha) in entries.sorted(by: { $0.key < $1.key }) {
                guard let found = scan.files[path] else {
                    problems.append(BundleProblem(.missing, path, "listed in \(BundleLayout.tagManifestFile)"))
                    continue
                }
                if found.sha256 != sha { problems.append(BundleProblem(.corrupt, path, "SHA-256 is \(found.sha256), the tag manifest says \(sha)")) }
            }
            for path in scan.files.keys.sorted() where !path.hasPrefix("data/") && path != BundleLayout.tagManifestFile && entries[path] == nil {
                problems.append(BundleProblem(.extra, path, "a tag file in no tag manifest"))
            }
        } else {
            problems.append(BundleProblem(.missing, BundleLayout.tagManifestFile, "the tag manifest"))
        }

        var bundle: JSONObject?
        if let bytes = tags[BundleLayout.bundleFile] {
            do {
                bundle = try JSONReader().read(bytes).object
                if !BundleLayout.readableFormats.contains(bundle?["format"]?.string ?? "") {
                    let readable = BundleLayout.readableFormats.sorted().joined(separator: " or ")
                    problems.append(BundleProblem(.malformed, BundleLayout.bundleFile, "format is \(bundle?["format"].map { JSONWriter.string($0) } ?? "absent"), not \(readable)"))
                }
            } catch {
                problems.append(BundleProblem(.malformed, BundleLayout.bundleFile, "not JSON: \(error)"))
            }
        } else {
            problems.append(BundleProblem(.missing, BundleLayout.bundleFile, "Ferry's bundle description"))
        }

        switch scan.seal {
        case .valid: break
        case .mismatch: problems.append(BundleProblem(.corrupt, nil, BundleProblem.sealMismatch + ": it changed after it was written"))
        case .absent: problems.append(BundleProblem(.corrupt, nil, "the archive has no Ferry seal, or the seal is damaged"))
        }
        return Result(problems: BundleProblem.causesFirst(Self.unique(problems), readingStopped: scan.stoppedEarly,
                                                          manifestsRead: Set(tags.keys)), bundle: bundle)
    }

    private func oxum(_ tags: [String: [UInt8]], files: [String: FileDigest], listed: Set<String>, problems: inout [BundleProblem]) {
        guard let info = tags[BundleLayout.bagInfoFile],
              let oxum = BagItFiles.parseInfo(String(decoding: info, as: UTF8.self)).first(where: { $0.0 == "Payload-Oxum" })?.1 else { return }
        let parts = oxum.split(separator: ".")
        let payload = files.filter { $0.key.hasPrefix("data/") }
        let expected = "\(payload.values.reduce(0) { $0 + $1.size }).\(payload.count)"
        if parts.count != 2 || oxum != expected {
            problems.append(BundleProblem(.malformed, BundleLayout.bagInfoFile, "Payload-Oxum is \(oxum), the payload found is \(expected)"))
        }
    }

    private static func unique(_ problems: [BundleProblem]) -> [BundleProblem] {
        var seen: Set<BundleProblem> = []
        return problems.filter { seen.insert($0).inserted }
    }
}
