/// Where things are in a bundle: a BagIt 1.0 bag under one top-level folder. Specification:
/// `Formats/bundle.md`.
public enum BundleLayout {
    public static let format = "ferry.bundle/1"
    public static let bagitFile = "bagit.txt"
    public static let bagInfoFile = "bag-info.txt"
    public static let bundleFile = "bundle.json"
    public static let manifestFile = "manifest-sha256.txt"
    public static let tagManifestFile = "tagmanifest-sha256.txt"
    /// Tag files in the order they are archived: before the payload, so a reader meets the
    /// manifests before the files they list.
    public static let tagFiles = [bagitFile, bagInfoFile, bundleFile, manifestFile, tagManifestFile]

    public static let storeSnapshot = "data/store.sqlite"
    public static let tablesFolder = "data/tables"
    public static let attachmentsFolder = "data/attachments"

    public static func tableFile(_ table: String) -> String { "\(tablesFolder)/\(table).ndjson" }
    public static func attachmentFile(_ sha256: String) -> String { "\(attachmentsFolder)/\(sha256)" }
}
