import FerryCoreData
import FerryModel
import FerryTestSupport
import FerryTestTraits
import Foundation
import GRDB
import Testing

/// The SQL Core Data ran to create each real store of the corpus that has its model, predicted
/// from the model: every `CREATE` statement in its words, and in its order where no migration
/// has changed the file since.
@Suite struct SchemaSQLCorpusTests {
    struct Created: Equatable, CustomStringConvertible {
        var sql: String
        var description: String { sql }
    }

    /// The store's `CREATE` statements in creation order (SQLite's own autoindexes left out), and
    /// whether the file is as it was created: root pages rise one by one from 3 in that order
    /// (auto-vacuum keeps page 2), which an `ALTER`, `DROP` or re-creation breaks.
    static func created(_ path: String) throws -> (statements: [String], untouched: Bool) {
        let directory = TemporaryDirectory()
        let queue = try DatabaseQueue(path: try writableCopy(of: path, into: directory))
        let rows = try queue.read { try Row.fetchAll($0, sql: "SELECT sql, rootpage FROM sqlite_master ORDER BY rowid") }
        let pages = rows.compactMap { $0["rootpage"] as Int? }.filter { $0 > 0 }
        return (rows.compactMap { $0["sql"] as String? }, pages == Array(3..<(3 + pages.count)))
    }

    static func predicted(_ store: CorpusStore) throws -> CoreDataSchemaSQL {
        let reader = try CoreDataStoreReader(path: store.storePath, model: store.modelPath)
        let framework = try #require(reader.metadata.frameworkVersion.flatMap { Int($0) })
        let layout = CoreDataSQLLayout(model: reader.model, frameworkVersion: framework)
        let history = reader.schema.tables.contains { $0.name == "ATRANSACTION" }
        return CoreDataSchemaSQL(model: reader.model, layout: layout, frameworkVersion: framework, history: history)
    }

    @Test(.needsCorpus, arguments: SQLLayoutCorpusTests.storesWithModels)
    func everyPredictedStatementIsTheStoresOwn(_ store: CorpusStore) throws {
        let schema = try Self.predicted(store)
        let real = try Self.created(store.storePath)
        let missing = schema.statements.map(\.sql).filter { !real.statements.contains($0) }
        #expect(missing == [], "\(store.testDescription)")
        if real.untouched {
            #expect(real.statements.map(Self.place) == schema.statements.map(\.sql).map(Self.place), "\(store.testDescription): order")
        }
        #expect(schema.notWritten == [])
    }

    /// A statement where order is compared: join tables of one entity, and their indexes, in an
    /// order not yet explained (Wire 2.3), stand for their owner's number.
    static func place(_ sql: String) -> String {
        let words = sql.split(separator: " ")
        guard words.count > 2, words[2].hasPrefix("Z_"), words[2].dropFirst(2).first?.isNumber == true else { return sql }
        let owner = words[2].dropFirst(2).prefix { $0.isNumber }
        return "\(words[0]) \(words[1]) of entity \(owner)'s join tables"
    }

    /// What a store holds beyond the prediction is a migration's leftovers, each of a known kind.
    @Test(.needsCorpus, arguments: SQLLayoutCorpusTests.storesWithModels)
    func everyOtherStatementIsAMigrationsLeftover(_ store: CorpusStore) throws {
        let schema = try Self.predicted(store)
        let real = try Self.created(store.storePath)
        let extra = real.statements.filter { !schema.statements.map(\.sql).contains($0) }
        if real.untouched { #expect(extra == []) }
        for statement in extra {
            let kind = SchemaLeftover(statement)
            #expect(kind != nil, "\(store.testDescription): unclassified \(statement)")
        }
    }
}

/// Statements an in-place migration leaves that a new store would not have.
enum SchemaLeftover: Equatable {
    /// A table-and-column index name (`ZUSER_ZNAME_INDEX`, `ZCONVERSATION_ZA_ZB`) kept from
    /// before framework 800, beside its entity-named successor.
    case tableNamedIndex

    init?(_ sql: String) {
        let words = sql.split(separator: " ")
        guard words.count > 4, words[0] == "CREATE", words[1] == "INDEX", !words[2].hasPrefix("Z_") else { return nil }
        self = .tableNamedIndex
    }
}
