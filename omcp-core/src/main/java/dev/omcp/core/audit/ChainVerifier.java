package dev.omcp.core.audit;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.core.canonical.CanonicalJson;
import dev.omcp.ports.audit.AuditEntry;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Checks a chain offline, one line at a time (so a file of any size streams through): every line
 * is a canonical audit entry, {@code seq} counts up by one from 1, each {@code prevHash} is the
 * previous {@code hash}, and each {@code hash} is the SHA-256 of the entry's canonical JSON
 * without {@code hash}. The first line that fails is named with the {@code seq} it should have had
 * and the reason; since every line must be canonical, changing any single byte is detected.
 *
 * <p>Not thread-safe: one verifier reads one chain.
 */
public final class ChainVerifier {

    /** Why a chain is broken. */
    public enum Reason {
        UNPARSABLE_LINE("unparsable line"),
        NOT_CANONICAL("not in canonical form"),
        SEQ_GAP("seq gap"),
        PREV_HASH_MISMATCH("prevHash mismatch"),
        HASH_MISMATCH("hash mismatch"),
        TORN_LINE("torn last line"),
        ANCHOR_MISMATCH("anchor mismatch"),
        CUT_BEFORE_ANCHOR("cut off before an anchor"),
        TIME_BACKWARDS("time goes backwards");

        private final String text;

        Reason(String text) {
            this.text = text;
        }

        /** The reason in words, as the verify command prints it. */
        public String text() {
            return text;
        }
    }

    /** The outcome of a verification. */
    public sealed interface Result permits Valid, Broken {}

    /**
     * Every line verified.
     *
     * @param count entries checked
     * @param firstSeq seq of the first entry (0 when there was none)
     * @param lastSeq seq of the last entry (0 when there was none)
     * @param tipHash hash of the last entry, or 64 zeros for an empty chain
     */
    public record Valid(long count, long firstSeq, long lastSeq, String tipHash) implements Result {}

    /**
     * The first broken entry.
     *
     * @param seq the seq the broken line should have had
     * @param line the 1-based line number within its file
     * @param fileIndex which file (0-based) in the order they were given
     * @param reason why
     * @param detail what was found, in words
     */
    public record Broken(long seq, long line, int fileIndex, Reason reason, String detail) implements Result {}

    /**
     * An entry the chain must hold, recorded outside the file (from an earlier verification, the
     * gateway's {@code audit-chain-*} log lines, or a sink's copy). The chain alone cannot show that
     * its last entries were cut off, since what is left still verifies; an anchor can.
     *
     * @param seq the entry's seq, 1 or more
     * @param hash the entry's hash: 64 lower-case hex digits
     */
    public record Anchor(long seq, String hash) {
        private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");

        public Anchor {
            if (seq < 1) {
                throw new IllegalArgumentException("an anchor's seq is 1 or more, not " + seq);
            }
            if (hash == null || !HASH.matcher(hash).matches()) {
                throw new IllegalArgumentException("an anchor's hash is the 64 lower-case hex digits of the entry's hash");
            }
        }

        /**
         * Reads {@code SEQ:HASH}, as {@code omcp audit verify --expect} takes it.
         *
         * @throws IllegalArgumentException naming what is wrong
         */
        public static Anchor parse(String text) {
            int colon = text.indexOf(':');
            if (colon < 1) {
                throw new IllegalArgumentException("an anchor is SEQ:HASH, for example 8000:5e0c… with the whole 64-digit hash");
            }
            long seq;
            try {
                seq = Long.parseLong(text.substring(0, colon));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("an anchor's seq is a whole number, before the ':'");
            }
            return new Anchor(seq, text.substring(colon + 1).strip().toLowerCase(Locale.ROOT));
        }
    }

    private final boolean segment;
    private long count;
    private long firstSeq;
    private long lastSeq;
    private String lastHash = AuditEntry.GENESIS_HASH;
    private byte[] lastLine;
    /** The ts of the last entry checked: no entry after it may be earlier. */
    private Instant lastTs = Instant.EPOCH;
    private long lineInFile;
    private int fileIndex = -1;
    private boolean atFileStart;
    private Broken broken;
    /** Anchors not yet reached, by seq. */
    private final TreeMap<Long, Anchor> pendingAnchors = new TreeMap<>();
    private final List<Anchor> anchorsBeforeFirstEntry = new ArrayList<>();

    private ChainVerifier(boolean segment) {
        this.segment = segment;
    }

