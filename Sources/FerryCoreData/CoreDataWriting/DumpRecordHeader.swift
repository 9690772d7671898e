import FerryJSON

/// A dump record's `entity`, `id` and `pk`, read without reading its values: what the first of
/// ``CoreDataDumpLoader``'s passes needs of each record, at a tenth of reading it whole.
///
/// Only the plain case is read so: members known to a dump record, the three wanted ones plain
/// text and a whole number, `values` and `orders` objects, `opt` a number, nothing after the
/// record. For anything else ``scan(_:)`` gives nil, and the caller reads the record whole,
/// which accepts or refuses it and says why. The values skipped are read whole in the next pass.
struct DumpRecordHeader {
    var entity: UnsafeBufferPointer<UInt8>
    var id: UnsafeBufferPointer<UInt8>
    var primaryKey: Int64?

    static func scan(_ line: UnsafeBufferPointer<UInt8>) -> DumpRecordHeader? {
        try? read(line)
    }

    private static func read(_ line: UnsafeBufferPointer<UInt8>) throws(JSONInPlaceReader.GiveUp) -> DumpRecordHeader {
        var reader = JSONInPlaceReader(line)
        var entity: UnsafeBufferPointer<UInt8>?, id: UnsafeBufferPointer<UInt8>?, primaryKey: Int64?
        var seen: UInt8 = 0
        func first(_ bit: UInt8) throws(JSONInPlaceReader.GiveUp) {
            guard seen & bit == 0 else { throw JSONInPlaceReader.GiveUp() }
            seen |= bit
        }
        try reader.beginObject()
        while let key = try reader.nextKey() {
            switch String(decoding: key, as: UTF8.self) {
            case "entity": try first(1); entity = try reader.string()
            case "id": try first(2); id = try reader.string()
            case "pk":
                try first(4)
                guard let value = Int64(String(decoding: try reader.number(), as: UTF8.self)) else { throw JSONInPlaceReader.GiveUp() }
                primaryKey = value
            case "values":
                try first(8)
                guard reader.peekValue() == UInt8(ascii: "{") else { throw JSONInPlaceReader.GiveUp() }
                try reader.skipContainerUnchecked()
            case "orders":
                try first(16)
                guard reader.peekValue() == UInt8(ascii: "{") else { throw JSONInPlaceReader.GiveUp() }
                try reader.skipContainerUnchecked()
            case "opt": try first(32); _ = try reader.number()
            default: throw JSONInPlaceReader.GiveUp()
            }
        }
        guard reader.peekValue() == nil, let entity, let id else { throw JSONInPlaceReader.GiveUp() }
        return DumpRecordHeader(entity: entity, id: id, primaryKey: primaryKey)
    }
}
