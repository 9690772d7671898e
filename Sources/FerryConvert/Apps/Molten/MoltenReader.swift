import FerryCanonical
import FerryCoreData

extension SourceApp {
    public static let molten = SourceApp("molten")
}

/// Molten's `.molten` exports, its plan and catalog JSON, and its stores.
struct MoltenReader: SourceReader {
    let about = ReaderInfo(.molten, "Molten", reads: [".molten exports", "Molten plan and catalog JSON"])

    func recognize(_ file: CandidateFile) -> RecognizedFile? {
        if file.lowercasedName.hasSuffix(".molten") { return export }
        guard file.isNamedJSON, let (object, inArray) = file.firstObject, !inArray else { return nil }
        if object["glassitems"] != nil || object["colors"] != nil { return catalog }
        if object["glassItems"] != nil || object["planType"] != nil || (object["steps"] != nil && object["coe"] != nil) { return plan }
        return nil
    }

    /// Any JSON object, named as Molten's, is read as a plan, whose reader says what is missing.
    func assume(_ file: CandidateFile) -> RecognizedFile? {
        guard file.isNamedJSON, case .record = file.firstRecord else { return nil }
        return plan
    }

    private var export: RecognizedFile {
        RecognizedFile(app: app, kind: ".molten export") { path, context in try MoltenNormalizer(context: context).convertExport(path) }
    }

    private var catalog: RecognizedFile {
        RecognizedFile(app: app, kind: "glass catalog") { path, context in
            try MoltenNormalizer(context: context).convertCatalog(try JSONDocuments.read(path))
        }
    }

    private var plan: RecognizedFile {
        RecognizedFile(app: app, kind: "plan.json") { path, context in
            try MoltenNormalizer(context: context).convertPlanJSON(try JSONDocuments.read(path), images: [:])
        }
    }

    var stores: (any AppStoreReader)? { MoltenStores() }
}

struct MoltenStores: AppStoreReader {
    /// Molten's first versions (Flameworker 3, 4) held only the catalog and inventory.
    func recognizes(entities: Set<String>) -> Bool {
        !entities.isDisjoint(with: ["ProjectPlan", "ProjectLog", "Logbook", "GlassItem", "ProjectStepGlassItem", "CatalogItemOverride", "CatalogItemParent"])
    }

    /// Without a model a store's to-manys are unknown: children are found by their link to the
    /// owner, so they are held and the owners' links to them kept.
    func index(_ reader: CoreDataStoreReader) throws -> CoreDataRecordIndex {
        let inferred = reader.schemaSource == .inferred
        return try CoreDataRecordIndex(reader: reader, streaming: inferred ? [] : MoltenStoreReader.streamedEntities,
                                       inlining: inferred ? [] : MoltenStoreReader.children(in: reader.model))
    }

    func convert(_ index: CoreDataRecordIndex, time: String, context: ConversionContext, options: ConversionOptions) throws {
        try MoltenStoreReader(context: context, index: index, time: time).convert()
    }
}
