import Foundation
import GRDB

/// A real as the JSON text an update writes: Swift's shortest text that reads
/// back as the same `Double`, registered on every connection as
/// `docstore_real_json(x)`. SQLite 3.40's `printf('%!.17g')` misprints some
/// doubles of large or small exponent (`Double.greatestFiniteMagnitude` as
/// `1.7976931348623156e+308`, one in 400 random doubles), so an increment
/// changed such a value by a unit in its last place.
enum RealText {
    /// The name of the SQL function.
    static let functionName = "docstore_real_json"

    /// `docstore_real_json(x)`: the JSON text of the real `x` (`1e+308`,
    /// `0.30000000000000004`); NULL for NULL. Callers pass finite reals only
    /// (an update refuses the rest first).
    static let function = DatabaseFunction(functionName, argumentCount: 1, pure: true) { values in
        guard let number = Double.fromDatabaseValue(values[0]), number.isFinite else { return nil }
        return number.description
    }
}
