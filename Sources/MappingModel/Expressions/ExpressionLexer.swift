/// One token of an expression, with the 1-based column of its first character.
struct ExpressionToken: Equatable {
    enum Kind: Equatable {
        case integer(Int64)
        case double(Double)
        case string(String)
        /// A name: a function, a key, or a word such as `true`, `nil`, `AND`.
        case name(String)
        /// `$name`.
        case variable(String)
        /// An operator or punctuation: `+`, `<=`, `(`, `,`, `.`, `?`, …
        case symbol(String)
        case end
    }

    var kind: Kind
    var column: Int

    /// How the token reads in an error message.
    var text: String {
        switch kind {
        case .integer(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .name(let name): name
        case .variable(let name): "$" + name
        case .symbol(let symbol): symbol
        case .end: "the end of the expression"
        }
    }
}

/// Splits expression text into tokens. Columns count Unicode scalars, from 1.
struct ExpressionLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// All tokens, ending with `.end`.
    static func tokens(of text: String) throws(MappingError) -> [ExpressionToken] {
        var lexer = ExpressionLexer(text)
        var tokens: [ExpressionToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private static let twoCharacterSymbols: Set<String> = ["==", "!=", "<>", "<=", ">=", "&&", "||"]
    private static let symbols: Set<Unicode.Scalar> = [
        "+", "-", "*", "/", "%", "=", "<", ">", "!", "?", ":", "(", ")", ",", ".",
    ]

    private mutating func next() throws(MappingError) -> ExpressionToken {
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        let column = index + 1
        guard index < scalars.count else { return ExpressionToken(kind: .end, column: column) }
        let scalar = scalars[index]
        if scalar == "\"" || scalar == "'" {
            return ExpressionToken(kind: .string(try string(quote: scalar)), column: column)
        }
        if isDigit(scalar) {
            return ExpressionToken(kind: try number(), column: column)
        }
        if scalar == "$" {
            index += 1
            let name = word()
            guard !name.isEmpty else { throw syntaxError("expected a variable name after '$'", column: column) }
            return ExpressionToken(kind: .variable(name), column: column)
        }
        if isNameStart(scalar) || scalar == "@" {
            index += 1
            return ExpressionToken(kind: .name(String(scalar) + word()), column: column)
        }
        if index + 1 < scalars.count {
            let pair = String(scalar) + String(scalars[index + 1])
            if Self.twoCharacterSymbols.contains(pair) {
                index += 2
                return ExpressionToken(kind: .symbol(pair), column: column)
            }
        }
        guard Self.symbols.contains(scalar) else {
            throw syntaxError("unexpected character '\(scalar)'", column: column)
        }
        index += 1
        return ExpressionToken(kind: .symbol(String(scalar)), column: column)
    }

    private mutating func word() -> String {
        var name = ""
        while index < scalars.count, isNameStart(scalars[index]) || isDigit(scalars[index]) {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        return name
    }

    private mutating func number() throws(MappingError) -> ExpressionToken.Kind {
        let start = index
        var text = ""
        var isWhole = true
        func take() {
            text.unicodeScalars.append(scalars[index])
            index += 1
        }
        while index < scalars.count, isDigit(scalars[index]) { take() }
        if index + 1 < scalars.count, scalars[index] == ".", isDigit(scalars[index + 1]) {
            isWhole = false
            take()
            while index < scalars.count, isDigit(scalars[index]) { take() }
        }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            let mark = index
            take()
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { take() }
            if index < scalars.count, isDigit(scalars[index]) {
                isWhole = false
                while index < scalars.count, isDigit(scalars[index]) { take() }
            } else {
                index = mark
                text = String(text.unicodeScalars.prefix(mark - start))
            }
        }
        if isWhole {
            guard let value = Int64(text) else {
                throw syntaxError("the number \(text) is too large for an integer", column: start + 1)
            }
            return .integer(value)
        }
        guard let value = Double(text) else { throw syntaxError("'\(text)' is not a number", column: start + 1) }
        return .double(value)
    }

    private mutating func string(quote: Unicode.Scalar) throws(MappingError) -> String {
        let column = index + 1
        index += 1
        var text = ""
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == quote { return text }
            guard scalar == "\\" else {
                text.unicodeScalars.append(scalar)
                continue
            }
            guard index < scalars.count else { break }
            let escaped = scalars[index]
            index += 1
            switch escaped {
            case "n": text += "\n"
            case "t": text += "\t"
            case "r": text += "\r"
            case "\\", "\"", "'": text.unicodeScalars.append(escaped)
            default: throw syntaxError("unknown escape '\\\(escaped)' in a string", column: index - 1)
            }
        }
        throw syntaxError("the string is not closed (missing \(quote))", column: column)
    }

    private func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }

    private func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    private func syntaxError(_ message: String, column: Int) -> MappingError {
        MappingError(.syntaxError, message, column: column)
    }
}
