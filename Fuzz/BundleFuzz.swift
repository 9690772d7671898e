import FerryBundle

/// The bundle verifier over the bytes as a bundle file (the archive format is read from the bytes).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? BundleVerifier().verify(FuzzInput.file(data, size, name: "bundle.ferry.tar.zst"))
    return 0
}
