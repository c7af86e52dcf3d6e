import ObjectModel

/// The parsed form of an expression, before type checking.
indirect enum ExpressionSyntax {
    case literal(ExpressionValue, column: Int)
    case variable(String, column: Int)
    /// `base.key`; `column` is the key's.
    case member(ExpressionSyntax, key: String, column: Int)
    /// `-x`, `!x`; `column` is the operator's.
    case unary(String, ExpressionSyntax, column: Int)
    /// `a + b`; `column` is the operator's.
    case binary(String, ExpressionSyntax, ExpressionSyntax, column: Int)
    /// `condition ? a : b`; `column` is the `?`'s.
    case conditional(ExpressionSyntax, ExpressionSyntax, ExpressionSyntax, column: Int)
    /// `name(arguments…)`; `column` is the name's.
    case call(String, [ExpressionSyntax], column: Int)

    /// The column of the node's own token (the operator of a binary expression, the key of a member).
    var column: Int {
        switch self {
        case .literal(_, let column), .variable(_, let column), .member(_, _, let column), .unary(_, _, let column),
            .binary(_, _, _, let column), .conditional(_, _, _, let column), .call(_, _, let column):
            column
        }
    }

    /// The depth of the tree (a leaf is 1), measured without recursion, so that a deep tree cannot overflow the
    /// stack while it is measured.
    var depth: Int {
        var deepest = 0
        var pending: [(ExpressionSyntax, Int)] = [(self, 1)]
        while let (node, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            switch node {
            case .literal, .variable: break
            case .member(let base, _, _), .unary(_, let base, _): pending.append((base, depth + 1))
            case .binary(_, let left, let right, _): pending += [(left, depth + 1), (right, depth + 1)]
            case .conditional(let condition, let then, let otherwise, _):
                pending += [(condition, depth + 1), (then, depth + 1), (otherwise, depth + 1)]
            case .call(_, let arguments, _): pending += arguments.map { ($0, depth + 1) }
            }
        }
        return deepest
    }

    /// Whether the value depends on nothing but constants and `$source.attribute` reads for which
    /// `isSourceAttribute` holds: no `$destination`, no relationship, no `FUNCTION`, no `uuid()` (whose values
    /// depend on the order of evaluation). Walked without recursion, like ``depth``.
    func readsOnlySourceAttributes(_ isSourceAttribute: (String) -> Bool) -> Bool {
        var pending: [ExpressionSyntax] = [self]
        while let node = pending.popLast() {
            switch node {
            case .literal:
                continue
            case .variable(let name, _):
                guard name == "entityMapping" || name == "propertyMapping" else { return false }
            case .member(.variable("source", _), let key, _):
                guard isSourceAttribute(key) else { return false }
            case .member(let base, _, _):
                // `$entityMapping.userInfo.key` and the like are constants; any other path crosses objects.
                var root = base
                while case .member(let inner, _, _) = root { root = inner }
                guard case .variable(let name, _) = root, name == "entityMapping" || name == "propertyMapping"
                else { return false }
            case .unary(_, let operand, _):
                pending.append(operand)
            case .binary(_, let left, let right, _):
                pending += [left, right]
            case .conditional(let condition, let then, let otherwise, _):
                pending += [condition, then, otherwise]
            case .call(let name, let arguments, _):
                guard name != "FUNCTION" && name != "uuid" else { return false }
                pending += arguments
            }
        }
        return true
    }

    /// The column where the node's text starts.
    var start: Int {
        switch self {
        case .member(let base, _, _): base.start
        case .binary(_, let left, _, _): left.start
        case .conditional(let condition, _, _, _): condition.start
        default: column
        }
    }
}

/// A recursive-descent parser of the expression language. Precedence, lowest first: `?:`, `||`, `&&`,
/// comparisons, `+ -`, `* / %`, unary `- !`, member access `.key`.
///
/// Text longer than ``InputLimits/expressionLength`` and trees deeper than ``InputLimits/expressionDepth`` are
/// refused, so that neither parsing nor compiling nor evaluating (all recursive) can overflow the stack.
struct ExpressionParser {
    private let tokens: [ExpressionToken]
    private var position = 0
    /// How deeply the parser has recursed into parentheses, arguments, branches and unary operators.
    private var nesting = 0

    /// Parses `text` into a syntax tree.
    static func parse(_ text: String) throws(MappingError) -> ExpressionSyntax {
        guard text.count <= InputLimits.expressionLength else {
            throw MappingError(
                .syntaxError,
                "the expression has \(text.count) characters; the limit is \(InputLimits.expressionLength)", column: 1)
        }
        var parser = ExpressionParser(tokens: try ExpressionLexer.tokens(of: text))
        guard parser.current.kind != .end else {
            throw MappingError(.syntaxError, "the expression is empty", column: 1)
        }
        let syntax = try parser.conditional()
        guard parser.current.kind == .end else {
            throw parser.unexpected("an operator or the end of the expression")
        }
        guard syntax.depth <= InputLimits.expressionDepth else {
            throw MappingError(
                .syntaxError, "the expression nests deeper than \(InputLimits.expressionDepth) levels", column: 1)
        }
        return syntax
    }

