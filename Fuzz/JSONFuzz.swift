import FerryJSON

/// The JSON reader on the bytes as given, then the record stream over the same bytes as a file,
/// then the in-place reader, whose every accepted object JSONReader must read the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let value = try? JSONReader().read(bytes) {
        // What was read must write and read back to the same value.
        let text = JSONWriter.string(value, sortedKeys: false)
        guard (try? JSONReader().read(Array(text.utf8))) == value else { fatalError("JSON round trip changed \(text)") }
    }
    if let (members, length) = inPlaceMembers(bytes) {
        guard case .object(let object)? = try? JSONReader().read(UnsafeBufferPointer(rebasing: bytes[0..<length])),
              flattened(object) == members else {
            fatalError("read in place, JSONReader disagrees: \(String(decoding: bytes.prefix(length), as: UTF8.self))")
        }
    }
    let path = FuzzInput.file(data, size, name: "records.json")
    if let stream = try? JSONRecordStream(path: path, chunkSize: 64) {
        while let record = try? stream.next(), record.number < 10_000 {}
    }
    // As a JSON-LD document's graph, node by node (the members around it read once), in small
    // chunks and in one, so the probe meets both a cut buffer and a whole one.
    for chunkSize in [64, 1 << 20] {
        if let stream = try? JSONRecordStream(path: path, chunkSize: chunkSize, elementsOf: "@graph") {
            while let record = try? stream.next(), record.number < 10_000 {}
        }
    }
    // And the stream again, each record offered to the in-place reader first.
    if let stream = try? JSONRecordStream(path: path, chunkSize: 64) {
        var records = 0
        while records < 10_000, let next = try? stream.next(readingInPlace: { inPlaceMembers($0)?.length }) {
            _ = next
            records += 1
        }
    }
    return 0
}

/// Every member of the object at the start of `bytes` (nested objects' as `outer.inner`), strings
/// and numbers as their bytes, and the object's length; nil when the in-place reader gives up, or
/// on a key twice in one object, which its callers refuse themselves.
private func inPlaceMembers(_ bytes: UnsafeBufferPointer<UInt8>) -> (members: [String], length: Int)? {
    var reader = JSONInPlaceReader(bytes)
    var found: [String] = []
    func object(_ prefix: String, depth: Int) throws(JSONInPlaceReader.GiveUp) {
        try reader.beginObject()
        var keys: Set<String> = []
        while let key = try reader.nextKey() {
            guard keys.insert(String(decoding: key, as: UTF8.self)).inserted else { throw JSONInPlaceReader.GiveUp() }
            let name = prefix + String(decoding: key, as: UTF8.self)
            switch reader.peekValue() {
            case UInt8(ascii: "{"):
                guard depth < 32 else { throw JSONInPlaceReader.GiveUp() }
                try object(name + ".", depth: depth + 1)
            case UInt8(ascii: "\""): found.append("\(name)=\"\(String(decoding: try reader.string(), as: UTF8.self))\"")
            default: found.append("\(name)=\(String(decoding: try reader.number(), as: UTF8.self))")
            }
        }
    }
    do {
        try object("", depth: 0)
        return (found, reader.position)
    } catch {
        return nil
    }
}

private func flattened(_ object: JSONObject, _ prefix: String = "") -> [String] {
    object.members.flatMap { member -> [String] in
        switch member.value {
        case .object(let inner): return flattened(inner, prefix + member.key + ".")
        case .string(let text): return ["\(prefix)\(member.key)=\"\(text)\""]
        case .number(let number): return ["\(prefix)\(member.key)=\(number.text)"]
        default: return ["\(prefix)\(member.key)=?"]
        }
    }
}
