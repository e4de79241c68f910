package dev.omcp.core.redaction;

import java.util.ArrayList;
import java.util.List;

/**
 * The password given to a short option of a logged command line, for the few tools whose option
 * means a password: {@code mysql -pSECRET} (and the other MySQL / MariaDB clients), {@code 7z -pSECRET},
 * {@code sshpass -p SECRET}, {@code redis-cli -a SECRET}. Elsewhere the same letters mean something
 * else ({@code ssh -p 22}, {@code docker run -p 80:80}, {@code mkdir -p /x}, {@code mysql -P 3306}),
 * so an option counts only after one of these tools' names, in the same command (a {@code ;},
 * {@code |}, {@code &} or backquote starts another one).
 *
 * <p>The MySQL clients and 7-Zip take the password glued to the option only: {@code mysql -p db}
 * prompts for it and {@code db} is the database, which is left alone. One forward pass over the
 * text, and only when an option of these letters starts a word at all.
 */
final class CommandLinePasswords {
    /**
     * How a tool takes its password.
     *
     * @param spaced whether the password may also be the next argument ({@code -p secret}), not only glued
     * @param valueOptions for a tool that runs another command ({@code sshpass ssh -p 22 host}), the
     *     letters of its options that take a value: its options end at its first other argument, the
     *     command, whose own options are not its; null when the options go on to the end of the command
     */
    private record Tool(String name, char option, boolean spaced, String valueOptions) {
        Tool(String name, char option, boolean spaced) {
            this(name, option, spaced, null);
        }
    }

    /** The longest password read after an option: a longer run is cut there, as curl's {@code -u} is. */
    private static final int MAX_VALUE = 512;
    /** The longest word read whole (a tool's name, a path to it included: {@code /usr/bin/mysql}); a longer one is skipped. */
    private static final int MAX_WORD = 256;

    private static final Tool[] TOOLS = {
        new Tool("mysql", 'p', false),
        new Tool("mysqldump", 'p', false),
        new Tool("mysqladmin", 'p', false),
        new Tool("mysqlimport", 'p', false),
        new Tool("mysqlcheck", 'p', false),
        new Tool("mysqlshow", 'p', false),
        new Tool("mysqlpump", 'p', false),
        new Tool("mysqlslap", 'p', false),
        new Tool("mysqlbinlog", 'p', false),
        new Tool("mysqlsh", 'p', false),
        new Tool("mariadb", 'p', false),
        new Tool("mariadb-dump", 'p', false),
        new Tool("mariadb-admin", 'p', false),
        new Tool("mariadb-import", 'p', false),
        new Tool("mariadb-check", 'p', false),
        new Tool("mariadb-show", 'p', false),
        new Tool("mariadb-slap", 'p', false),
        new Tool("mariadb-binlog", 'p', false),
        new Tool("7z", 'p', false),
        new Tool("7za", 'p', false),
        new Tool("7zr", 'p', false),
        new Tool("7zz", 'p', false),
        // getopt-style: the password glued or as the next argument, whatever it looks like
        new Tool("sshpass", 'p', true, "pfdP"),
        new Tool("redis-cli", 'a', true),
    };

    private CommandLinePasswords() {}

