/// A table or column name a store gave, made safe to put in SQL: a store may name anything.
enum SQLName {
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A name without the numeric suffix Core Data adds to keep names unique (`Z_3ASSETS1`).
    static func unsuffixed(_ name: String) -> String {
        String(name.dropLast(name.reversed().prefix { $0.isASCII && $0.isNumber }.count))
    }
}
