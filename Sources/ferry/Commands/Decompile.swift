import ArgumentParser
import FerryCoreData
import FerryModel
import Foundation

extension Ferry {
    struct Decompile: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a compiled model (.momd or .mom) back as an editable .xcdatamodeld.",
            discussion: """
                Every version is decoded from its keyed archive and written as Xcode's contents XML; the current \
                version (VersionInfo.plist's) goes into .xccurrentversion. What compiling drops is absent: Xcode's \
                layout, the tools version, code generation; class names are the runtime classes. The entity version \
                hashes of the written model equal the compiled ones (check with ferry inspect --hashes).

                Example: ferry decompile App.app/Model.momd -o Model.xcdatamodeld
                """)

        @Argument(help: "The compiled model: an .momd folder or an .mom file.", completion: .file())
        var model: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The .xcdatamodeld to write (it must not exist).", valueName: "path"),
                completion: .file())
        var output: String

        func validate() throws {
            guard output.hasSuffix(".xcdatamodeld") else { throw ValidationError("--output must name an .xcdatamodeld folder") }
        }

        func run() throws {
            // Missing is missing (66); anything else that is no compiled model is the wrong kind (65).
            guard FileManager.default.fileExists(atPath: model) else { throw ModelError(.fileNotFound, at: ModelLocation(file: model)) }
            guard ModelBundle.isCompiled(model) else {
                throw ModelError(.notACompiledModel, at: ModelLocation(file: model))
            }
            LeftoverNotice.sweep(beside: output)
            let bundle = try ModelBundle.opening(model)
            let versions = try bundle.versions.map { (name: $0.name, model: try bundle.load($0)) }
            try ModelXMLWriter().writeBundle(versions, current: bundle.currentVersion.name, to: output)
            Console.error("ferry: wrote \(output) (\(versions.count) version\(versions.count == 1 ? "" : "s"), current \"\(bundle.currentVersion.name)\")")
        }
    }
}
