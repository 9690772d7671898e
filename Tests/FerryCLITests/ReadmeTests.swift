import FerryTestSupport
import Foundation
import Testing

/// The README stays true: every `ferry` line of its `sh` blocks runs, in order, from a folder
/// that sees the checkout's Samples/, Formats/ and Tests/, with the exit status it states; and
/// its synopsis names exactly the options each command's help lists.
@Suite struct ReadmeTests {
    static let readme = (try? String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// The fenced blocks of one info string, each as its lines.
    static func blocks(_ info: String) -> [[String]] {
        var result: [[String]] = []
        var current: [String]?
        for line in readme.components(separatedBy: "\n") {
            if current == nil, line == "```\(info)" {
                current = []
            } else if current != nil, line == "```" {
                result.append(current ?? [])
                current = nil
            } else {
                current?.append(line)
            }
        }
        return result
    }

    /// A command line's words (double quotes group), its comment cut off, and the exit status the
    /// comment states (`# exits 1`), else 0.
    static func parse(_ line: String) -> (words: [String], status: Int32) {
        var words: [String] = [], word = "", quoted = false, inWord = false
        var comment = ""
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "\"" {
                quoted.toggle()
                inWord = true
            } else if character == "#", !quoted, !inWord {
                comment = String(line[index...])
                break
            } else if character == " ", !quoted {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
            index = line.index(after: index)
        }
        if inWord { words.append(word) }
        let status = comment.firstMatch(of: /exits (\d+)/).flatMap { Int32($0.1) } ?? 0
        return (words, status)
    }

    @Test func everyCommandInTheReadmeRuns() throws {
        let commands = Self.blocks("sh").filter { !$0.contains { $0.hasPrefix("make ") } }.flatMap { $0 }.filter { $0.hasPrefix("ferry ") }
        #expect(commands.count >= 20, "\(commands.count) commands found")
        let folder = TemporaryDirectory("ferry-readme")
        for name in ["Samples", "Formats", "Tests"] {
            try FileManager.default.createSymbolicLink(at: folder.url.appendingPathComponent(name),
                                                       withDestinationURL: TestPaths.packageRoot.appendingPathComponent(name))
        }
        for line in commands {
            let (words, status) = Self.parse(line)
            let result = try CommandRunner.ferry(Array(words.dropFirst()), in: folder.url)
            #expect(result.status == status && !result.crashed, "\(line): exit \(result.status)\n\(result.stderr.prefix(400))")
        }
    }

    /// Options of each command in the synopsis (`ferry NAME … [--option …]`, continued on
    /// indented lines, several commands on a line joined by ` · `).
    static func synopsisOptions() -> [String: Set<String>] {
        let synopsis = blocks("text").first { $0.contains { $0.hasPrefix("ferry inspect") } } ?? []
        var options: [String: Set<String>] = [:]
        var command = ""
        for line in synopsis {
            for part in line.components(separatedBy: " · ") {
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("ferry ") {
                    command = trimmed.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                }
                for match in trimmed.matches(of: /(?:^|[\s\[|])(--[a-z][a-z-]*|-o)\b/) { options[command, default: []].insert(String(match.1)) }
            }
        }
        return options.filter { $0.key != "help" && !$0.key.hasPrefix("-") }
    }

    @Test func theSynopsisNamesEveryOptionOfEveryCommand() throws {
        let synopsis = Self.synopsisOptions()
        #expect(synopsis.count >= 14, "\(synopsis.keys.sorted())")
        for (command, listed) in synopsis.sorted(by: { $0.key < $1.key }) {
            let help = try CommandRunner.ferry([command, "--help"])
            #expect(help.status == 0, "\(command) --help")
            guard let start = help.stdout.range(of: "OPTIONS:") else { continue }
            var offered = Set(help.stdout[start.upperBound...].matches(of: /(?:^|\s|,\s)(--[a-z][a-z-]*|-o)\b/).map { String($0.1) })
            offered.remove("--help")
            if offered.contains("--output") { offered.remove("--output"); offered.insert("-o") }
            #expect(listed == offered, "\(command): the synopsis lacks \(offered.subtracting(listed).sorted()), names \(listed.subtracting(offered).sorted()) it does not take")
        }
    }
}
