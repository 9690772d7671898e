import Crypto
import FerryCanonical
import FerryJSON
import Foundation

/// Files a record carries (photos, images), their bytes kept once by SHA-256.
enum AttachmentFiles {
    /// Sets the attachment's digest and size, and keeps its bytes with the batch.
    static func attach(_ data: Data, to attachment: inout Attachment, context: ConversionContext) {
        let digest = Hex.lowercase(SHA256.hash(data: data))
        attachment.sha256 = digest
        attachment.byteCount = Int64(data.count)
        context.batch.attachmentContents[digest] = data
    }

    /// A file a record came with, kept with its bytes: named, typed by its extension, its id
    /// derived from its owner and name; `hero` for the record's own picture.
    static func file(_ data: Data, named name: String, owner: String, position: Int, hero: Bool, context: ConversionContext) -> Attachment {
        var attachment = Attachment(id: StableID.make(owner, "image", name), position: position)
        attachment.name = name
        attachment.mediaType = mediaType(ofExtension: (name as NSString).pathExtension)
        attachment.tag = hero ? "hero" : nil
        attach(data, to: &attachment, context: context)
        return attachment
    }

    static func mediaType(ofExtension fileExtension: String) -> String? {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "heic": return "image/heic"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        default: return nil
        }
    }
}
