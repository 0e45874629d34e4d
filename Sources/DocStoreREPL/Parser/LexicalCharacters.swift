extension String {
    /// The text as the REPL's parsers read it: `Character`s (so that columns in
    /// errors count what a person sees), except that ASCII punctuation is always
    /// a character of its own.
    ///
    /// Swift joins a combining mark to the character before it, so in
    /// `"\u{301}x"` (a string whose first letter is an accent) the opening quote
    /// and the accent are one `Character` that is not `"`: the string would not
    /// be seen to open. Split off, the quote is a quote and the accent is the
    /// string's first character; joined again, the text is unchanged.
    var lexicalCharacters: [Character] {
        var characters: [Character] = []
        characters.reserveCapacity(utf8.count)
        for character in self {
            let scalars = character.unicodeScalars
            guard scalars.count > 1, let first = scalars.first, first.isASCII,
                  first.properties.generalCategory.isPunctuationOrSymbol else {
                characters.append(character)
                continue
            }
            characters.append(Character(first))
            characters.append(Character(String(String.UnicodeScalarView(scalars.dropFirst()))))
        }
        return characters
    }
}

private extension Unicode.GeneralCategory {
    var isPunctuationOrSymbol: Bool {
        switch self {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            true
        default:
            false
        }
    }
}
