import Foundation

/// A recipe's source URL reduced to what names the page, so that two apps' copies of one recipe
/// are found however each wrote the address: Paprika keeps the page as the user opened it
/// (`http://www.example.com/soup/?utm_source=…`), a schema.org node as the site published it
/// (`https://example.com/soup`).
public enum SourceURL {
    /// Tracking parameters that say how a page was reached, not which page it is.
    private static let trackingParameters: Set<String> = ["fbclid", "gclid", "mc_cid", "mc_eid", "ref", "ref_src"]

    /// The page's key: host without `www.` and lower-cased, path without its trailing `/`, the
    /// query without tracking parameters; scheme, port 80/443 and fragment left out. Nil for text
    /// that is not an http(s) address (a cookbook's name, a file path).
    public static func matchKey(_ text: String) -> String? {
        var trimmed = text.trimmedWhitespace
        if trimmed.lowercased().hasPrefix("www.") { trimmed = "http://" + trimmed }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", var host = components.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasPrefix("www.") { host.removeFirst(4) }
        if let port = components.port, port != 80, port != 443 { host += ":\(port)" }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        let query = (components.percentEncodedQueryItems ?? []).filter { item in
            let name = item.name.lowercased()
            return !name.hasPrefix("utm_") && !trackingParameters.contains(name)
        }
        let pairs = query.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
        return host + path + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }
}
