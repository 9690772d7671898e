import FerryCanonical
import FerryCoreData

extension SourceApp {
    public static let forager = SourceApp("forager")
}

/// Forager's data lives in its Core Data store only.
let foragerReader = StoreOnlyReader(app: .forager, displayName: "Forager", stores: ForagerStores())

struct ForagerStores: AppStoreReader {
    func recognizes(entities: Set<String>) -> Bool {
        !entities.isDisjoint(with: ["GroceryItem", "WeeklyList", "GroceryListItem"])
    }

    func convert(_ index: CoreDataRecordIndex, time: String, context: ConversionContext, options: ConversionOptions) throws {
        try ForagerStoreReader(context: context, index: index, time: time).convert()
    }
}