    private init(tokens: [ExpressionToken]) {
        self.tokens = tokens
    }

    private var current: ExpressionToken { tokens[position] }

    private mutating func advance() -> ExpressionToken {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    /// Takes the current token if it is one of `symbols` (or, for words, one of them in any case).
    private mutating func take(_ symbols: [String], words: [String] = []) -> (String, Int)? {
        let token = current
        switch token.kind {
        case .symbol(let symbol) where symbols.contains(symbol):
            _ = advance()
            return (symbol, token.column)
        case .name(let name) where words.contains(name.uppercased()):
            _ = advance()
            return (name.uppercased(), token.column)
        default:
            return nil
        }
    }

    private mutating func expect(_ symbol: String) throws(MappingError) {
        guard take([symbol]) != nil else { throw unexpected("'\(symbol)'") }
    }

    private func unexpected(_ expected: String) -> MappingError {
        MappingError(.syntaxError, "expected \(expected), found \(current.text)", column: current.column)
    }

    /// Counts one more level of recursion, refusing the expression past the limit.
    private mutating func enter() throws(MappingError) {
        nesting += 1
        guard nesting <= InputLimits.expressionDepth else {
            throw MappingError(
                .syntaxError, "the expression nests deeper than \(InputLimits.expressionDepth) levels",
                column: current.column)
        }
    }

    private mutating func conditional() throws(MappingError) -> ExpressionSyntax {
        try enter()
        defer { nesting -= 1 }
        let condition = try or()
        guard let (_, column) = take(["?"]) else { return condition }
        let then = try conditional()
        try expect(":")
        let otherwise = try conditional()
        return .conditional(condition, then, otherwise, column: column)
    }

    private mutating func or() throws(MappingError) -> ExpressionSyntax {
        var left = try and()
        while let (_, column) = take(["||"], words: ["OR"]) {
            left = .binary("||", left, try and(), column: column)
        }
        return left
    }

    private mutating func and() throws(MappingError) -> ExpressionSyntax {
        var left = try comparison()
        while let (_, column) = take(["&&"], words: ["AND"]) {
            left = .binary("&&", left, try comparison(), column: column)
        }
        return left
    }

    private mutating func comparison() throws(MappingError) -> ExpressionSyntax {
        var left = try additive()
        while let (symbol, column) = take(["==", "=", "!=", "<>", "<", "<=", ">", ">="]) {
            let normalized = symbol == "=" ? "==" : symbol == "<>" ? "!=" : symbol
            left = .binary(normalized, left, try additive(), column: column)
        }
        return left
    }

    private mutating func additive() throws(MappingError) -> ExpressionSyntax {
        var left = try multiplicative()
        while let (symbol, column) = take(["+", "-"]) {
            left = .binary(symbol, left, try multiplicative(), column: column)
        }
        return left
    }

    private mutating func multiplicative() throws(MappingError) -> ExpressionSyntax {
        var left = try unary()
        while let (symbol, column) = take(["*", "/", "%"]) {
            left = .binary(symbol, left, try unary(), column: column)
        }
        return left
    }

    private mutating func unary() throws(MappingError) -> ExpressionSyntax {
        if let (symbol, column) = take(["-", "!"], words: ["NOT"]) {
            try enter()
            defer { nesting -= 1 }
            return .unary(symbol == "-" ? "-" : "!", try unary(), column: column)
        }
        return try postfix()
    }

    private mutating func postfix() throws(MappingError) -> ExpressionSyntax {
        var base = try primary()
        while take(["."]) != nil {
            guard case .name(let key) = current.kind else { throw unexpected("a key after '.'") }
            base = .member(base, key: key, column: advance().column)
        }
        return base
    }

    private mutating func primary() throws(MappingError) -> ExpressionSyntax {
        let token = current
        switch token.kind {
        case .integer(let value):
            _ = advance()
            return .literal(.integer(value), column: token.column)
        case .double(let value):
            _ = advance()
            return .literal(.double(value), column: token.column)
        case .string(let text):
            _ = advance()
            return .literal(.string(text), column: token.column)
        case .variable(let name):
            _ = advance()
            return .variable(name, column: token.column)
        case .symbol("("):
            _ = advance()
            let inner = try conditional()
            try expect(")")
            return inner
        case .name(let name):
            _ = advance()
            if take(["("]) != nil {
                return .call(name, try arguments(), column: token.column)
            }
            switch name {
            case "true", "TRUE", "YES": return .literal(.boolean(true), column: token.column)
            case "false", "FALSE", "NO": return .literal(.boolean(false), column: token.column)
            case "nil", "NIL", "null", "NULL": return .literal(.null, column: token.column)
            default:
                throw MappingError(
                    .syntaxError, "unexpected name '\(name)' (a key path starts with a variable such as $source)",
                    column: token.column)
            }
        default:
            throw unexpected("a value")
        }
    }

    private mutating func arguments() throws(MappingError) -> [ExpressionSyntax] {
        var arguments: [ExpressionSyntax] = []
        if take([")"]) != nil { return arguments }
        repeat {
            arguments.append(try conditional())
        } while take([","]) != nil
        try expect(")")
        return arguments
    }
}
