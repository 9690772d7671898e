import Foundation

/// Where tests find the package, its fixtures and the shared corpus beside every checkout.
public enum TestPaths {
    /// The package root, found from this file's location.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` next to the checkout, or `FERRY_SHARED` when set.
    public static let shared: URL = {
        if let path = ProcessInfo.processInfo.environment["FERRY_SHARED"] { return URL(fileURLWithPath: path) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    public static let corpus = shared.appendingPathComponent("corpus")

    /// The `Fixtures` folder of a test target, e.g. `fixtures("FerryModelTests")`.
    public static func fixtures(_ target: String) -> URL {
        packageRoot.appendingPathComponent("Tests").appendingPathComponent(target).appendingPathComponent("Fixtures")
    }

    public static let samples = packageRoot.appendingPathComponent("Samples")
    public static let formats = packageRoot.appendingPathComponent("Formats")

    /// Every file under `directory` whose name satisfies `include`, sorted, as paths.
    public static func files(under directory: URL, where include: (String) -> Bool) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var result: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if include((relative as NSString).lastPathComponent) {
                result.append(directory.appendingPathComponent(relative).path)
            }
        }
        return result.sorted()
    }
}
