import GRDB

/// The rows of an entity table whose `Z_ENT` names none of the entities stored there: rows
/// another tool wrote, or an old model's, or a damaged store's.
struct StrayRows {
    let table: String
    /// The `Z_ENT` values found, NULL as nil.
    let values: [Int64?]
    let count: Int64
    let firstKey: Int64

    /// `(NULL, 9)`: the values as a message shows them.
    var valuesText: String { values.map { $0.map(String.init) ?? "NULL" }.joined(separator: ", ") }

    var description: String {
        "\(table): \(count) row(s) whose Z_ENT (\(valuesText)) names no entity stored in the table (first Z_PK \(firstKey))"
    }

    /// Nil when every row's `Z_ENT` is one of `numbers`.
    static func find(in table: String, numbers: [Int], db: Database) throws -> StrayRows? {
        let known = numbers.isEmpty ? "" : "Z_ENT NOT IN (\(numbers.map(String.init).joined(separator: ", "))) OR "
        let found = try Row.fetchAll(db, sql: """
            SELECT Z_ENT, count(*), min(Z_PK) FROM \(SQLName.quoted(table))
            WHERE \(known)Z_ENT IS NULL GROUP BY Z_ENT ORDER BY Z_ENT
            """)
        guard !found.isEmpty else { return nil }
        return StrayRows(table: table, values: found.map { CoreDataStoreValue.integer($0[0]) },
                         count: found.reduce(0) { $0 + (CoreDataStoreValue.integer($1[1]) ?? 0) },
                         firstKey: found.compactMap { CoreDataStoreValue.integer($0[2]) }.min() ?? 0)
    }
}
