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
