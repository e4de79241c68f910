package dev.omcp.ports.audit;

import dev.omcp.sdk.text.BackendText;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One entry of the hash-chained audit log (spec 2.7, DECISIONS.md "Audit entry"). {@code hash} is
 * the SHA-256 (lower-case hex) of the RFC 8785 canonical JSON of the entry without {@code hash};
 * {@code prevHash} is the previous entry's {@code hash}, or {@link #GENESIS_HASH} for the first.
 *
 * @param ts when it was recorded, at millisecond precision, never earlier than the previous entry
 * @param seq position in the chain, starting at 1, without gaps, at most {@link #MAX_SEQ}
 * @param actor who did it
 * @param tenant the actor's tenant; {@code null} when none
 * @param resource what was acted on
 * @param action what was done
 * @param method HTTP method; {@code null} for events without a request
 * @param path request path; {@code null} for events without a request
 * @param status HTTP status; {@code 0} for events without a request
 * @param ip client address; {@code null} when unknown
 * @param target the {@code :name} path parameter; {@code null} when none
 * @param prevHash the previous entry's hash
 * @param hash this entry's hash
 */
public record AuditEntry(
        Instant ts,
        long seq,
        String actor,
        String tenant,
        String resource,
        String action,
        String method,
        String path,
        int status,
        String ip,
        String target,
        String prevHash,
        String hash) {

    /** The {@code prevHash} of the first entry: 64 zeros. */
    public static final String GENESIS_HASH = "0".repeat(64);

    /**
     * The largest {@code seq}: 2^53 - 1, the largest integer up to which every integer has its own
     * RFC 8785 spelling (numbers are IEEE 754 doubles there). Past it two entries differing only in
     * {@code seq} would hash the same.
     */
    public static final long MAX_SEQ = (1L << 53) - 1;

    private static final Pattern HEX_SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final DateTimeFormatter TS_FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    public AuditEntry {
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(action, "action");
        if (seq < 1 || seq > MAX_SEQ) {
            throw new IllegalArgumentException("seq must be 1 to " + MAX_SEQ + ", got " + seq);
        }
        if (status < 0 || status > 999) {
            throw new IllegalArgumentException("status must be 0 (no request) or an HTTP status, got " + status);
        }
        if (prevHash == null || !HEX_SHA256.matcher(prevHash).matches()) {
            throw new IllegalArgumentException("prevHash must be 64 lower-case hex digits");
        }
        if (hash == null || !HEX_SHA256.matcher(hash).matches()) {
            throw new IllegalArgumentException("hash must be 64 lower-case hex digits");
        }
        if (!ts.truncatedTo(ChronoUnit.MILLIS).equals(ts)) {
            throw new IllegalArgumentException("ts must have millisecond precision, got " + ts);
        }
    }

    /** Whether {@code text} has the form of a hash: 64 lower-case hex digits. */
    public static boolean isHash(String text) {
        return text != null && HEX_SHA256.matcher(text).matches();
    }

    /** The timestamp as written in the log: UTC, always three fraction digits, {@code Z}. */
    public static String formatTimestamp(Instant ts) {
        return TS_FORMAT.format(ts);
    }

    /**
     * Parses a timestamp written by {@link #formatTimestamp}; any other spelling is refused, so a
     * timestamp has exactly one form in the log.
     *
     * @throws IllegalArgumentException when {@code text} is not in that form
     */
    public static Instant parseTimestamp(String text) {
        try {
            Instant parsed = Instant.from(TS_FORMAT.parse(text));
            if (!formatTimestamp(parsed).equals(text)) {
                throw new IllegalArgumentException(notATimestamp(text));
            }
            return parsed;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(notATimestamp(text), e);
        }
    }

    /** The refusal quotes the text bounded and on one line: it comes from a file anyone may have edited. */
    private static String notATimestamp(String text) {
        return "timestamp '" + BackendText.quoted(text, 40) + "' is not in the form 2025-01-31T12:00:00.000Z";
    }
}
