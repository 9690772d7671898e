/// Where things are in a bundle: a BagIt 1.0 bag under one top-level folder. Specification:
/// `Formats/bundle.md`.
public enum BundleLayout {
    /// What `export` writes.
    public static let format = "ferry.bundle/2"
    /// What `verify` and `import` read: version 1 kept each table in one file and its tag files
    /// before the payload; both hold the same snapshot.
    public static let readableFormats: Set<String> = ["ferry.bundle/1", format]
    public static let bagitFile = "bagit.txt"
    public static let bagInfoFile = "bag-info.txt"
    public static let bundleFile = "bundle.json"
    public static let manifestFile = "manifest-sha256.txt"
    public static let tagManifestFile = "tagmanifest-sha256.txt"

    public static let storeSnapshot = "data/store.sqlite"
    public static let tablesFolder = "data/tables"
    public static let attachmentsFolder = "data/attachments"

    /// A table's rows are cut into parts of at most this many bytes (a part holds at least one
    /// row): the archive needs each file's size before its bytes, and a part is made in memory.
    public static let tablePartBytes = 16 << 20

    /// The `number`th part (from 1) of a table's rows: the names sort in row order.
    public static func tablePart(_ table: String, _ number: Int) -> String {
        let digits = String(number)
        return "\(tablesFolder)/\(table)/\(String(repeating: "0", count: max(0, 6 - digits.count)))\(digits).ndjson"
    }

    /// With CSV, a table's NDJSON and CSV are cut at the same rows, NDJSON parts of at most this
    /// many bytes (unless one line is longer), each followed by the CSV part of its rows.
    public static let pairedPartBytes = 256 << 10

    /// The `number`th CSV part (from 1) of a table's rows, each starting with the header.
    public static func csvPart(_ table: String, _ number: Int) -> String {
        let digits = String(number)
        return "\(formatsFolder)/csv/\(table)/\(String(repeating: "0", count: max(0, 6 - digits.count)))\(digits).csv"
    }

    /// Other apps' formats of the data (Formats/export-formats.md), and the Data Package that
    /// describes the tables for tools that read Frictionless Data.
    public static let formatsFolder = "data/formats"
    public static let dataPackage = "data/datapackage.json"
    public static let fidelityFile = "data/formats/fidelity.json"

    public static func attachmentFile(_ sha256: String) -> String { "\(attachmentsFolder)/\(sha256)" }
}
