package dev.omcp.core.audit;

import dev.omcp.testkit.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditEvent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChainVerifierTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2025-03-01T10:00:00Z"));

    /** The bytes of a log file holding {@code n} entries, as the file store writes them. */
    private byte[] chainFile(int n) {
        AuditChainTest.ListLog log = new AuditChainTest.ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        for (int i = 1; i <= n; i++) {
            clock.advance(Duration.ofMillis(1500));
            chain.record(new AuditEvent("user:alice", i % 2 == 0 ? "acme" : "", "sources", "update", "PUT",
                    "/api/sources/s" + i, 200, "127.0.0.1", i == 2 ? "naïve \"quoted\"\u0001" : "s" + i));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (var record : log.records) {
            out.writeBytes((record.json() + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    /** Feeds file bytes to a verifier the way the verify command does: split at line breaks. */
    static ChainVerifier.Result verify(ChainVerifier verifier, byte[] file) {
        verifier.nextFile();
        int start = 0;
        for (int i = 0; i < file.length; i++) {
            if (file[i] == '\n') {
                verifier.accept(Arrays.copyOfRange(file, start, i), true);
                start = i + 1;
            }
        }
        if (start < file.length) {
            verifier.accept(Arrays.copyOfRange(file, start, file.length), false);
        }
        return verifier.result();
    }

    private static int lineOf(byte[] file, int position) {
        int line = 1;
        for (int i = 0; i < position; i++) {
            if (file[i] == '\n') {
                line++;
            }
        }
        return line;
    }

    @Test
    void aValidChainReportsCountAndTip() {
        byte[] file = chainFile(5);
        ChainVerifier.Result result = verify(ChainVerifier.fromGenesis(), file);
        assertThat(result).isInstanceOf(ChainVerifier.Valid.class);
        ChainVerifier.Valid valid = (ChainVerifier.Valid) result;
        assertThat(valid.count()).isEqualTo(5);
        assertThat(valid.firstSeq()).isEqualTo(1);
        assertThat(valid.lastSeq()).isEqualTo(5);
        assertThat(valid.tipHash()).hasSize(64);
    }

    @Test
    void anEmptyChainIsValidWithTheGenesisTip() {
        assertThat(verify(ChainVerifier.fromGenesis(), new byte[0]))
                .isEqualTo(new ChainVerifier.Valid(0, 0, 0, "0".repeat(64)));
    }

    @Test
    void changingAnySingleByteNamesTheEntryThatHoldsIt() {
        byte[] original = chainFile(4);
        List<String> missed = new ArrayList<>();
        for (int position = 0; position < original.length; position++) {
            for (int mask : new int[] {0x01, 0x20, 0x80, 0xff}) {
                byte[] file = original.clone();
                file[position] = (byte) (file[position] ^ mask);
                ChainVerifier.Result result = verify(ChainVerifier.fromGenesis(), file);
                int line = lineOf(original, position);
                if (!(result instanceof ChainVerifier.Broken broken) || broken.seq() != line) {
                    missed.add("byte " + position + " ^" + Integer.toHexString(mask) + " (line " + line + "): " + result);
                }
            }
        }
        assertThat(missed).isEmpty();
    }

    @Test
    void eachReasonIsNamed() {
        String[] lines = new String(chainFile(3), StandardCharsets.UTF_8).split("\n");

        // seq gap: the second line is missing
        assertBroken(lines[0] + "\n" + lines[2] + "\n", 2, ChainVerifier.Reason.SEQ_GAP);
        // a line that is not JSON
        assertBroken(lines[0] + "\n{oops\n", 2, ChainVerifier.Reason.UNPARSABLE_LINE);
        // JSON that is not an entry
        assertBroken(lines[0] + "\n{\"seq\":2}\n", 2, ChainVerifier.Reason.UNPARSABLE_LINE);
        // same content, not canonical (a space added)
        assertBroken(lines[0].replace("\"actor\":", "\"actor\": ") + "\n", 1, ChainVerifier.Reason.NOT_CANONICAL);
        // a torn last line
        assertBroken(lines[0] + "\n" + lines[1].substring(0, 40), 2, ChainVerifier.Reason.TORN_LINE);
        // a chain that does not start at seq 1
        assertBroken(lines[1] + "\n", 1, ChainVerifier.Reason.SEQ_GAP);
    }

    @Test
    void deletedReorderedAppendedAndRespelledLinesAreEachNamed() {
        String[] lines = new String(chainFile(4), StandardCharsets.UTF_8).split("\n");

        // a middle line deleted
        assertBroken(lines[0] + "\n" + lines[1] + "\n" + lines[3] + "\n", 3, ChainVerifier.Reason.SEQ_GAP);
        // a pair swapped
        assertBroken(lines[0] + "\n" + lines[2] + "\n" + lines[1] + "\n" + lines[3] + "\n", 2, ChainVerifier.Reason.SEQ_GAP);
        // the tail cut at a line break: what is left still verifies, and its tip is the evidence
        // (compare it with the tipHash a client or a sink saw; see docs/audit.md)
        assertThat(verify(ChainVerifier.fromGenesis(), (lines[0] + "\n" + lines[1] + "\n").getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ChainVerifier.Valid.class);
        // a forged line appended: the next seq and the right prevHash, but no way to make its hash
        // without recomputing it, which the canonical form and the hash then show
        String forged = lines[3].replace("\"seq\":4,", "\"seq\":5,").replaceFirst("\"prevHash\":\"[0-9a-f]{64}\"",
                "\"prevHash\":\"" + lines[3].replaceAll(".*\"hash\":\"([0-9a-f]{64})\".*", "$1") + "\"");
        assertBroken(String.join("\n", lines) + "\n" + forged + "\n", 5, ChainVerifier.Reason.HASH_MISMATCH);
        // a duplicate key: the same content read either way, but not the one canonical spelling
        assertBrokenAt(lines[0].replace("\"action\":\"update\",", "\"action\":\"update\",\"action\":\"update\",") + "\n", 1);
        // the same numbers spelled differently
        assertBrokenAt(lines[0].replace("\"seq\":1,", "\"seq\":1.0,") + "\n", 1);
        assertBrokenAt(lines[0].replace("\"status\":200,", "\"status\":2e2,") + "\n", 1);
        assertBrokenAt(lines[0].replace("\"status\":200,", "\"status\":0200,") + "\n", 1);
        // a Windows line break
        assertBroken(lines[0] + "\r\n", 1, ChainVerifier.Reason.NOT_CANONICAL);
    }

    @Test
    void whatAnEditorOrACopyDoesToAFile_isNamedAsSuch_notOnlyAsNotJsonOrNotCanonical() {
        String[] lines = new String(chainFile(2), StandardCharsets.UTF_8).split("\n");

        // saved by an editor that adds a byte order mark
        assertDetail("\uFEFF" + lines[0] + "\n", ChainVerifier.Reason.UNPARSABLE_LINE, "byte order mark");
        // converted to Windows line breaks (unix2dos, a text-mode copy)
        assertDetail(lines[0] + "\r\n" + lines[1] + "\r\n", ChainVerifier.Reason.NOT_CANONICAL, "carriage return");
        // an empty line, as an editor leaves at the end
        assertDetail(lines[0] + "\n" + lines[1] + "\n\n", ChainVerifier.Reason.UNPARSABLE_LINE, "empty");
        // a seq past the exact range of a JSON number, which no entry can have
        assertDetail(lines[0].replace("\"seq\":1,", "\"seq\":9007199254740993,") + "\n", ChainVerifier.Reason.UNPARSABLE_LINE,
                "seq");
    }

    private void assertDetail(String file, ChainVerifier.Reason reason, String detail) {
        ChainVerifier.Result result = verify(ChainVerifier.fromGenesis(), file.getBytes(StandardCharsets.UTF_8));
        assertThat(result).isInstanceOfSatisfying(ChainVerifier.Broken.class, broken -> {
            assertThat(broken.reason()).as(broken.detail()).isEqualTo(reason);
            assertThat(broken.detail()).contains(detail);
        });
    }

    @Test
    void whatATamperedLineHolds_isShownOnOneShortLine_soItCannotDriveTheTerminalThatPrintsTheVerdict() {
        String[] lines = new String(chainFile(2), StandardCharsets.UTF_8).split("\n");
        // JSON escapes decode to ESC, line breaks and a bidi override: printed raw they would clear the
        // screen and forge "OK: ..." over the verdict; and a 1 MiB name would flood it
        String forgery = "\\u001b[2J\\u001b[HOK: 2 entries\\n\\u202e" + "x".repeat(100_000);
        String extraField = lines[1].replace("\"ip\":", "\"" + forgery + "\":1,\"ip\":");
        String badTimestamp = lines[1].replaceFirst("\"ts\":\"[^\"]*\"", java.util.regex.Matcher.quoteReplacement("\"ts\":\"" + forgery + "\""));

        for (String tampered : List.of(extraField, badTimestamp)) {
            ChainVerifier.Result result = verify(ChainVerifier.fromGenesis(),
                    (lines[0] + "\n" + tampered + "\n").getBytes(StandardCharsets.UTF_8));
            assertThat(result).isInstanceOfSatisfying(ChainVerifier.Broken.class, broken -> {
                assertThat(broken.seq()).isEqualTo(2);
                assertThat(broken.reason()).isEqualTo(ChainVerifier.Reason.UNPARSABLE_LINE);
                assertThat(broken.detail()).hasSizeLessThan(300)
                        .doesNotContain("\u001b", "\n", "\u202e")
                        .contains("?[2J?[HOK: 2 entries");
            });
        }
    }

    private void assertBrokenAt(String file, long seq) {
        ChainVerifier.Result result = verify(ChainVerifier.fromGenesis(), file.getBytes(StandardCharsets.UTF_8));
        assertThat(result).isInstanceOfSatisfying(ChainVerifier.Broken.class, broken -> {
            assertThat(broken.seq()).isEqualTo(seq);
            assertThat(broken.reason()).as(broken.detail())
                    .isIn(ChainVerifier.Reason.NOT_CANONICAL, ChainVerifier.Reason.UNPARSABLE_LINE);
        });
    }

    @Test
    void aRewrittenEntryWithARecomputedHashBreaksTheNextLink() {
        // An attacker who edits entry 2 and fixes its hash still breaks entry 3's prevHash.
        AuditChainTest.ListLog log = new AuditChainTest.ListLog();
        AuditChain chain = new AuditChain(log, List.of(), clock).start();
        for (int i = 0; i < 3; i++) {
            chain.record(new AuditEvent("user:alice", "", "sources", "delete", "DELETE", "/api/sources/s", 204, "", "s"));
        }
        var second = log.records.get(1).entry();
        AuditEntryCodec.Entry forged = new AuditEntryCodec.Entry(second.ts(), 2, "user:bob", null, second.resource(),
                second.action(), second.method(), second.path(), second.status(), second.ip(), second.target(),
                second.prevHash(), null);
        String forgedLine = AuditEntryCodec.line(forged.withHash(AuditEntryCodec.hash(forged)));
        String file = log.records.get(0).json() + "\n" + forgedLine + "\n" + log.records.get(2).json() + "\n";

        assertBroken(file, 3, ChainVerifier.Reason.PREV_HASH_MISMATCH);
    }

    @Test
    void aChainWhoseTimeGoesBackwards_isBroken_evenWithEveryHashRecomputed() {
        // the writer holds ts at the last entry's when the clock steps back, and searches by time stop early
        // relying on it; a rewritten chain with an earlier ts would hide that entry from them
        AuditEntryCodec.Entry first = new AuditEntryCodec.Entry(Instant.parse("2025-03-01T10:00:05Z"), 1, "user:alice", null,
                "sources", "delete", "DELETE", "/api/sources/a", 204, "", "a", "0".repeat(64), null);
        AuditEntry firstSealed = first.withHash(AuditEntryCodec.hash(first));
        AuditEntryCodec.Entry second = new AuditEntryCodec.Entry(Instant.parse("2025-03-01T10:00:04Z"), 2, "user:alice", null,
                "sources", "delete", "DELETE", "/api/sources/b", 204, "", "b", firstSealed.hash(), null);
        String file = AuditEntryCodec.line(firstSealed) + "\n" + AuditEntryCodec.line(second.withHash(AuditEntryCodec.hash(second)))
                + "\n";

        assertBroken(file, 2, ChainVerifier.Reason.TIME_BACKWARDS);
    }

    @Test
    void aSegmentStartsAtItsFirstEntryButStillChecksThatEntrysHash() {
        String[] lines = new String(chainFile(4), StandardCharsets.UTF_8).split("\n");
        byte[] tail = (lines[2] + "\n" + lines[3] + "\n").getBytes(StandardCharsets.UTF_8);

        ChainVerifier.Result result = verify(ChainVerifier.segment(), tail);

        assertThat(result).isInstanceOf(ChainVerifier.Valid.class);
        assertThat(((ChainVerifier.Valid) result).firstSeq()).isEqualTo(3);
        byte[] forged = (lines[2].replace("user:alice", "user:alicf") + "\n").getBytes(StandardCharsets.UTF_8);
        ChainVerifier.Result broken = verify(ChainVerifier.segment(), forged);
        assertThat(broken).isInstanceOf(ChainVerifier.Broken.class);
        assertThat(((ChainVerifier.Broken) broken).reason()).isEqualTo(ChainVerifier.Reason.HASH_MISMATCH);
    }

    @Test
    void aSegmentThatStartsAtSeqOne_mustStartFromTheGenesisHash() {
        // seq 1 rewritten with a prevHash of its own choosing and sealed again: as a segment its hash checks out,
        // but nothing can come before seq 1
        AuditEntryCodec.Entry forged = new AuditEntryCodec.Entry(Instant.parse("2025-03-01T10:00:00Z"), 1, "user:mallory", null,
                "sources", "delete", "DELETE", "/api/sources/a", 204, "", "a", "ab".repeat(32), null);
        byte[] file = (AuditEntryCodec.line(forged.withHash(AuditEntryCodec.hash(forged))) + "\n").getBytes(StandardCharsets.UTF_8);

        ChainVerifier.Result result = verify(ChainVerifier.segment(), file);

        assertThat(result).isInstanceOf(ChainVerifier.Broken.class);
        assertThat(((ChainVerifier.Broken) result).reason()).isEqualTo(ChainVerifier.Reason.PREV_HASH_MISMATCH);
        assertThat(verify(ChainVerifier.segment(), chainFile(2))).isInstanceOf(ChainVerifier.Valid.class);
    }

    @Test
    void rotatedFilesVerifyInOrderAndTheOverlapLineIsSkipped() {
        String[] lines = new String(chainFile(4), StandardCharsets.UTF_8).split("\n");
        byte[] older = (lines[0] + "\n" + lines[1] + "\n").getBytes(StandardCharsets.UTF_8);
        // the rotation procedure starts the new file with a copy of the old file's last line
        byte[] newer = (lines[1] + "\n" + lines[2] + "\n" + lines[3] + "\n").getBytes(StandardCharsets.UTF_8);
        ChainVerifier verifier = ChainVerifier.fromGenesis();

        verify(verifier, older);
        ChainVerifier.Result result = verify(verifier, newer);

        assertThat(result).isInstanceOf(ChainVerifier.Valid.class);
        assertThat(((ChainVerifier.Valid) result).count()).isEqualTo(4);
    }

    private void assertBroken(String file, long seq, ChainVerifier.Reason reason) {
        ChainVerifier.Result result = verify(ChainVerifier.fromGenesis(), file.getBytes(StandardCharsets.UTF_8));
        assertThat(result).isInstanceOf(ChainVerifier.Broken.class);
        ChainVerifier.Broken broken = (ChainVerifier.Broken) result;
        assertThat(broken.reason()).as(broken.detail()).isEqualTo(reason);
        assertThat(broken.seq()).isEqualTo(seq);
    }

    private static ChainVerifier.Anchor anchorOf(String line) {
        try (var reader = dev.omcp.sdk.json.Jsonp.reader(line)) {
            var json = reader.readObject();
            return new ChainVerifier.Anchor(json.getJsonNumber("seq").longValue(), json.getString("hash"));
        }
    }

    private static byte[] firstLines(String[] lines, int n) {
        return (String.join("\n", Arrays.copyOf(lines, n)) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aChainWhoseEndWasCutOffVerifiesAlone_butNotAgainstAnAnchorBeyondItsEnd() {
        String[] lines = new String(chainFile(5), StandardCharsets.UTF_8).split("\n");
        ChainVerifier.Anchor tip = anchorOf(lines[4]);
        byte[] cut = firstLines(lines, 3);

        assertThat(verify(ChainVerifier.fromGenesis(), cut)).as("without an anchor the cut is invisible")
                .isInstanceOf(ChainVerifier.Valid.class);
        ChainVerifier.Result result = verify(ChainVerifier.fromGenesis().expect(tip), cut);

        assertThat(result).isInstanceOf(ChainVerifier.Broken.class);
        ChainVerifier.Broken broken = (ChainVerifier.Broken) result;
        assertThat(broken.reason()).isEqualTo(ChainVerifier.Reason.CUT_BEFORE_ANCHOR);
        assertThat(broken.seq()).isEqualTo(4);
        assertThat(broken.line()).isEqualTo(4);
        assertThat(broken.detail()).isEqualTo("the chain ends at seq 3 but an anchor names seq 5: entries 4..5 at least were cut off the end");
        assertThat(verify(ChainVerifier.fromGenesis().expect(tip), new byte[0])).isInstanceOf(ChainVerifier.Broken.class);
    }

    @Test
    void anAnchorTheChainHolds_verifies_andOneWithAnotherHash_namesTheRewrittenEntry() {
        String[] lines = new String(chainFile(5), StandardCharsets.UTF_8).split("\n");
        assertThat(verify(ChainVerifier.fromGenesis().expect(anchorOf(lines[2])).expect(anchorOf(lines[4])), firstLines(lines, 5)))
                .isInstanceOf(ChainVerifier.Valid.class);

        // a chain rebuilt from seq 1 with other content verifies alone, but not against the anchor of the original
        clock.advance(Duration.ofHours(1));
        String[] rebuilt = new String(chainFile(5), StandardCharsets.UTF_8).split("\n");
        ChainVerifier.Result result = verify(ChainVerifier.fromGenesis().expect(anchorOf(lines[2])), firstLines(rebuilt, 5));

        assertThat(result).isInstanceOf(ChainVerifier.Broken.class);
        ChainVerifier.Broken broken = (ChainVerifier.Broken) result;
        assertThat(broken.reason()).isEqualTo(ChainVerifier.Reason.ANCHOR_MISMATCH);
        assertThat(broken.seq()).isEqualTo(3);
        assertThat(broken.line()).isEqualTo(3);
    }

    @Test
    void aSegmentCannotCheckAnAnchorBeforeItsFirstEntry_andSaysSo() {
        String[] lines = new String(chainFile(4), StandardCharsets.UTF_8).split("\n");
        byte[] tail = (lines[2] + "\n" + lines[3] + "\n").getBytes(StandardCharsets.UTF_8);
        ChainVerifier verifier = ChainVerifier.segment().expect(anchorOf(lines[0])).expect(anchorOf(lines[3]));

        assertThat(verify(verifier, tail)).isInstanceOf(ChainVerifier.Valid.class);
        assertThat(verifier.anchorsBeforeFirstEntry()).containsExactly(anchorOf(lines[0]));
    }

    @Test
    void anAnchorIsSeqColonTheWholeHash_andAnythingElseIsNamed() {
        String hash = "ab".repeat(32);
        assertThat(ChainVerifier.Anchor.parse("42:" + hash.toUpperCase())).isEqualTo(new ChainVerifier.Anchor(42, hash));
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ChainVerifier.Anchor.parse(hash)))
                .hasMessageStartingWith("an anchor is SEQ:HASH");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ChainVerifier.Anchor.parse("x:" + hash)))
                .hasMessage("an anchor's seq is a whole number, before the ':'");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ChainVerifier.Anchor.parse("0:" + hash)))
                .hasMessage("an anchor's seq is 1 or more, not 0");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ChainVerifier.Anchor.parse("42:5e0c")))
                .hasMessage("an anchor's hash is the 64 lower-case hex digits of the entry's hash");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(
                () -> ChainVerifier.fromGenesis().expect(new ChainVerifier.Anchor(3, hash)).expect(new ChainVerifier.Anchor(3, "cd".repeat(32)))))
                .hasMessage("two anchors name seq 3 with different hashes");
    }
}
