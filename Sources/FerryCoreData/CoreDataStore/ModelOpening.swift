import FerryModel
import Foundation

extension ModelBundle {
    /// Opens a model as the user names it: a source model (``ModelBundle/init(at:xcode3Reader:)``,
    /// Xcode 3's `elements` files included) or a compiled `.momd` / `.mom`, whose versions are
    /// decoded from their keyed archives.
    /// - Throws: ``ModelError`` for a source model, ``CoreDataReadError`` for a compiled one.
    public static func opening(_ path: String) throws -> ModelBundle {
        if path.hasSuffix(".omo") {
            throw CoreDataReadError(.badModel("an optimized model (.omo) is Core Data's undocumented binary form of a .mom, and "
                + "Ferry cannot read it; give the .mom beside it, or the .momd that holds both"), file: path)
        }
        guard isCompiled(path) else { return try ModelBundle(at: path, xcode3Reader: Xcode3ModelArchive.read) }
        let compiled = try CompiledModel(at: path)
        let versions = try compiled.versionNames.map { name in
            (name: name, file: compiled.momPath(of: name) ?? path, model: try compiled.model(version: name))
        }
        return try ModelBundle(compiled: path, versions: versions, current: compiled.currentVersionName)
    }

    /// A `.momd` folder or a `.mom` file.
    public static func isCompiled(_ path: String) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.hasSuffix(".momd") || trimmed.hasSuffix(".mom")
    }
}
