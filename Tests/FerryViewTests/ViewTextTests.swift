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
                == "dose 13.5 g, grind medium, waterTemperature 94 °C, yield 250 g")
        #expect(parameters("{}") == "")
        #expect(parameters(#"{"coe":{"value":-1.5e3}}"#) == "coe -1.5e3")
        #expect(parameters(#"{"note":{"text":"<b>"}}"#) == "note &lt;b&gt;")
        // Any other form is left to the full JSON reader.
        for other in [#"{"a": {"text":"x"}}"#, #"{"a":{"text":"x\"y"}}"#, #"{"a":{"other":1}}"#, #"{"a":{"text":"x"}"#, #"{"a":{"text":"x"}}x"#, "[]", ""] {
            #expect(parameters(other) == nil, "\(other)")
        }
    }
}
