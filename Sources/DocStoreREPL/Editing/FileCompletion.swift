import Foundation

/// File names for TAB after the commands that take a file (`.read FILE`,
/// `.import COLL FILE`, `.export COLL FILE`, `.output FILE`, `.once FILE`), as
/// shells complete them: the entries of the typed directory that start with
/// the typed name, directories with a trailing `/`.
enum FileCompletion {
    /// Which argument (0 the first after the command) of which command is a
    /// file. `.export`'s first argument may be a file too (`.export FILE QUERY`).
    static let fileArguments: [String: Set<Int>] = [
        ".read": [0], ".output": [0], ".once": [0], ".import": [1], ".export": [0, 1],
    ]

    /// The completion of the argument being typed at the end of `line` (a
    /// dot-command's line up to the cursor), or nil when that argument is not
    /// a file.
    static func complete(line: Substring, listing: (String) -> [(name: String, isDirectory: Bool)]? = listDirectory)
        -> Completer.Completion? {
        let parts = words(line)
        guard let command = parts.first, let positions = fileArguments[command] else { return nil }
        let typingNewWord = line.last?.isWhitespace == true && !isInsideQuote(line)
        let argument = typingNewWord ? parts.count - 1 : parts.count - 2
        guard argument >= 0, positions.contains(argument) else { return nil }
        let typed = typingNewWord ? "" : parts[parts.count - 1]
        // A quoted argument ("my data.csv"): complete inside the quote.
        let quoted = typed.hasPrefix("\"")
        let path = quoted ? String(typed.dropFirst()) : typed
        let (directory, prefix) = split(path)
        let shownDirectory = directory ?? ""
        let listed = (directory.map { ($0 as NSString).expandingTildeInPath } ?? ".")
        guard let entries = listing(listed) else { return Completer.Completion(replacing: typed.count, candidates: []) }
        let candidates = entries.filter { entry in
            entry.name.hasPrefix(prefix) && (prefix.hasPrefix(".") || !entry.name.hasPrefix("."))
        }.map { entry -> String in
            let text = shownDirectory + entry.name + (entry.isDirectory ? "/" : "")
            // Blanks split arguments, so a name holding one is quoted (and a
            // file's closed: nothing follows it in the path).
            guard quoted || text.contains(where: \.isWhitespace) else { return text }
            return "\"" + text + (entry.isDirectory ? "" : "\"")
        }
        return Completer.Completion(replacing: typed.count, candidates: candidates.sorted())
    }

    /// The line's words as typed, quotes kept: blanks inside "…" (closed or
    /// not yet) don't split, as the dot-command parser reads them.
    static func words(_ line: Substring) -> [String] {
        var words: [String] = []
        var current: String?
        var quoted = false
        for c in line {
            if c == "\"" { quoted.toggle() }
            if c.isWhitespace, !quoted {
                if let word = current { words.append(word) }
                current = nil
            } else {
                current = (current ?? "") + String(c)
            }
        }
        if let word = current { words.append(word) }
        return words
    }

    static func isInsideQuote(_ line: Substring) -> Bool {
        line.count(where: { $0 == "\"" }) % 2 == 1
    }

    /// "data/Peo" → ("data/", "Peo"); "Peo" → (nil, "Peo"); "/" → ("/", "").
    static func split(_ path: String) -> (directory: String?, prefix: String) {
        guard let slash = path.lastIndex(of: "/") else { return (nil, path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// The directory's entries, or nil when it can't be read.
    static func listDirectory(_ path: String) -> [(name: String, isDirectory: Bool)]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        return names.map { name in
            var isDirectory: ObjCBool = false
            let full = (path as NSString).appendingPathComponent(name)
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            return (name, isDirectory.boolValue)
        }
    }
}
