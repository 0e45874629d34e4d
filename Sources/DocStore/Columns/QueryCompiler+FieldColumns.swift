extension QueryCompiler {
    /// The documents of a limited query whose condition and sort read only field
    /// columns: its keys are chosen from the columns' table alone, and only those
    /// documents are read (not every matching document, carried through the sort).
    ///
    ///     SELECT d.key, d.body FROM (SELECT docstore_columns.k AS k, docstore_columns.r0 AS o0, docstore_columns.v0 AS o1
    ///         FROM "docstore_columns_1" AS docstore_columns WHERE <condition on columns>
    ///         ORDER BY o0 DESC, o1 DESC, k LIMIT ? OFFSET ?) AS docstore_chosen
    ///     JOIN "batting" AS d ON d.key = docstore_chosen.k ORDER BY docstore_chosen.o0 DESC, docstore_chosen.o1 DESC, docstore_chosen.k
    ///
    /// Nil when the query has no limit, sorts by relevance, or reads a document's
    /// JSON or key (then ``select(_:_:_:)`` runs it as it is).
    func documentsChosenByColumns(_ query: DocumentQuery) throws -> SQLFragment? {
        guard dialect == .sqlite, query.limit != nil, query.relevance == nil, let reads = try columnReads() else { return nil }
        let condition = try whereClause(query, reads)
        var terms: [OrderTerm] = []
        for key in query.sort {
            let field = try documentField(key.path, reads)
            terms += [OrderTerm(field.rank, descending: key.descending), OrderTerm(field.value, descending: key.descending)]
        }
        let read = condition.sql + " " + terms.map(\.expression.sql).joined(separator: " ")
        guard !sqlMentions(read, name: "body"), !sqlMentions(read, name: "key") else { return nil }
        let chosen = "docstore_chosen"
        terms.append(OrderTerm(SQLFragment(FieldColumnsSQL.alias + ".k")))
        var sql: SQLFragment = "SELECT d.key, d.body FROM (SELECT "
        sql += .joined(terms.enumerated().map { $0.element.expression + " AS o\($0.offset)" }, separator: ", ")
        sql += " FROM " + reads.table + condition + " ORDER BY " + PipelineCompiler.orderColumns(terms) + limitClause(query)
        sql += ") AS \(chosen) JOIN \(table) AS d ON d.key = \(chosen).o\(terms.count - 1) ORDER BY "
        sql += .joined(terms.indices.map { OrderTerm(SQLFragment("\(chosen).o\($0)"), descending: terms[$0].descending).sql }, separator: ", ")
        return sql
    }
}
