/// Colours for terminal output, as plain ANSI escapes behind one small type:
/// ``plain`` (pipes, files, `NO_COLOR`) writes no escape at all.
struct TerminalStyle: Sendable {
    enum Role: Sendable {
        case header, border, null, number, string, literal, key, error, warning, dim
    }

    let enabled: Bool

    static let plain = TerminalStyle(enabled: false)
    static let colored = TerminalStyle(enabled: true)

    func apply(_ role: Role, _ text: String) -> String {
        guard enabled, !text.isEmpty else { return text }
        let code = switch role {
        case .header: "1"
        case .border, .dim, .null: "2"
        case .number: "36"
        case .string: "32"
        case .literal: "35"
        case .key: "34"
        case .error: "1;31"
        case .warning: "33"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
