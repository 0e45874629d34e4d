/// How counts are spelled in messages: "108 789 documents", digits grouped by
/// three with a space, as every report and REPL message says them. (Query
/// results are values and stay plain numbers.)
@_spi(Backends) public enum CountText {
    /// 108789 as "108 789".
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(" ") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }

    /// "1 document", "108 789 documents".
    public static func plural(_ count: Int, _ noun: String) -> String {
        "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
    }
}
