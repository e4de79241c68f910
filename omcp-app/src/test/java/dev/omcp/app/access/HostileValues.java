package dev.omcp.app.access;

import java.util.ArrayList;
import java.util.List;

/**
 * The hostile values {@link ManagementApiFuzzIT} puts where the management API expects something
 * plain: as JSON text for a body, and as raw path or query text. Each is named, so a failure says
 * which one it was without printing a megabyte.
 */
final class HostileValues {
    /** What a huge string is made of: easy to spot if an answer echoes it. */
    static final String FILLER = "fuzzfuzz";
    /** A megabyte less a little, so the body stays within 1 MiB and reaches the route's own checks. */
    static final String NEAR_MEGABYTE = FILLER.repeat(1_040_000 / FILLER.length());
    /** A run of the filler an answer must never hold. */
    static final String ECHO_MARK = FILLER.repeat(12);

    /** A named value; {@code text} is JSON, or raw path/query text for {@link #pathSegments()}. */
    record Value(String name, String text) {
        @Override
        public String toString() {
            return name;
        }
    }

    private HostileValues() {}

    /** Texts with tricks in them, as JSON strings: control, bidi and invisible characters, lookalikes, paths, a megabyte. */
    static List<Value> strings() {
        List<Value> values = new ArrayList<>();
        values.add(new Value("empty string", "\"\""));
        values.add(new Value("blank string", "\"   \""));
        values.add(new Value("NUL", "\"a\\u0000b\""));
        values.add(new Value("bell and escape", "\"a\\u0007\\u001b[31mb\""));
        values.add(new Value("newline", "\"a\\nb\\r\\nc\""));
        values.add(new Value("DEL and C1", "\"a\\u007f\\u0085\\u009bb\""));
        values.add(new Value("right-to-left override", "\"\\u202eevil\""));
        values.add(new Value("bidi isolates", "\"\\u2066a\\u2069\\u2067b\\u2069\""));
        values.add(new Value("zero-width space", "\"a\\u200bb\""));
        values.add(new Value("byte order mark", "\"\\ufeffname\""));
        values.add(new Value("lone high surrogate", "\"a\\ud800b\""));
        values.add(new Value("lone low surrogate", "\"\\udc00\""));
        values.add(new Value("fullwidth letters", "\"\\uff41\\uff44\\uff4d\\uff49\\uff4e\""));
        values.add(new Value("cyrillic lookalike", "\"\\u0430dmin\""));
        values.add(new Value("fullwidth digits", "\"\\uff13\\uff10m\""));
        values.add(new Value("arabic-indic digits", "\"\\u0663\\u0660\""));
        values.add(new Value("combining marks", "\"a\\u0301\\u0301\\u0301\\u0301\""));
        values.add(new Value("emoji", "\"\\ud83d\\udca5\\ud83d\\udca5\""));
        values.add(new Value("path traversal", "\"../../etc/passwd\""));
        values.add(new Value("encoded traversal", "\"%2e%2e%2f%2e%2e\""));
        values.add(new Value("backslash", "\"a\\\\b\""));
        values.add(new Value("quote", "\"a\\\"b\""));
        values.add(new Value("lookup expression", "\"${jndi:ldap://127.0.0.1:1/x}\""));
        values.add(new Value("markup", "\"<script>alert(1)</script>\""));
        values.add(new Value("sql", "\"'; DROP TABLE users; --\""));
        values.add(new Value("70k string", "\"" + FILLER.repeat(70_000 / FILLER.length()) + "\""));
        values.add(new Value("near-megabyte string", "\"" + NEAR_MEGABYTE + "\""));
        return values;
    }

    /** Values of the wrong JSON type for a string, or numbers no field should take. */
    static List<Value> wrongTypes() {
        List<Value> values = new ArrayList<>();
        values.add(new Value("zero", "0"));
        values.add(new Value("negative zero", "-0"));
        values.add(new Value("negative zero float", "-0.0"));
        values.add(new Value("minus one", "-1"));
        values.add(new Value("1e309", "1e309"));
        values.add(new Value("-1e309", "-1e309"));
        values.add(new Value("1e-400", "1e-400"));
        values.add(new Value("2^63", "9223372036854775808"));
        values.add(new Value("-2^63-1", "-9223372036854775809"));
        values.add(new Value("2^64", "18446744073709551616"));
        values.add(new Value("huge exponent", "1e2147483648"));
        values.add(new Value("1000 digits", "1" + "0".repeat(999)));
        values.add(new Value("1200 digits", "1" + "0".repeat(1199)));
        values.add(new Value("long fraction", "0." + "9".repeat(1000)));
        values.add(new Value("true", "true"));
        values.add(new Value("false", "false"));
        values.add(new Value("empty array", "[]"));
        values.add(new Value("array of string", "[\"a\"]"));
        values.add(new Value("empty object", "{}"));
        values.add(new Value("object", "{\"a\": 1}"));
        values.add(new Value("nesting 60", "[".repeat(60) + "]".repeat(60)));
        values.add(new Value("nesting 100", "[".repeat(100) + "]".repeat(100)));
        values.add(new Value("object nesting 100", "{\"a\":".repeat(100) + "1" + "}".repeat(100)));
        values.add(new Value("nesting 100000 unclosed", "[".repeat(100_000)));
        return values;
    }

