/// Stored values as a person reads them: times without their fraction and `Z` (the pages say
/// UTC once), codes as words, parameter names as words. The data files keep the values exact.
enum ViewWords {
    /// `2025-10-12T08:00:40.123456Z` → `2025-10-12 08:00:40`, `…T08:00:00Z` → `2025-10-12 08:00`;
    /// text of any other shape as it is.
    static func time(_ value: UnsafeBufferPointer<UInt8>?, into html: inout HTMLBuffer) {
        guard let value else { return }
        guard isTimestamp(value) else { return html.text(utf8: value) }
        let seconds = value[17] == UInt8(ascii: "0") && value[18] == UInt8(ascii: "0") ? 16 : 19
        html.text(utf8: UnsafeBufferPointer(rebasing: value[0..<10]))
        html.raw(" ")
        html.text(utf8: UnsafeBufferPointer(rebasing: value[11..<seconds]))
    }

    static func time(_ value: String) -> String {
        guard isTimestamp(value) else { return value }
        let bytes = Array(value.utf8)
        let seconds = bytes[17] == UInt8(ascii: "0") && bytes[18] == UInt8(ascii: "0") ? 16 : 19
        return String(decoding: bytes[0..<10], as: UTF8.self) + " " + String(decoding: bytes[11..<seconds], as: UTF8.self)
    }

    static func isTimestamp(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { isTimestamp($0) }
    }

    /// `YYYY-MM-DDTHH:MM:SS…Z`, as the canonical store writes every time (digits where digits go,
    /// so that no cut falls inside a character).
    private static func isTimestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[bytes.count - 1] == UInt8(ascii: "Z") else { return false }
        return [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18].allSatisfy { (0x30...0x39).contains(bytes[$0]) }
    }

    private static func isPhotosIdentifier(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard value.count > 40, value[36] == UInt8(ascii: "/"), value[37] == UInt8(ascii: "L") else { return false }
        for index in 0..<36 {
            let byte = value[index]
            let dash = index == 8 || index == 13 || index == 18 || index == 23
            guard dash ? byte == UInt8(ascii: "-") : ((0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte))
            else { return false }
        }
        // `L` then digits, a slash, digits to the end.
        var index = 38, slashes = 0, digitsSinceSlash = 0
        while index < value.count {
            let byte = value[index]
            if byte == UInt8(ascii: "/") {
                guard digitsSinceSlash > 0 else { return false }
                slashes += 1
                digitsSinceSlash = 0
            } else if (0x30...0x39).contains(byte) {
                digitsSinceSlash += 1
            } else {
                return false
            }
            index += 1
        }
        return slashes == 1 && digitsSinceSlash > 0
    }

    /// `too_weak`, `photo-action` → `too weak`, `photo action`.
    static func code(_ value: UnsafeBufferPointer<UInt8>?, into html: inout HTMLBuffer) {
        guard let value else { return }
        guard value.contains(where: { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else { return html.text(utf8: value) }
        // On the stack: a page of a million logs writes one per row.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: value.count) { shown in
            for (index, byte) in value.enumerated() {
                shown[index] = byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") ? UInt8(ascii: " ") : byte
            }
            html.text(utf8: UnsafeBufferPointer(shown))
        }
    }

    static func code(_ value: String) -> String {
        String(value.map { $0 == "_" || $0 == "-" ? " " : $0 })
    }

    /// `waterTemperature`, `grind_descriptor` → `water temperature`, `grind descriptor`;
    /// an acronym stays whole (`coeOK` → `coe OK`).
    static func name(_ value: UnsafeBufferPointer<UInt8>, into html: inout HTMLBuffer) {
        // Most names are one lower-case word: written as they are, with nothing copied.
        guard value.contains(where: { (0x41...0x5A).contains($0) || $0 == UInt8(ascii: "_") }) else { return html.text(utf8: value) }
        nameBytes(value).withUnsafeBufferPointer { html.text(utf8: $0) }
    }

    static func name(_ value: String) -> String {
        var value = value
        return value.withUTF8 { String(decoding: nameBytes($0), as: UTF8.self) }
    }

    private static func nameBytes(_ value: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var shown: [UInt8] = []
        shown.reserveCapacity(value.count + 4)
        for (index, byte) in value.enumerated() {
            let upper = (0x41...0x5A).contains(byte)
            if byte == UInt8(ascii: "_") {
                shown.append(UInt8(ascii: " "))
            } else if upper, index > 0, (0x61...0x7A).contains(value[index - 1]) {
                shown.append(UInt8(ascii: " "))
                let next = index + 1 < value.count ? value[index + 1] : 0
                // A capital that starts a word is lowered; one of an acronym stays.
                shown.append((0x61...0x7A).contains(next) ? byte + 0x20 : byte)
            } else {
                shown.append(byte)
            }
        }
        return shown
    }

    /// A title that is a Photos local identifier (`<UUID>/L<digits>/<digits>`, nothing else) reads
    /// `photo 8F3C2E1A…`; any other title is the person's and is left to the caller.
    static func title(_ value: UnsafeBufferPointer<UInt8>, into html: inout HTMLBuffer) -> Bool {
        guard isPhotosIdentifier(value) else { return false }
        html.raw("photo ")
        html.text(utf8: UnsafeBufferPointer(rebasing: value[0..<8]))
        html.raw("…")
        return true
    }
}
