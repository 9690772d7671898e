import FerryCoreData
import Foundation

/// The binary property list reader, the keyed-archive decoder and the compiled-model decoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPropertyList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = try? BinaryPropertyList.read(bytes)
    _ = KeyedArchiveDecoder().decode(bytes)
    _ = try? ArchivedModel.decode(bytes, file: "fuzz.mom")
    return 0
}
