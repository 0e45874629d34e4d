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
        let keys = try keys().filter { !damaged.contains($0) }
        let picked: [DocumentKey]
        if keys.count <= size {
            sample.sampledEveryDocument = true
            guard !damaged.isEmpty else { return try forEach { sample.add($0) } }
            picked = keys
        } else {
            let step = Double(keys.count) / Double(size)
            picked = (0..<size).map { keys[min(keys.count - 1, Int(Double($0) * step))] }
        }
        for document in try get(picked) { sample.add(document) }
    }
}