    /** Whole bodies that are not one JSON object of the route. */
    static List<Value> bodies() {
        List<Value> values = new ArrayList<>();
        values.add(new Value("empty body", ""));
        values.add(new Value("white space", "  \n\t "));
        values.add(new Value("null", "null"));
        values.add(new Value("array", "[]"));
        values.add(new Value("string", "\"x\""));
        values.add(new Value("number", "1e309"));
        values.add(new Value("unclosed", "{"));
        values.add(new Value("unclosed member", "{\"a\":"));
        values.add(new Value("two objects", "{}{}"));
        values.add(new Value("trailing garbage", "{} x"));
        values.add(new Value("comment", "{/* c */}"));
        values.add(new Value("single quotes", "{'a': 'b'}"));
        values.add(new Value("NaN", "{\"a\": NaN}"));
        values.add(new Value("trailing comma", "{\"a\": 1,}"));
        values.add(new Value("raw control character in string", "{\"a\": \"x" + (char) 1 + "y\"}"));
        values.add(new Value("nesting 100000", "[".repeat(100_000) + "]".repeat(100_000)));
        values.add(new Value("10000 members", memberList(10_000)));
        return values;
    }

    private static String memberList(int count) {
        StringBuilder body = new StringBuilder("{");
        for (int i = 0; i < count; i++) {
            body.append(i == 0 ? "" : ",").append("\"m").append(i).append("\":").append(i);
        }
        return body.append('}').toString();
    }

    /** Byte sequences that are not UTF-8, to be put inside a JSON string. */
    static List<Value> invalidUtf8() {
        return List.of(new Value("0xFF", "\u00ff"), new Value("overlong slash", "\u00c0\u00af"),
                new Value("truncated sequence", "\u00c3"), new Value("encoded surrogate", "\u00ed\u00a0\u0080"),
                new Value("latin-1 e-acute", "\u00e9t\u00e9"));
    }

    /**
     * Path segments as sent on the wire: percent-encoded tricks, encodings Jetty must refuse, and
     * text a name can never be.
     */
    static List<Value> pathSegments() {
        List<Value> values = new ArrayList<>();
        values.add(new Value("invalid percent %ZZ", "a%ZZ"));
        values.add(new Value("lone percent", "a%"));
        values.add(new Value("short percent", "a%4"));
        values.add(new Value("encoded NUL", "a%00b"));
        values.add(new Value("overlong slash", "a%C0%AFb"));
        values.add(new Value("invalid byte 0xFF", "a%FFb"));
        values.add(new Value("encoded surrogate", "a%ED%A0%80b"));
        values.add(new Value("encoded slash", "a%2Fb"));
        values.add(new Value("encoded backslash", "a%5Cb"));
        values.add(new Value("encoded dot dot", "%2e%2e"));
        values.add(new Value("double-encoded", "a%252Fb"));
        values.add(new Value("control characters", "evil%01%1B%5B31m"));
        values.add(new Value("right-to-left override", "%E2%80%AEevil"));
        values.add(new Value("zero-width space", "a%E2%80%8Bb"));
        values.add(new Value("fullwidth", "%EF%BD%81%EF%BD%84"));
        values.add(new Value("emoji", "%F0%9F%92%A5"));
        values.add(new Value("encoded newline", "a%0D%0Ab"));
        values.add(new Value("encoded space", "a%20b"));
        values.add(new Value("semicolon parameter", "a;jsessionid=1"));
        values.add(new Value("upper case", "Shared-Prometheus"));
        values.add(new Value("leading dash", "-a"));
        values.add(new Value("4000 characters", FILLER.repeat(500)));
        values.add(new Value("dot", "."));
        return values;
    }

    /** Query values: absurd numbers, encodings, tricks. */
    static List<Value> queryValues() {
        List<Value> values = new ArrayList<>();
        values.add(new Value("empty", ""));
        values.add(new Value("negative zero", "-0"));
        values.add(new Value("minus one", "-1"));
        values.add(new Value("1e309", "1e309"));
        values.add(new Value("2^63", "9223372036854775808"));
        values.add(new Value("2^31", "2147483648"));
        values.add(new Value("hex", "0x10"));
        values.add(new Value("fraction", "1.5"));
        values.add(new Value("plus sign", "%2B5"));
        values.add(new Value("fullwidth digits", "%EF%BC%95"));
        values.add(new Value("arabic-indic digits", "%D9%A5"));
        values.add(new Value("control characters", "a%01%1B%5B31m"));
        values.add(new Value("right-to-left override", "%E2%80%AEevil"));
        values.add(new Value("invalid percent", "a%ZZ"));
        values.add(new Value("invalid byte 0xFF", "a%FF"));
        values.add(new Value("encoded NUL", "a%00"));
        values.add(new Value("3000 characters", FILLER.repeat(375)));
        values.add(new Value("time with offset", "2026-03-01T10:00:00%2B99:00"));
        values.add(new Value("year 999999999", "+999999999-12-31T23:59:59Z"));
        values.add(new Value("true with space", "true%20"));
        values.add(new Value("TRUE", "TRUE"));
        return values;
    }
}
