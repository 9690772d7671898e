import FerryCanonical

extension SourceApp {
    public static let paprika = SourceApp("paprika")
}

/// Paprika's exports: `.paprikarecipes` (a zip of gzip'd JSON, one recipe each), a single
/// `.paprikarecipe`, and zips of those made by hand. Known by content: a gzip member, or a zip
/// holding `.paprikarecipe` entries.
struct PaprikaReader: SourceReader {
    let about = ReaderInfo(.paprika, "Paprika", reads: [".paprikarecipes and .paprikarecipe exports"])

    func recognize(_ file: CandidateFile) -> RecognizedFile? {
        if file.lowercasedName.hasSuffix(".paprikarecipe"), file.isGzip { return recipe }
        guard file.isZip else { return nil }
        if file.lowercasedName.hasSuffix(".paprikarecipes") { return export }
        guard let names = file.archiveNames, names.contains(where: { $0.lowercased().hasSuffix(".paprikarecipe") }) else { return nil }
        return export
    }

    private var recipe: RecognizedFile {
        RecognizedFile(app: app, kind: ".paprikarecipe") { path, context in try PaprikaNormalizer(context: context).convertRecipeFile(path) }
    }

    private var export: RecognizedFile {
        RecognizedFile(app: app, kind: ".paprikarecipes export") { path, context in try PaprikaNormalizer(context: context).convertExport(path) }
    }
}
