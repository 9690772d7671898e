// Opens a store Ferry wrote with Core Data itself, on macOS: the check `ferry load` waits for
// before it stops calling itself experimental (issue 30). Not run on Linux; nothing here is
// built by the package.
//
//   xcrun momc Model.xcdatamodeld Model.momd       # compile the model the store was written for
//   swift scripts/macos/open-with-core-data.swift Model.momd New.sqlite
//
// It opens the store read-only, with migration off, so that Core Data must take it as it is,
// then prints each entity's object count and exits 0; any refusal is printed and exits 1.
import CoreData
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write("usage: open-with-core-data.swift MODEL.momd STORE.sqlite\n".data(using: .utf8)!)
    exit(64)
}
guard let model = NSManagedObjectModel(contentsOf: URL(fileURLWithPath: arguments[1])) else {
    FileHandle.standardError.write("cannot load the compiled model \(arguments[1])\n".data(using: .utf8)!)
    exit(1)
}
let container = NSPersistentContainer(name: "FerryCheck", managedObjectModel: model)
let description = NSPersistentStoreDescription(url: URL(fileURLWithPath: arguments[2]))
description.isReadOnly = true
description.shouldMigrateStoreAutomatically = false
description.shouldInferMappingModelAutomatically = false
container.persistentStoreDescriptions = [description]
var failure: Error?
container.loadPersistentStores { _, error in failure = error }
if let failure {
    print("Core Data refused the store: \(failure)")
    exit(1)
}
let context = container.viewContext
for entity in model.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) where !entity.isAbstract {
    let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
    request.includesSubentities = false
    let count = (try? context.count(for: request)) ?? -1
    print("\(entity.name ?? "?"): \(count)")
}
print("Core Data opened \(arguments[2]) as its own")
