/// Where a legacy value was found: the file, the record (by position and by id) and the field.
///
/// Its `description` is the prefix of every legacy read error, for example
/// `tasks.json: record 17: id 3F2A…: field "recurrence.end"`.
public struct RecordLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var record: Int?
    public var key: String?
    public var field: String?

    public init(file: String, record: Int? = nil, key: String? = nil, field: String? = nil) {
        self.file = file
        self.record = record
        self.key = key
        self.field = field
    }

    public var description: String {
        [file, record.map { "record \($0)" }, key.map { "id \($0)" }, field.map { "field \"\($0)\"" }]
            .compactMap { $0 }.joined(separator: ": ")
    }
}
