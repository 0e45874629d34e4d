/// How a database reads JSON values where SQLite and PostgreSQL differ, so that
/// the in-memory evaluator (the differential tests' oracle) can mirror either:
///
/// | | SQLite 3.40 (JSON1) | PostgreSQL (jsonb) |
/// |---|---|---|
/// | a number neither Int64 nor Double holds | its nearest Double | exactly, as written |
/// | a Double | its binary value | the decimal its shortest text writes |
/// | arrays and objects, sorted among themselves | by their JSON text | by key (no order of their own) |
/// | a sum or average with a real in it | the doubles added in order | the exact decimal total, rounded once (``ExactDecimalSum``) |
/// | a computed real that is -0.0 | -0.0 | 0.0 (`numeric` has no negative zero) |
///
/// Everything else reads the same on both.
enum QueryReading: Sendable {
    case sqlite
    case postgres
}
