import FerryCoreData

/// The Core Data store reader over the bytes as a store file: metadata, schema, model match, the
/// inspect report, every record and the persistent history.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStore(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "store.sqlite")
    guard let reader = try? CoreDataStoreReader(path: path) else { return 0 }
    _ = CoreDataStoreReport(reader)
    _ = try? reader.forEachRecord { _ in }
    _ = try? PersistentHistory.forEachChange(of: reader) { _ in }
    return 0
}
