extension DocumentCollection where Model == JSONValue {
    /// The fields of a sample of the collection's documents: every document of
    /// a small collection; of a larger one, `size` documents spread evenly over
    /// its keys, so fields that only later documents have (columns empty in a
    /// CSV's first rows) are seen too. Damaged documents are left out (and
    /// counted), so that one of them doesn't hide the others' fields.
    package func sampleFields(size: Int) throws -> FieldSample {
        var sample = FieldSample()
        do {
            try addSample(size: size, excluding: [], to: &sample)
        } catch DocStoreError.corruptDocument {
            // Found by a scan, only now that there are some.
            let damaged = Set(try damagedDocuments().compactMap { error -> DocumentKey? in
                if case .corruptDocument(_, let key, _) = error { key } else { nil }
            })
            sample = FieldSample()
            sample.damagedSkipped = damaged.count
            try addSample(size: size, excluding: damaged, to: &sample)
        }
        return sample
    }

    private func addSample(size: Int, excluding damaged: Set<DocumentKey>, to sample: inout FieldSample) throws {
        let count = try self.count() - damaged.count
        if count <= size {
            sample.sampledEveryDocument = true
            guard !damaged.isEmpty else { return try forEach { sample.add($0) } }
            var picked: [DocumentKey] = []
            try forEachKey { key in if !damaged.contains(key) { picked.append(key) } }
            for document in try get(picked) { sample.add(document) }
            return
        }
        // `size` keys spread evenly, read as the keys stream by: the sample's
        // memory is its documents', not the collection's keys'.
        // The k-th pick is the document at k · count / size (integer division,
        // as PostgreSQL's sample picks them on the server).
        var picked: [DocumentKey] = []
        picked.reserveCapacity(size)
        var index = 0
        try forEachKey { key in
            guard !damaged.contains(key) else { return }
            if picked.count < size, index == picked.count * count / size { picked.append(key) }
            index += 1
        }
        for document in try get(picked) { sample.add(document) }
    }
}
