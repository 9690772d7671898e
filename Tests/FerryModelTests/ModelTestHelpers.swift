import FerryModel
import FerryTestSupport
import Foundation

/// Parses a model whose `<model>` body is `body`: the entities and other elements of a test case.
func model(_ body: String, modelAttributes: String = "", file: String = "Test.xcdatamodel/contents") throws -> DataModel {
    let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23231" \
        systemVersion="24A335" minimumToolsVersion="Automatic" sourceLanguage="Swift" \(modelAttributes)>
        \(body)
        </model>
        """
    return try ModelParser().parse(data: Data(xml.utf8), file: file)
}

let fixtures = TestPaths.fixtures("FerryModelTests")

func fixture(_ relativePath: String) -> String {
    fixtures.appendingPathComponent(relativePath).path
}
