import FerryCanonical
import FerryJSON
import FerrySystem

/// A brew log detail DTO read where it lies in a stream's buffer (``JSONInPlaceReader``), in
/// the shapes BrewGuide's encoder writes: `{summary: {id, timestamp, method, recipeNameAtBrew,
/// rating, tasteTag, recipeId}, doseGrams, targetYieldGrams, waterTemperatureCelsius,
/// grindLabel, note}` or the summary alone with the rest beside its fields, in any key order
/// and spacing, fields left out: building each record's JSON tree was most of the reading.
///
/// A record it does not take whole is left to the general reading, which reads every form and
/// names every error: another key (kept there in extras), another type, a null, an escape, an
/// id not in canonical form, a rating out of range, a number past 15 digits. What it takes, the
/// normalizer makes exactly as the general reading would (`BrewLogInPlaceTests` compares them).
struct BrewLogInPlace {
    var id: String
    var timestamp: Double?
    var method: String?
    var recipeName: String?
    var rating: Int64?
    var tasteTag: String?
    var recipeID: String?
    var note: String?
    var dose: Double?
    var yield: Double?
    var temperature: Double?
    var grind: String?
    /// Set when the time is known as Unix seconds (a store's date), rather than a DTO's number.
    var unixTime: Double? = nil

    /// The log at the start of `bytes` and its length, or nil to leave it to the general reading.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> (made: BrewLogInPlace, length: Int)? {
        var reader = JSONInPlaceReader(bytes)
        do {
            var outer = Members(), summary = Members()
            try outer.read(&reader, nested: &summary)
            guard let log = resolve(outer: outer, summary: summary) else { return nil }
            return (log, reader.position)
        } catch {
            return nil
        }
    }

    /// Where each field comes from, as the general reading takes them: the summary's fields,
    /// the brew parameters and note beside it (or, flat, all in one object).
    private static func resolve(outer: Members, summary: Members) -> BrewLogInPlace? {
        let fields: Members, beside: Members
        if outer.has(.summary) {
            // Beside the summary only the parameters and the note; a parameter in both places, or
            // only some beside it, leaves one of them unread (extras): the general reading keeps it.
            guard outer.seen & ~Field.besideSummary == 0 else { return nil }
            let parametersBeside = outer.has(.doseGrams)
            guard (parametersBeside ? summary : outer).seen & Field.parameters == 0, !(outer.has(.note) && summary.has(.note)) else {
                return nil
            }
            (fields, beside) = (summary, outer)
        } else {
            // A flat log is told by its recipe name.
            guard outer.has(.recipeNameAtBrew) else { return nil }
            (fields, beside) = (outer, Members())
        }
        guard fields.has(.id) else { return nil }
        var log = fields.log
        if let note = beside.log.note { log.note = note }
        if beside.has(.doseGrams) {
            (log.dose, log.yield, log.temperature, log.grind) = (beside.log.dose, beside.log.yield, beside.log.temperature, beside.log.grind)
        }
        return log
    }

    private enum Field: Int {
        case id, timestamp, method, recipeNameAtBrew, rating, tasteTag, recipeId, note
        case doseGrams, targetYieldGrams, waterTemperatureCelsius, grindLabel, summary

        var bit: UInt16 { 1 << UInt16(rawValue) }
        static let parameters = doseGrams.bit | targetYieldGrams.bit | waterTemperatureCelsius.bit | grindLabel.bit
        static let besideSummary = parameters | note.bit | summary.bit

        /// The field a key names; nil for any other key.
        init?(key: UnsafeBufferPointer<UInt8>) {
            func named(_ name: StaticString) -> Bool {
                name.utf8CodeUnitCount == key.count && memcmp(name.utf8Start, key.baseAddress!, key.count) == 0
            }
            let field: Field
            switch key.count {
            case 2 where named("id"): field = .id
            case 4 where named("note"): field = .note
            case 6 where named("method"): field = .method
            case 6 where named("rating"): field = .rating
            case 7 where named("summary"): field = .summary
            case 8 where named("recipeId"): field = .recipeId
            case 8 where named("tasteTag"): field = .tasteTag
            case 9 where named("timestamp"): field = .timestamp
            case 9 where named("doseGrams"): field = .doseGrams
            case 10 where named("grindLabel"): field = .grindLabel
            case 16 where named("recipeNameAtBrew"): field = .recipeNameAtBrew
            case 16 where named("targetYieldGrams"): field = .targetYieldGrams
            case 23 where named("waterTemperatureCelsius"): field = .waterTemperatureCelsius
            default: return nil
            }
            self = field
        }
    }

    /// The fields of one object, each read as the type the general reading takes from it.
    private struct Members {
        var seen: UInt16 = 0
        /// What was read so far; the id is empty until ``seen`` has it.
        var log = BrewLogInPlace(id: "")

        func has(_ field: Field) -> Bool { seen & field.bit != 0 }

        /// Reads the object at the reader; `nested` takes the summary inside it, once.
        mutating func read(_ reader: inout JSONInPlaceReader, nested: inout Members) throws(JSONInPlaceReader.GiveUp) {
            try reader.beginObject()
            while let key = try reader.nextKey() {
                guard let field = Field(key: key), !has(field) else { throw JSONInPlaceReader.GiveUp() }
                seen |= field.bit
                switch field {
                case .id: log.id = try Self.uuid(&reader)
                case .recipeId: log.recipeID = try Self.uuid(&reader)
                case .timestamp: log.timestamp = try Self.number(&reader)
                case .doseGrams: log.dose = try Self.number(&reader)
                case .targetYieldGrams: log.yield = try Self.number(&reader)
                case .waterTemperatureCelsius: log.temperature = try Self.number(&reader)
                case .rating: log.rating = try Self.rating(&reader)
                case .method: log.method = try Self.text(&reader)
                case .recipeNameAtBrew: log.recipeName = try Self.text(&reader)
                case .tasteTag: log.tasteTag = try Self.text(&reader)
                case .note: log.note = try Self.text(&reader)
                case .grindLabel: log.grind = try Self.text(&reader)
                case .summary:
                    var none = Members()
                    guard nested.seen == 0 else { throw JSONInPlaceReader.GiveUp() }
                    try nested.read(&reader, nested: &none)
                    // A summary inside the summary is not a brew log's.
                    guard none.seen == 0, !nested.has(.summary) else { throw JSONInPlaceReader.GiveUp() }
                }
            }
        }

        private static func text(_ reader: inout JSONInPlaceReader) throws(JSONInPlaceReader.GiveUp) -> String {
            String(decoding: try reader.string(), as: UTF8.self)
        }

        /// A UUID already in canonical form (8-4-4-4-12 upper-case hex digits), as the app writes them.
        private static func uuid(_ reader: inout JSONInPlaceReader) throws(JSONInPlaceReader.GiveUp) -> String {
            let bytes = try reader.string()
            guard bytes.count == 36 else { throw JSONInPlaceReader.GiveUp() }
            for index in 0..<36 {
                let byte = bytes[index]
                let hyphen = index == 8 || index == 13 || index == 18 || index == 23
                guard hyphen ? byte == 0x2D : ((0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)) else { throw JSONInPlaceReader.GiveUp() }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        private static func number(_ reader: inout JSONInPlaceReader) throws(JSONInPlaceReader.GiveUp) -> Double {
            guard let value = JSONNumber.shortDecimal(try reader.number()) else { throw JSONInPlaceReader.GiveUp() }
            return value
        }

        /// A rating as digits, 1 to 5.
        private static func rating(_ reader: inout JSONInPlaceReader) throws(JSONInPlaceReader.GiveUp) -> Int64 {
            let bytes = try reader.number()
            guard bytes.count == 1, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(bytes[0]) else { throw JSONInPlaceReader.GiveUp() }
            return Int64(bytes[0] - UInt8(ascii: "0"))
        }
    }
}

