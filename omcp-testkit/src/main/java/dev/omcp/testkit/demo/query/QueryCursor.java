package dev.omcp.testkit.demo.query;

import java.util.function.Function;
import java.util.function.IntPredicate;

/**
 * A position in the text of a query, and the reads the recursive-descent parsers of the simulated
 * backends share: whitespace, symbols, keywords, names, string literals and durations, each by the
 * rules of one {@link QueryDialect}. Reads that find nothing return {@code null} and leave the
 * position where it was (after any whitespace); reads that must find something throw the error
 * the parser makes of a {@link SyntaxError}. Not thread-safe: one cursor per parse.
 */
public final class QueryCursor {
    private final String text;
    private final QueryDialect dialect;
    private final Function<SyntaxError, ? extends RuntimeException> errors;
    private int pos;

    /**
     * @param text the query
     * @param dialect the lexical rules of the query language
     * @param errors makes the exception to throw for a syntax error, in the backend's words
     */
    public QueryCursor(String text, QueryDialect dialect, Function<SyntaxError, ? extends RuntimeException> errors) {
        this.text = text;
        this.dialect = dialect;
        this.errors = errors;
    }

    /** The position, counted from 0. */
    public int position() {
        return pos;
    }

    /** Goes back (or on) to {@code position}, to read a token again another way. */
    public void rewind(int position) {
        pos = position;
    }

    public boolean atEnd() {
        return pos >= text.length();
    }

    /** The next character, or {@code '\0'} at the end. */
    public char peek() {
        return peek(0);
    }

    /** The character {@code offset} places from the position, or {@code '\0'} outside the text. */
    public char peek(int offset) {
        int at = pos + offset;
        return at >= 0 && at < text.length() ? text.charAt(at) : '\0';
    }

    /** Moves past the next character. */
    public void advance() {
        pos++;
    }

    /** Moves past the next {@code count} characters. */
    public void advance(int count) {
        pos += count;
    }

    /** Whether the text goes on with {@code s} here, without skipping whitespace. */
    public boolean lookingAt(String s) {
        return text.startsWith(s, pos);
    }

    /** Moves past the characters {@code accepted} accepts and returns them (empty when none). */
    public String takeWhile(IntPredicate accepted) {
        int start = pos;
        while (pos < text.length() && accepted.test(text.charAt(pos))) {
            pos++;
        }
        return text.substring(start, pos);
    }

    /** The text from {@code start} to the position. */
    public String since(int start) {
        return text.substring(start, pos);
    }

    /** The text from the position to the end, for messages that quote what could not be read. */
    public String rest() {
        return text.substring(Math.min(pos, text.length()));
    }

    public void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    /** After whitespace, the first of {@code symbols} the text goes on with, moved past; else null. */
    public String symbol(String... symbols) {
        skipSpace();
        for (String symbol : symbols) {
            if (text.startsWith(symbol, pos)) {
                pos += symbol.length();
                return symbol;
            }
        }
        return null;
    }

    /** After whitespace, the first of {@code words} that stands here as a whole word, moved past; else null. */
    public String keyword(String... words) {
        skipSpace();
        for (String word : words) {
            if (atKeyword(word)) {
                pos += word.length();
                return word;
            }
        }
        return null;
    }

    /** Whether {@code word} stands here as a whole word, without skipping whitespace or moving. */
    public boolean atKeyword(String word) {
        if (!text.regionMatches(dialect.keywordsIgnoreCase(), pos, word, 0, word.length())) {
            return false;
        }
        int end = pos + word.length();
        return end >= text.length() || !isWordCharacter(text.charAt(end));
    }

    private boolean isWordCharacter(char c) {
        return Character.isLetterOrDigit(c) || dialect.keywordSymbols().indexOf(c) >= 0;
    }

    /** After whitespace, moves past {@code c}, which must come next. */
    public void expect(char c) {
        skipSpace();
        if (peek() != c) {
            throw errors.apply(new SyntaxError.Expected(pos, c));
        }
        pos++;
    }

    /** After whitespace, a name (label, metric, function), moved past; else null. */
    public String identifier() {
        skipSpace();
        int start = pos;
        String name = takeWhile(c -> Character.isLetterOrDigit(c) || dialect.nameSymbols().indexOf(c) >= 0);
        if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
            pos = start;
            return null;
        }
        return name;
    }

    /** After whitespace, a string literal, moved past; its value, escapes read. */
    public String string() {
        skipSpace();
        char quote = peek();
        if (atEnd() || dialect.quotes().indexOf(quote) < 0) {
            throw errors.apply(new SyntaxError.NotAString(pos));
        }
        pos++;
        StringBuilder out = new StringBuilder();
        while (pos < text.length() && text.charAt(pos) != quote) {
            char c = text.charAt(pos++);
            if (c == '\\' && quote != '`' && pos < text.length()) {
                out.append(escaped(text.charAt(pos++)));
            } else {
                out.append(c);
            }
        }
        if (pos >= text.length()) {
            throw errors.apply(new SyntaxError.UnterminatedString(pos));
        }
        pos++;
        return out.toString();
    }

    /** What {@code \c} stands for; an escape the languages do not define keeps its backslash. */
    private String escaped(char c) {
        return switch (c) {
            case 'n' -> "\n";
            case 't' -> "\t";
            case '\\' -> "\\";
            default -> c != '`' && dialect.quotes().indexOf(c) >= 0 ? String.valueOf(c) : "\\" + c;
        };
    }

    /** After whitespace, a duration such as {@code 1h30m} or {@code 500ms}, moved past; in milliseconds. */
    public long durationMillis() {
        skipSpace();
        int start = pos;
        long total = 0;
        while (Character.isDigit(peek())) {
            long amount = Long.parseLong(takeWhile(Character::isDigit));
            total += amount * unitMillis(start);
        }
        if (pos == start) {
            throw errors.apply(new SyntaxError.NotADuration(pos));
        }
        return total;
    }

    /** Moves past the unit of one part of a duration and returns its length. */
    private long unitMillis(int durationStart) {
        // every unit is one letter but ms; an unknown one is one character, or none at the end
        String unit = lookingAt("ms") ? "ms" : atEnd() ? "" : String.valueOf(peek());
        pos += unit.length();
        long millis = switch (unit) {
            case "ms" -> 1L;
            case "s" -> 1_000L;
            case "m" -> 60_000L;
            case "h" -> 3_600_000L;
            case "d" -> 86_400_000L;
            case "w" -> 604_800_000L;
            case "y" -> dialect.durationsCountYears() ? 31_536_000_000L : 0L;
            default -> 0L;
        };
        if (millis == 0L) {
            throw errors.apply(new SyntaxError.BadDurationUnit(pos, since(durationStart)));
        }
        return millis;
    }
}
