import Foundation

/// A one-line progress bar redrawn in place with `\r`, at most ten times a
/// second; used only when the output is a terminal.
struct ProgressBar {
    let output: TextOutput
    let total: UInt64
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(output: TextOutput, total: UInt64) {
        self.output = output
        self.total = total
    }

    mutating func update(done: UInt64, documents: Int) {
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        drawn = true
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        output.write("\r\(bar) \(Int(fraction * 100))%  \(CommandResult.grouped(documents)) documents\u{1B}[K")
    }

    /// Erases the bar, leaving the line for the result.
    mutating func finish() {
        if drawn { output.write("\r\u{1B}[K") }
        drawn = false
    }
}