    /** A verifier for a complete chain: the first entry must be seq 1 with a prevHash of 64 zeros. */
    public static ChainVerifier fromGenesis() {
        return new ChainVerifier(false);
    }

    /**
     * A verifier for a piece of a chain (for example a rotated file, or an object a sink wrote):
     * the first entry is taken as the anchor, its own hash is still checked.
     */
    public static ChainVerifier segment() {
        return new ChainVerifier(true);
    }

    /**
     * Requires the chain to hold {@code anchor}: an entry of that seq with that hash. A chain that
     * ends before it was cut off ({@link Reason#CUT_BEFORE_ANCHOR}); one whose entry of that seq
     * has another hash was rewritten ({@link Reason#ANCHOR_MISMATCH}). Call before the first line.
     *
     * @throws IllegalArgumentException when another anchor names the same seq with another hash
     */
    public ChainVerifier expect(Anchor anchor) {
        Anchor before = pendingAnchors.putIfAbsent(anchor.seq(), anchor);
        if (before != null && !before.equals(anchor)) {
            throw new IllegalArgumentException("two anchors name seq " + anchor.seq() + " with different hashes");
        }
        return this;
    }

    /**
     * The anchors a segment could not check because they lie before its first entry (only a
     * {@link #segment()} can start after seq 1). Complete once every line was given.
     */
    public List<Anchor> anchorsBeforeFirstEntry() {
        return List.copyOf(anchorsBeforeFirstEntry);
    }

    /**
     * Starts the next file. When several files are given in order, a file may begin with a copy of
     * the previous file's last line (the rotation procedure keeps one); that copy is skipped.
     */
    public void nextFile() {
        fileIndex++;
        lineInFile = 0;
        atFileStart = true;
    }

    /** Whether a broken entry was found (then further lines are ignored). */
    public boolean isBroken() {
        return broken != null;
    }

