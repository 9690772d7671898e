import Foundation

/// Decompresses raw DEFLATE data (RFC 1951, no zlib or gzip header): how Core Data compresses
/// the model cache in `Z_MODELCACHE`. Written here rather than linking zlib for one column;
/// output is bounded and every code is checked, so damaged input fails with a reason.
enum RawInflate {
    struct Failure: Error, Equatable, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    static func decompress(_ data: Data, maximumOutput: Int = 64 << 20) throws(Failure) -> Data {
        var state = Inflater(input: [UInt8](data), limit: maximumOutput)
        try state.run()
        return Data(state.output)
    }
}

private struct Huffman {
    /// Symbols ordered by code, and how many codes each length has (canonical Huffman).
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int] = []

    init(lengths: [Int]) throws(RawInflate.Failure) {
        for length in lengths { counts[length] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1..<16 {
            left = left * 2 - counts[length]
            if left < 0 { throw RawInflate.Failure(reason: "over-subscribed Huffman code") }
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }
}

private struct Inflater {
    let input: [UInt8]
    let limit: Int
    var output: [UInt8] = []
    var position = 0
    var bitBuffer = 0
    var bitCount = 0

    init(input: [UInt8], limit: Int) {
        self.input = input
        self.limit = limit
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                               2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    mutating func bits(_ count: Int) throws(RawInflate.Failure) -> Int {
        while bitCount < count {
            guard position < input.count else { throw RawInflate.Failure(reason: "compressed data ends too early") }
            bitBuffer |= Int(input[position]) << bitCount
            position += 1
            bitCount += 8
        }
        let value = bitBuffer & ((1 << count) - 1)
        bitBuffer >>= count
        bitCount -= count
        return value
    }

    mutating func decode(_ table: Huffman) throws(RawInflate.Failure) -> Int {
        var code = 0, first = 0, index = 0
        for length in 1..<16 {
            code |= try bits(1)
            let count = table.counts[length]
            if code - count < first { return table.symbols[index + (code - first)] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw RawInflate.Failure(reason: "invalid Huffman code")
    }

    mutating func run() throws(RawInflate.Failure) {
        var last = false
        while !last {
            last = try bits(1) == 1
            switch try bits(2) {
            case 0: try stored()
            case 1: try compressed(literal: Self.fixedLiteral, distance: Self.fixedDistance)
            case 2:
                let (literal, distance) = try dynamicTables()
                try compressed(literal: literal, distance: distance)
            default: throw RawInflate.Failure(reason: "invalid block type")
            }
        }
    }

    mutating func stored() throws(RawInflate.Failure) {
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.count else { throw RawInflate.Failure(reason: "compressed data ends too early") }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        guard length == ~complement & 0xFFFF else { throw RawInflate.Failure(reason: "stored block length is damaged") }
        position += 4
        guard position + length <= input.count else { throw RawInflate.Failure(reason: "compressed data ends too early") }
        try append(contentsOf: input[position..<position + length])
        position += length
    }

    static let fixedLiteral = try! Huffman(lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    static let fixedDistance = try! Huffman(lengths: [Int](repeating: 5, count: 30))

    mutating func dynamicTables() throws(RawInflate.Failure) -> (Huffman, Huffman) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw RawInflate.Failure(reason: "too many Huffman codes") }
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengths[Self.codeLengthOrder[index]] = try bits(3) }
        let lengthCode = try Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(lengthCode)
            switch symbol {
            case 0..<16: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw RawInflate.Failure(reason: "repeat with no previous length") }
                lengths += repeatElement(previous, count: 3 + (try bits(2)))
            case 17: lengths += repeatElement(0, count: 3 + (try bits(3)))
            default: lengths += repeatElement(0, count: 11 + (try bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw RawInflate.Failure(reason: "code lengths overrun") }
        return (try Huffman(lengths: Array(lengths[..<literalCount])), try Huffman(lengths: Array(lengths[literalCount...])))
    }

    mutating func compressed(literal: Huffman, distance: Huffman) throws(RawInflate.Failure) {
        while true {
            let symbol = try decode(literal)
            if symbol < 256 {
                try append(contentsOf: CollectionOfOne(UInt8(symbol)))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < 29 else { throw RawInflate.Failure(reason: "invalid length code") }
                let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
                let distanceSymbol = try decode(distance)
                guard distanceSymbol < 30 else { throw RawInflate.Failure(reason: "invalid distance code") }
                let back = Self.distanceBase[distanceSymbol] + (try bits(Self.distanceExtra[distanceSymbol]))
                guard back <= output.count else { throw RawInflate.Failure(reason: "distance reaches before the start") }
                guard output.count + length <= limit else { throw RawInflate.Failure(reason: "decompresses to more than \(limit) bytes") }
                let start = output.count - back
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }

    mutating func append<C: Collection>(contentsOf bytes: C) throws(RawInflate.Failure) where C.Element == UInt8 {
        guard output.count + bytes.count <= limit else { throw RawInflate.Failure(reason: "decompresses to more than \(limit) bytes") }
        output.append(contentsOf: bytes)
    }
}
