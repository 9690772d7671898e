import FerryStore

/// The columns a statement reads, named by the tables' declarations (FerryStore's `…Table`s):
/// the list it selects, and each column's place in its rows, so that no reader reads a column by
/// a number of its own or names one in a string.
package struct Selection: Sendable {
    package let columns: [CanonicalColumn]
    private let places: [String: Int]

    package init(_ columns: [CanonicalColumn]) {
        self.columns = columns
        places = Dictionary(columns.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// `a, b, c`, or `x.a, x.b, x.c` through the table's alias `x`.
    package func list(_ alias: String? = nil) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return columns.map { prefix + $0.name }.joined(separator: ", ")
    }

    /// Where `column` is in the rows; a column not selected is a programming error.
    package func place(_ column: CanonicalColumn) -> Int {
        guard let place = places[column.name] else { preconditionFailure("\(column) is not selected") }
        return place
    }
}

/// One row read as text through a ``Selection``.
package struct TextRow {
    package let values: [String?]
    package let selection: Selection

    package init(values: [String?], selection: Selection) {
        self.values = values
        self.selection = selection
    }

    package subscript(_ column: CanonicalColumn) -> String? { values[selection.place(column)] }

    /// A value the statement computes after the selected columns (`EXISTS …`).
    package func computed(_ index: Int) -> String? { values[selection.columns.count + index] }
}
