/// The `.help` text: the REPL's command reference.
enum HelpText {
    static func text(topic: String?) -> String {
        switch topic?.trimmingPrefix(".") {
        case nil, "": return overview
        case "query", "queries", "filter": return queries
        default:
            if let command = DotCommandParser.commands.first(where: { $0.name == "." + (topic ?? "").trimmingPrefix(".") }) {
                return "\(command.name) \(command.arguments)\n    \(command.summary)"
            }
            return "no help on \(DocumentKeyQuoting.quoted(topic ?? "")); try .help or .help query"
        }
    }

    static var overview: String {
        let width = DotCommandParser.commands.map { ($0.name + " " + $0.arguments).count }.max() ?? 0
        let commands = DotCommandParser.commands.map { command in
            let synopsis = command.arguments.isEmpty ? command.name : command.name + " " + command.arguments
            return "  " + synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + command.summary
        }.joined(separator: "\n")
        return """
            Commands:
            \(commands)

            Queries use the Swift DSL's syntax (string literals stand in for enum cases):
              players.filter { $0.teamId == 1; $0.number > 10 }.sorted { $0.lastName }.limit(5)
              players.get(34)
              players.insert({"id": 99, "lastName": "Devers", "teamId": 1})
              players.count { $0.nickname == nil }
            .help query shows every query form. Blocks continue over several lines while
            a brace, bracket or parenthesis is open. TAB completes, ctrl-R searches history,
            ctrl-C interrupts a running command (or clears the line), ctrl-D quits.
            """
    }

    static let queries = """
        Reading:
          coll                                         every document
          coll.filter { COND; COND }                   documents matching all conditions (lines work as ;)
              .sorted { $0.a; $0.b.descending }        order (ties by key); a later .sorted decides first
              .limit(n)  .limit(n, offset: m)  .offset(n)
          ….first()  ….count()  ….exists()  ….keys()  ….explain()
          coll.count { COND }  coll.first { COND }  coll.contains { COND }  (also after a filter)
          ….select { ($0.a, $0.b) }  ….select { $0.a }  ….select(\\.a, \\.b)
          ….min(\\.x)  .max(\\.x)  .sum(\\.x)  .average(\\.x)  (or { $0.x })   coll.query.max(\\.x)
          ….distinctValues(of: \\.x)  ….count(groupedBy: \\.x)
          coll.get(KEY)                                KEY: an integer or a "string" (UUIDs as strings)
        Groups, joins, computed values (then .filter/.sorted/.limit on the rows; .count() .first() .explain()):
          coll.group(by: \\.a, \\.b) { (n: $0.count(), hr: $0.sum(\\.x)) }   also count(distinct: \\.x), average, min, max
          ….join(other, on: \\.a, as: \\.name)   on: \\.a, equals: \\.b   equals: key     $0.name.field afterwards; joinAll(…): every match, as an array
          ….select { ($0.a, avg: Double($0.h) / Double($0.ab), label: $0.s + "!") }   + - * / with Swift's meaning
        Conditions:
          $0.a == v   != < <= > >=                     v: "text", 12, 0.5, true, false, nil
          $0.a == nil / != nil                         missing or null / present and not null
          $0.a.exists                                  present, even if null
          $0.s.hasPrefix("x")  .hasSuffix("x")  .contains("x")   add caseInsensitive: true if wanted
          $0.tags.contains("x")  $0.tags.arrayContains(v)  $0.tags.isEmpty  $0.tags.count > 2
              (contains: an array's element or a string's substring, by the sampled type)
          $0.a.in([1, 2, nil])    $0.teamId.in(teams.filter { $0.city == "Boston" })
          $0.city.in(teams.filter { … }, selecting: \\.city)
          $0.text.matches("home run")   every word, any case/accents; "a phrase"; prefix*  (needs createSearchIndex)
          $0.roster.any { $0.number > 10 }   $0.roster.all { … }   ($0 is then the element)
          $0.stats.battingAverage  $0.tags[0]  $0.extra["odd key"]      nested paths
          AnyOf { C; C }   AllOf { C; C }   Not { C; C }   !C   C && C   C || C   ( C )
        Writing:
          coll.insert({JSON}) / insert([{…}, {…}])     new documents ("id" is the key; generated if absent)
          coll.save({JSON})                            insert or replace
          coll.delete(KEY)   coll.deleteAll()   coll.delete { COND }   coll.filter { … }.delete()
          coll.filter { … }.update { $0.a.set(to: 1); $0.n.increment(by: 1); $0.b.remove() }
              shorthand: $0.a = 1; $0.n += 1; $0.n -= 1; $0.b = nil (removes)
          coll.createIndex(\\.a)  createIndex(\\.a, \\.b)  createIndex(\\.a, unique: true)
          coll.dropIndex(\\.a)   coll.indexes()   .explain QUERY
          coll.createSearchIndex(\\.text)  dropSearchIndex(\\.text)  rebuildSearchIndexes()   full-text search
              ….sorted(byRelevanceTo: "home run")   best matches first (bm25)
          coll.createFieldColumns(\\.a, \\.b)  dropFieldColumns(\\.a)   fields kept in columns: scans skip the JSON
        Changing every document's fields (a model that evolved; FIELD: "name" or \\.a.b):
          coll.renameField("nickName", to: "nickname")   indexes on the field follow it
          coll.copyField(FIELD, to: FIELD)   coll.removeField(FIELD) (drops its indexes)
          coll.setDefault(FIELD, VALUE)                where the field is missing or null
        """
}
