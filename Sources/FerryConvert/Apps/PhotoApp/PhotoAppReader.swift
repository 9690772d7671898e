import FerryCanonical
import FerryCoreData

extension SourceApp {
    public static let photoapp = SourceApp("photoapp")
}

/// PhotoApp's swipe sessions and photo actions live in its Core Data store only.
let photoAppReader = StoreOnlyReader(app: .photoapp, displayName: "PhotoApp", stores: PhotoAppStores())

struct PhotoAppStores: AppStoreReader {
    func recognizes(entities: Set<String>) -> Bool {
        !entities.isDisjoint(with: ["PhotoAction", "SwipeSession"])
    }

    func index(_ reader: CoreDataStoreReader) throws -> CoreDataRecordIndex {
        try CoreDataRecordIndex(reader: reader, streaming: PhotoAppStoreReader.streamedEntities)
    }

    func convert(_ index: CoreDataRecordIndex, time: String, context: ConversionContext, options: ConversionOptions) throws {
        try PhotoAppStoreReader(context: context, index: index, time: time).convert()
    }
}