    /**
     * Checks one complete line, without its line break.
     *
     * @param line the bytes of the line
     * @param terminated whether a line break ended it; only the last line of a file may lack one
     */
    public void accept(byte[] line, boolean terminated) {
        if (fileIndex < 0) {
            nextFile();
        }
        lineInFile++;
        if (broken != null) {
            return;
        }
        long expected = lastSeq + 1;
        boolean overlap = atFileStart && lastLine != null && terminated && Arrays.equals(line, lastLine);
        atFileStart = false;
        if (overlap) {
            return;
        }
        if (!terminated) {
            fail(expected, Reason.TORN_LINE, "the file ends in the middle of a line (" + line.length
                    + " bytes without a line break), as a crash during a write leaves it");
            return;
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(line))
                    .toString();
        } catch (CharacterCodingException e) {
            fail(expected, Reason.UNPARSABLE_LINE, "the line is not valid UTF-8");
            return;
        }
        // what an editor or a text-mode copy does to a file is named as such, not only as "not JSON"
        if (text.isEmpty()) {
            fail(expected, Reason.UNPARSABLE_LINE, "the line is empty; the gateway never writes an empty line");
            return;
        }
        if (text.charAt(0) == '\uFEFF') {
            fail(expected, Reason.UNPARSABLE_LINE, "the line starts with a byte order mark (U+FEFF), which the gateway never"
                    + " writes: the file was saved by an editor or converted after it was written");
            return;
        }
        JsonObject json;
        try (JsonReader reader = Jsonp.reader((text))) {
            JsonValue value = reader.readValue();
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                fail(expected, Reason.UNPARSABLE_LINE, "the line is not a JSON object");
                return;
            }
            json = value.asJsonObject();
        } catch (JsonException | IllegalStateException e) {
            fail(expected, Reason.UNPARSABLE_LINE, "the line is not valid JSON");
            return;
        }
        AuditEntry entry;
        try {
            entry = AuditEntryCodec.fromJson(json);
        } catch (IllegalArgumentException e) {
            fail(expected, Reason.UNPARSABLE_LINE, "the line is not an audit entry: " + e.getMessage());
            return;
        }
        String canonical;
        try {
            canonical = CanonicalJson.canonicalize(json);
        } catch (IllegalArgumentException e) {
            fail(expected, Reason.NOT_CANONICAL, e.getMessage());
            return;
        }
        if (!canonical.equals(text)) {
            fail(expected, Reason.NOT_CANONICAL, text.endsWith("\r")
                    ? "the line ends with a carriage return: the file has Windows line breaks (CRLF), which the gateway never"
                            + " writes, so it was converted or edited after it was written"
                    : "the line differs from the RFC 8785 canonical form of its own content");
            return;
        }
        boolean anchor = segment && count == 0;
        if (!anchor && entry.seq() != expected) {
            fail(expected, Reason.SEQ_GAP, "found seq " + entry.seq() + " where seq " + expected + " belongs"
                    + (count == 0 && fileIndex == 0
                            ? " (a chain starts at 1; to check a rotated file alone, use --segment or give the earlier files first)"
                            : ""));
            return;
        }
        if (anchor && entry.seq() == 1 && !entry.prevHash().equals(AuditEntry.GENESIS_HASH)) {
            // a segment that starts at seq 1 starts the chain: nothing came before it to vouch for another prevHash
            fail(1, Reason.PREV_HASH_MISMATCH, "prevHash " + entry.prevHash() + " of seq 1 is not the genesis hash "
                    + AuditEntry.GENESIS_HASH);
            return;
        }
        if (!anchor && !entry.prevHash().equals(lastHash)) {
            fail(expected, Reason.PREV_HASH_MISMATCH, "prevHash " + entry.prevHash() + " is not the previous entry's hash "
                    + lastHash);
            return;
        }
        String computed = AuditEntryCodec.hash(AuditEntryCodec.Entry.of(entry));
        if (!computed.equals(entry.hash())) {
            fail(anchor ? entry.seq() : expected, Reason.HASH_MISMATCH, "stored hash " + entry.hash()
                    + " but the entry hashes to " + computed);
            return;
        }
        if (count > 0 && entry.ts().isBefore(lastTs)) {
            // the gateway never writes this (it holds ts at the last entry's when its clock steps back),
            // and searches by time stop at the first entry older than asked, so such an entry would be hidden
            fail(expected, Reason.TIME_BACKWARDS, "ts " + AuditEntry.formatTimestamp(entry.ts()) + " is before the previous entry's "
                    + AuditEntry.formatTimestamp(lastTs) + "; the gateway never writes a time earlier than the last one");
            return;
        }
        Anchor anchored = pendingAnchors.remove(entry.seq());
        if (anchored != null && !anchored.hash().equals(entry.hash())) {
            fail(entry.seq(), Reason.ANCHOR_MISMATCH, "the anchor names hash " + anchored.hash() + " for seq " + entry.seq()
                    + " but the entry here has hash " + entry.hash() + ": the chain from this entry on was rewritten");
            return;
        }
        if (count == 0) {
            firstSeq = entry.seq();
            // a segment starting later cannot check what came before it: set those anchors aside, not failed
            anchorsBeforeFirstEntry.addAll(pendingAnchors.headMap(firstSeq).values());
            pendingAnchors.headMap(firstSeq).clear();
        }
        count++;
        lastSeq = entry.seq();
        lastHash = entry.hash();
        lastTs = entry.ts();
        lastLine = line;
    }

    /**
     * Counts a line too long to be an entry (the reader did not keep its bytes) as unparsable.
     *
     * @param length how many bytes of the line were read: more than any entry holds, and possibly not all
     *     of it, as a reader need not read on to the line's end to know it is no entry
     */
    public void acceptOversized(long length) {
        if (fileIndex < 0) {
            nextFile();
        }
        lineInFile++;
        atFileStart = false;
        if (broken == null) {
            fail(lastSeq + 1, Reason.UNPARSABLE_LINE, "the line is at least " + length + " bytes long, longer than any audit entry");
        }
    }

    private void fail(long seq, Reason reason, String detail) {
        broken = new Broken(seq, lineInFile, Math.max(fileIndex, 0), reason, Objects.requireNonNull(detail));
    }

    /** The outcome so far. */
    public Result result() {
        if (broken != null) {
            return broken;
        }
        Map.Entry<Long, Anchor> beyond = pendingAnchors.ceilingEntry(lastSeq + 1);
        if (beyond != null) {
            Anchor last = pendingAnchors.lastEntry().getValue();
            return new Broken(lastSeq + 1, lineInFile + 1, Math.max(fileIndex, 0), Reason.CUT_BEFORE_ANCHOR,
                    "the chain ends " + (count == 0 ? "before its first entry" : "at seq " + lastSeq) + " but an anchor names seq "
                    + last.seq() + ": entries " + (lastSeq + 1) + ".." + last.seq() + " at least were cut off the end");
        }
        return new Valid(count, firstSeq, lastSeq, lastHash);
    }
}
