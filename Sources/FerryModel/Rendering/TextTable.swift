/// Left-aligned columns padded to their widest cell, for terminal tables.
struct TextTable {
    private var rows: [[String]] = []

    mutating func add(_ cells: String...) { rows.append(cells) }

    var isEmpty: Bool { rows.isEmpty }

    func render(indent: String = "  ") -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { row in
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(to: widths[index])
            }
            return indent + cells.joined(separator: "  ")
        }
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
