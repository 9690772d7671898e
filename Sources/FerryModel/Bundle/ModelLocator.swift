import Foundation

/// Works out what a path holds: a bundle of versions, one version folder, or a `contents` file.
struct ModelLocator {
    struct Found {
        var layout: ModelBundle.Layout
        var versions: [ModelVersion]
        var declaredCurrentVersion: String?
        /// Why `.xccurrentversion` gave no name, when it did not.
        var currentVersionProblem: String?
        var currentVersionFile: String
    }

    let path: String
    private let files = FileManager.default

    func locate() throws(ModelError) -> Found {
        try locate(path: path, display: path, depth: 0)
    }

    private func locate(path: String, display: String, depth: Int) throws(ModelError) -> Found {
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelError(.fileNotFound, at: ModelLocation(file: display))
        }
        guard isDirectory.boolValue else {
            let url = URL(fileURLWithPath: path)
            let folder = url.deletingLastPathComponent().lastPathComponent
            let name = folder.hasSuffix(".xcdatamodel") ? ModelBundle.versionName(folder)
                : url.deletingPathExtension().lastPathComponent
            var version = ModelVersion(name: name, contentsPath: path, displayPath: display)
            // An Xcode 3 version's `elements` file named on its own.
            if url.lastPathComponent == "elements" { version.format = .xcode3Archive }
            return Found(layout: .contentsFile, versions: [version], currentVersionFile: display)
        }
        let entries = (try? files.contentsOfDirectory(atPath: path)) ?? []
        let names = Set(entries)
        if names.contains("contents") {
            let name = ModelBundle.versionName(URL(fileURLWithPath: path).lastPathComponent)
            let version = ModelVersion(name: name, contentsPath: join(path, "contents"), displayPath: join(display, "contents"))
            return Found(layout: .versionFolder, versions: [version], currentVersionFile: display)
        }
        if names.contains("elements") {
            let name = ModelBundle.versionName(URL(fileURLWithPath: path).lastPathComponent)
            var version = ModelVersion(name: name, contentsPath: join(path, "elements"), displayPath: join(display, "elements"))
            version.format = .xcode3Archive
            return Found(layout: .versionFolder, versions: [version], currentVersionFile: display)
        }
        if names.contains("layout") {
            throw ModelError(.xcode3LayoutOnly, at: ModelLocation(file: display))
        }
        if names.contains("VersionInfo.plist") || entries.contains(where: { $0.hasSuffix(".mom") }) {
            throw ModelError(.compiledModel, at: ModelLocation(file: display))
        }
        let versionFolders = entries.filter { $0.hasSuffix(".xcdatamodel") }
        if !versionFolders.isEmpty || names.contains(".xccurrentversion") {
            return try bundle(path: path, display: display, versionFolders: versionFolders)
        }
        // A folder that holds exactly one model (a project folder, an unpacked archive): look inside.
        let models = entries.filter { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }
        if models.count == 1, depth < 4 {
            return try locate(path: join(path, models[0]), display: join(display, models[0]), depth: depth + 1)
        }
        throw ModelError(.notAModel, at: ModelLocation(file: display))
    }

    private func bundle(path: String, display: String, versionFolders: [String]) throws(ModelError) -> Found {
        var versions: [ModelVersion] = []
        for folder in versionFolders {
            let folderPath = join(path, folder)
            let contents = join(folderPath, "contents")
            var version = ModelVersion(name: ModelBundle.versionName(folder), contentsPath: contents,
                                       displayPath: join(join(display, folder), "contents"))
            // A bundle made with Xcode 3 holds versions saved as `elements`, and may mix both kinds.
            if !files.fileExists(atPath: contents) {
                if files.fileExists(atPath: join(folderPath, "elements")) {
                    version.contentsPath = join(folderPath, "elements")
                    version.displayPath = join(join(display, folder), "elements")
                    version.format = .xcode3Archive
                } else if files.fileExists(atPath: join(folderPath, "layout")) {
                    throw ModelError(.xcode3LayoutOnly, at: ModelLocation(file: join(display, folder)))
                }
            }
            versions.append(version)
        }
        let currentFile = join(path, ".xccurrentversion")
        let currentDisplay = join(display, ".xccurrentversion")
        var found = Found(layout: .bundle, versions: versions, currentVersionFile: currentDisplay)
        guard let data = files.contents(atPath: currentFile) else {
            found.currentVersionProblem = "has no .xccurrentversion file"
            found.currentVersionFile = display
            return found
        }
        let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard let dictionary = plist as? [String: Any] else {
            found.currentVersionProblem = "is not a readable property list"
            return found
        }
        if let name = dictionary["_XCCurrentVersionName"] as? String, !name.isEmpty {
            found.declaredCurrentVersion = name
        } else {
            found.currentVersionProblem = dictionary.isEmpty ? "names no current version (empty dictionary)" : "has no _XCCurrentVersionName"
        }
        return found
    }

    private func join(_ base: String, _ component: String) -> String {
        base.hasSuffix("/") ? base + component : base + "/" + component
    }
}
