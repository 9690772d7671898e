import FerryJSON

/// The JSON reader on the bytes as given, then the record stream over the same bytes as a file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let value = try? JSONReader().read(bytes) {
        // What was read must write and read back to the same value.
        let text = JSONWriter.string(value, sortedKeys: false)
        guard (try? JSONReader().read(Array(text.utf8))) == value else { fatalError("JSON round trip changed \(text)") }
    }
    let path = FuzzInput.file(data, size, name: "records.json")
    if let stream = try? JSONRecordStream(path: path, chunkSize: 64) {
        while let record = try? stream.next(), record.number < 10_000 {}
    }
    return 0
}