    static String redact(String s, int[] counts) {
        if (!hasCandidateOption(s)) {
            return s;
        }
        List<TextRedactor.Span> spans = null;
        int n = s.length();
        Tool tool = null;
        // whether the last word was an option of the tool's that takes the next word as its value (sshpass -f file)
        boolean valueNext = false;
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (commandEnd(c)) {
                tool = null;
                i++;
                continue;
            }
            if (!(i == 0 || wordBoundary(s.charAt(i - 1)))) {
                i++;
                continue;
            }
            if (c == '-' && tool != null) {
                int end = password(s, i, tool);
                if (end < 0) {
                    valueNext = valueOption(s, i, tool);
                    i++;
                    continue;
                }
                int start = valueStart(s, i);
                if (end > start && !s.startsWith("[REDACTED:", start)) {
                    if (spans == null) {
                        spans = new ArrayList<>();
                    }
                    spans.add(new TextRedactor.Span(start, end, RedactionCategory.SECRET));
                }
                valueNext = false;
                i = Math.max(end, i + 1);
                continue;
            }
            int e = i;
            while (e < n && e - i <= MAX_WORD && !wordBoundary(s.charAt(e)) && !commandEnd(s.charAt(e))) {
                e++;
            }
            if (e > i) {
                Tool named = named(s, i, e);
                if (named != null) {
                    tool = named;
                } else if (tool != null && tool.valueOptions() != null && !valueNext && s.charAt(i) != '-') {
                    tool = null; // the command the tool runs: the options from here on are that command's
                }
                valueNext = false;
                i = e;
            } else {
                i++;
            }
        }
        return spans == null ? s : TextRedactor.apply(s, spans, counts);
    }

    /**
     * Whether some word starts with {@code -p} or {@code -a} (the options of {@link #TOOLS}): most
     * lines have none, and are left after one search for dashes.
     */
    private static boolean hasCandidateOption(String s) {
        int n = s.length();
        int i = s.indexOf('-');
        while (i >= 0 && i + 1 < n) {
            char next = s.charAt(i + 1);
            if ((next == 'p' || next == 'a') && i > 0 && wordBoundary(s.charAt(i - 1))) {
                return true;
            }
            i = s.indexOf('-', i + 1);
        }
        return false;
    }

    /**
     * Whether the word at the dash {@code i} is one of {@code tool}'s {@link Tool#valueOptions} alone,
     * so that the next word is its value ({@code -f /run/pw}), not the command the tool runs.
     */
    private static boolean valueOption(String s, int i, Tool tool) {
        int n = s.length();
        if (tool.valueOptions() == null || i + 1 >= n || tool.valueOptions().indexOf(s.charAt(i + 1)) < 0) {
            return false;
        }
        return i + 2 == n || Character.isWhitespace(s.charAt(i + 2)) || s.charAt(i + 2) == itemQuote(s, i);
    }

    /** The tool whose name is the word {@code s[from, to)}, or the last part of its path; null when none. */
    private static Tool named(String s, int from, int to) {
        int start = to;
        while (start > from && s.charAt(start - 1) != '/') {
            start--; // within the word only: a search past it would make many words quadratic
        }
        for (Tool t : TOOLS) {
            if (to - start == t.name().length() && s.regionMatches(start, t.name(), 0, t.name().length())) {
                return t;
            }
        }
        return null;
    }

    /**
     * Where the password of {@code tool}'s option at the dash {@code i} ends, or -1 when the word is
     * not that option or carries no password ({@code mysql -p} alone prompts for it).
     */
    private static int password(String s, int i, Tool tool) {
        int n = s.length();
        if (i + 1 >= n || s.charAt(i + 1) != tool.option()) {
            return -1;
        }
        int v = i + 2;
        char item = itemQuote(s, i);
        if (v < n && s.charAt(v) != ' ' && s.charAt(v) != '\t' && s.charAt(v) != item) {
            return valueEnd(s, v, item); // glued: -pSECRET, -p'secret word'
        }
        if (!tool.spaced()) {
            return -1;
        }
        int w = v;
        if (item != 0 && w < n && s.charAt(w) == item) {
            // the option is an item of an argument list: its value is the next item ('-p', 'secret')
            w++;
            while (w < n && (s.charAt(w) == ' ' || s.charAt(w) == ',')) {
                w++;
            }
            return w < n && s.charAt(w) == item && w + 1 < n ? valueEnd(s, w + 1, item) : -1;
        }
        while (w < n && s.charAt(w) == ' ') {
            w++;
        }
        return w > v && w < n && !commandEnd(s.charAt(w)) ? valueEnd(s, w, item) : -1;
    }

    /** Where the value found by {@link #password} starts: after the option (and its spaces, comma or opening quote). */
    private static int valueStart(String s, int i) {
        int n = s.length();
        int v = i + 2;
        char item = itemQuote(s, i);
        if (v < n && s.charAt(v) != ' ' && s.charAt(v) != '\t' && s.charAt(v) != item) {
            return quote(s.charAt(v)) ? v + 1 : v;
        }
        int w = v;
        if (item != 0 && w < n && s.charAt(w) == item) {
            w++;
            while (w < n && (s.charAt(w) == ' ' || s.charAt(w) == ',')) {
                w++;
            }
            return w + 1;
        }
        while (w < n && s.charAt(w) == ' ') {
            w++;
        }
        return quote(s.charAt(w)) ? w + 1 : w;
    }

    /**
     * The end of a value starting at {@code v}: its closing quote when it opens with one
     * ({@code -p'secret word'}), else the next whitespace or the quote ending an argument list's item.
     */
    private static int valueEnd(String s, int v, char item) {
        int n = s.length();
        if (quote(s.charAt(v)) && s.charAt(v) != item) {
            char q = s.charAt(v);
            int e = v + 1;
            while (e < n && e - v <= MAX_VALUE && s.charAt(e) != q) {
                e++;
            }
            return e;
        }
        int e = v;
        while (e < n && e - v <= MAX_VALUE && !Character.isWhitespace(s.charAt(e)) && s.charAt(e) != item) {
            e++;
        }
        // an item of a list escaped inside a JSON string ([\"mysql\",\"-pX\"]): the backslash escapes the closing quote
        while (e > v && e < n && quote(s.charAt(e)) && s.charAt(e - 1) == '\\') {
            e--;
        }
        return e;
    }

    /** The quote of an argument list's item the option at {@code i} starts ({@code ['mysql', '-pX']}), else 0. */
    private static char itemQuote(String s, int i) {
        char before = i > 0 ? s.charAt(i - 1) : 0;
        return quote(before) ? before : 0;
    }

    private static boolean quote(char c) {
        return c == '\'' || c == '"';
    }

    /**
     * What may come before (or after) a word: whitespace, a quote, an opening bracket or a comma
     * (argument lists), a backslash (the escape of a quote, in a list escaped inside a JSON string).
     */
    private static boolean wordBoundary(char c) {
        return Character.isWhitespace(c) || quote(c) || c == '[' || c == '(' || c == ',' || c == '\\';
    }

    /** Where one command ends and another may start: {@code ;}, {@code |}, {@code &}, a backquote, a line break. */
    private static boolean commandEnd(char c) {
        return c == ';' || c == '|' || c == '&' || c == '`' || c == '\n' || c == '\r';
    }
}
