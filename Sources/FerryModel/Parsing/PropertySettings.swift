/// What an attribute and a relationship element say the same way: indexing, the truth file,
/// renaming, hash modifier, syncing, user info, and what Ferry does not know.
enum PropertySettings {
    typealias Values = (isIndexed: Bool, isIndexedBySpotlight: Bool, isStoredInExternalRecord: Bool, renamingIdentifier: String?,
                        versionHashModifier: String?, isSyncable: Bool?, userInfo: [String: String], otherAttributes: [String: String],
                        unknownElements: [RawXMLElement], line: Int)

    /// Read last: `otherAttributes` keeps what no read before took.
    static func read(_ reader: inout NodeReader, _ node: XMLNode) throws(ModelError) -> Values {
        (isIndexed: try reader.flag("indexed"), isIndexedBySpotlight: try reader.flag("spotlightIndexingEnabled"),
         isStoredInExternalRecord: try reader.flag("storedInTruthFile"), renamingIdentifier: reader.nonEmptyString("elementID"),
         versionHashModifier: reader.nonEmptyString("versionHashModifier"), isSyncable: try reader.optionalFlag("syncable"),
         userInfo: try UserInfoReader.read(node, at: reader.location), otherAttributes: reader.remaining,
         unknownElements: node.children.filter { $0.name != "userInfo" }.map(RawXMLElement.init), line: node.line)
    }
}
