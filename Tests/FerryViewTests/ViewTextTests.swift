@testable import FerryView
import Testing

/// The view's text at the byte level: escaping, anchors, and parameters read in one pass.
@Suite struct ViewTextTests {
    func rendered(_ body: (inout HTMLBuffer) -> Void) -> String {
        var html = HTMLBuffer()
        body(&html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    @Test func everyCharacterThatCouldEndTextOrAnAttributeIsEscaped() {
        #expect(rendered { $0.text("<a href=\"x\" title='y'>&amp;</a>") } == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;")
        #expect(rendered { $0.text("tab\tand é ☕︎ stay") } == "tab\tand é ☕︎ stay")
        #expect(rendered { $0.text("nul\u{0}") } == "nul\u{FFFD}")
        #expect(rendered { $0.text(String(repeating: "x", count: 300), limit: 200) } == String(repeating: "x", count: 200) + "…")
    }

    @Test func anchorsKeepSafeCharactersAndEncodeTheRest() {
        #expect(RecordPlaces.anchor("3F2A0C1E-0000-4000-8000-000000000001") == "3F2A0C1E-0000-4000-8000-000000000001")
        #expect(RecordPlaces.anchor("be 01\"><x") == "be%2001%22%3E%3Cx")
        #expect(RecordPlaces.catalogAnchor("é") == "item-%C3%A9")
    }

    func parameters(_ json: String) -> String? {
        var html = HTMLBuffer()
        var bytes = Array(json.utf8)
        let done = bytes.withUnsafeMutableBufferPointer { ParameterText.render(UnsafeBufferPointer($0), into: &html) }
        return done ? String(decoding: html.bytes, as: UTF8.self) : nil
    }

    @Test func parametersInFerrysOwnFormReadInOnePass() {
        #expect(parameters(#"{"dose":{"unit":"g","value":13.5},"grind":{"text":"medium"},"waterTemperature":{"unit":"°C","value":94},"yield":{"unit":"g","value":250}}"#)
                == "dose 13.5 g, grind medium, water temperature 94 °C, yield 250 g")
        #expect(parameters("{}") == "")
        #expect(parameters(#"{"coe":{"value":-1.5e3}}"#) == "coe -1.5e3")
        #expect(parameters(#"{"note":{"text":"<b>"}}"#) == "note &lt;b&gt;")
        // Any other form is left to the full JSON reader.
        for other in [#"{"a": {"text":"x"}}"#, #"{"a":{"text":"x\"y"}}"#, #"{"a":{"other":1}}"#, #"{"a":{"text":"x"}"#, #"{"a":{"text":"x"}}x"#, "[]", ""] {
            #expect(parameters(other) == nil, "\(other)")
        }
    }

    /// Stored values as a person reads them (the data files keep them exact).
    @Test func timesCodesAndNamesReadAsWords() {
        #expect(ViewWords.time("2025-10-12T08:00:40.123456Z") == "2025-10-12 08:00:40")
        #expect(ViewWords.time("2025-10-12T08:00:00Z") == "2025-10-12 08:00")
        #expect(ViewWords.time("next Tuesday") == "next Tuesday")
        #expect(ViewWords.code("too_weak") == "too weak" && ViewWords.code("photo-action") == "photo action")
        #expect(ViewWords.name("waterTemperature") == "water temperature")
        #expect(ViewWords.name("grind_descriptor") == "grind descriptor" && ViewWords.name("coeOK") == "coe OK" && ViewWords.name("dose") == "dose")
        let photo = rendered { html in
            var id = "8F3C2E1A-0D4B-4C5E-9F6A-7B8C9D0E1F2A/L0/001"
            _ = id.withUTF8 { ViewWords.title($0, into: &html) }
        }
        #expect(photo == "photo 8F3C2E1A…")
        let plain = rendered { html in
            var title = "V60 Balanced"
            _ = title.withUTF8 { ViewWords.title($0, into: &html) }
        }
        #expect(plain == "")
        // A person's title that merely looks like one keeps its words.
        for own in ["Espresso-Dial-in with new grinder v2/Light roast, 18g", "8F3C2E1A-0D4B-4C5E-9F6A-7B8C9D0E1F2A/L0/001 and more"] {
            let shown = rendered { html in
                var title = own
                _ = title.withUTF8 { ViewWords.title($0, into: &html) }
            }
            #expect(shown == "", "\(own)")
        }
        #expect(ViewWords.time("2025-10-12T08:00:éZ") == "2025-10-12T08:00:éZ")
    }
}
