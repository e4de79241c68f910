package dev.omcp.app.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.adapters.storage.audit.FsyncPolicy;
import dev.omcp.adapters.storage.audit.JsonlAuditLog;
import dev.omcp.adapters.storage.audit.TornTailPolicy;
import dev.omcp.app.cli.OmcpCommand;
import dev.omcp.core.audit.AuditChain;
import dev.omcp.ports.audit.AuditEvent;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The audit log end to end on a real file: concurrent writers, restarts, crashes, tampering, and
 * {@code omcp audit verify} as an operator runs it.
 */
class AuditAcceptanceIT {
    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CommandLine cli = new CommandLine(new OmcpCommand())
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true));

    /** Runs the launcher's command line in-process, as {@code omcp ARGS} would. */
    Run omcp(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static AuditChain chain(Path file, FsyncPolicy fsync, TornTailPolicy tornTail) {
        return new AuditChain(new JsonlAuditLog(file, new JsonlAuditLog.Options(fsync, Duration.ofMillis(50), tornTail)),
                List.of(), Clock.systemUTC()).start();
    }

    private static AuditEvent event(String actor, String target) {
        return new AuditEvent(actor, "", "sources", "write", "PUT", "/api/sources/" + target, 200, "127.0.0.1", target);
    }

    private static void write(AuditChain chain, int count) {
        for (int i = 0; i < count; i++) {
            chain.record(event("user:alice", "s" + i));
        }
    }

    @Test
    void eightWritersTimesAThousandGiveSeqOneTo8000WithoutGapsAndAValidChain() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain chain = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService writers = Executors.newFixedThreadPool(8)) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                String actor = "user:w" + w;
                done.add(writers.submit(() -> {
                    go.await();
                    for (int i = 0; i < 1000; i++) {
                        chain.record(event(actor, "s" + i));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> writer : done) {
                writer.get();
            }
        }
        chain.close();

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(8000);
        for (int i = 0; i < lines.size(); i++) {
            assertThat(lines.get(i)).contains("\"seq\":" + (i + 1) + ",");
        }
        Run verify = omcp("audit", "verify", file.toString());
        assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).startsWith("OK: 8000 entries, seq 1..8000, tip ");

        // flipping one byte anywhere names that entry: sampled over the whole 8000-entry file
        byte[] original = Files.readAllBytes(file);
        Random random = new Random(8000);
        for (int sample = 0; sample < 12; sample++) {
            int position = random.nextInt(original.length);
            assertFlipNamesItsEntry(original, position, 1 << random.nextInt(8));
        }
    }

    @Test
    void flippingAnySingleByteMakesVerifyNameThatEntry() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain chain = chain(file, FsyncPolicy.NEVER, TornTailPolicy.REPAIR);
        write(chain, 6);
        chain.close();
        byte[] original = Files.readAllBytes(file);

        for (int position = 0; position < original.length; position++) {
            assertFlipNamesItsEntry(original, position, 0x01);
        }
    }

    private void assertFlipNamesItsEntry(byte[] original, int position, int mask) throws Exception {
        byte[] damaged = original.clone();
        damaged[position] = (byte) (damaged[position] ^ mask);
        Path copy = dir.resolve("damaged.jsonl");
        Files.write(copy, damaged);
        int line = 1;
        for (int i = 0; i < position; i++) {
            if (original[i] == '\n') {
                line++;
            }
        }
        Run verify = omcp("audit", "verify", copy.toString());
        assertThat(verify.exit()).as("byte %d ^%x: %s", position, mask, verify.out()).isEqualTo(1);
        assertThat(verify.out()).as("byte %d ^%x", position, mask).startsWith("BROKEN at seq " + line + " ");
    }

    @Test
    void hostileFieldsStayOneEntryPerLine_verify_andNothingAViewerActsOnReachesTheFile() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain chain = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        String megabyte = "m".repeat(1 << 20);
        List<String> hostile = List.of("two\nlines\r\nand\u2028more\u2029", "\u001b[2J\u001b[31mred\u0007\u0000",
                "\u009b31mC1 CSI\u0085", "lone\ud800high and \udc00low", "admin\u202e\u2066txt.exe", megabyte,
                "quote\"back\\slash");
        for (String value : hostile) {
            chain.record(new AuditEvent(value, value, value, value, "PUT", "/api/sources/" + value, 200, value, value));
        }
        chain.close();

        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertThat(text.split("\n", -1)).as("one line per entry and a final line break").hasSize(hostile.size() + 1);
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xff;
            assertThat(b < 0x20 && b != '\n').as("raw control byte 0x%02x at %d", b, i).isFalse();
        }
        assertThat(text).doesNotContain("\u009b", "\u0085", "\u202e", "\u2066", "\ud800", "\udc00")
                .contains("\\u001b[2J", "\\n", "\uFFFD");
        assertThat(bytes.length).as("a 1 MiB value is bounded before it is hashed").isLessThan(64 * 1024);
        Run verify = omcp("audit", "verify", file.toString());
        assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).startsWith("OK: " + hostile.size() + " entries");
    }

    @Test
    void twoHundredThousandEntriesWrittenAndVerifiedOneLineAtATime() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain chain = chain(file, FsyncPolicy.NEVER, TornTailPolicy.REPAIR);
        write(chain, 200_000);
        chain.close();

        // the command reads one line at a time; a file this size in memory as text would be ~100 MB of chars
        Run verify = omcp("audit", "verify", file.toString());

        assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).startsWith("OK: 200000 entries, seq 1..200000, tip ");
    }

    @Test
    void aRestartContinuesSeqAndChainFromTheFile() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain first = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        write(first, 5);
        first.close();

        AuditChain second = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        assertThat(second.find(dev.omcp.ports.audit.AuditQuery.latest()).tipSeq()).isEqualTo(5);
        write(second, 5);
        second.close();

        assertThat(omcp("audit", "verify", file.toString()).out()).startsWith("OK: 10 entries, seq 1..10, tip ");
    }

    @Test
    void aTornTailIsDetectedRepairedAndRecordedSoTheChainStillVerifies() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain before = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        write(before, 5);
        before.close();
        long complete = Files.size(file);
        String torn = "{\"action\":\"write\",\"actor\":\"user:alice\",\"hash\":\"ab";
        Files.writeString(file, torn, StandardOpenOption.APPEND);

        Run beforeRepair = omcp("audit", "verify", file.toString());
        assertThat(beforeRepair.exit()).isEqualTo(1);
        assertThat(beforeRepair.out()).startsWith("BROKEN at seq 6 ").contains("torn last line");

        AuditChain after = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        write(after, 1);
        after.close();

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(7);
        assertThat(lines.get(5)).contains("\"action\":\"repair-torn-tail\"").contains("\"actor\":\"omcp\"")
                .contains("\"target\":\"offset=" + complete + ",bytes=" + torn.length() + "\"").contains("\"seq\":6,");
        assertThat(Files.readString(dir.resolve("audit.jsonl.torn-" + complete))).isEqualTo(torn);
        assertThat(omcp("audit", "verify", file.toString()).out()).startsWith("OK: 7 entries, seq 1..7");
    }

    @Test
    void underTheRefusePolicyATornTailStopsTheChainFromStarting() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain before = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        write(before, 2);
        before.close();
        Files.writeString(file, "{\"act", StandardOpenOption.APPEND);
        byte[] bytes = Files.readAllBytes(file);

        assertThatThrownBy(() -> chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REFUSE))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("truncate -s " + (bytes.length - 5));
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
    }

    @Test
    void anEditedTipStopsTheChainFromStartingAndVerifyNamesIt() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain before = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        write(before, 3);
        before.close();
        Files.writeString(file, Files.readString(file).replace("\"target\":\"s2\"", "\"target\":\"s9\""));

        assertThatThrownBy(() -> chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("seq 3");
        Run verify = omcp("audit", "verify", file.toString());
        assertThat(verify.out()).startsWith("BROKEN at seq 3 ").contains("hash mismatch")
                .contains("Entries before seq 3 verify; from seq 3 on, the log cannot be trusted.");
    }

    @Test
    void endsEditedWithoutTouchingAnyHashStopTheChainFromStartingAndVerifyNamesTheSeq() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain before = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        write(before, 4);
        before.close();
        List<String> lines = Files.readAllLines(file);
        // every line below still matches its own hash; only the links between them are broken
        List<List<String>> edits = List.of(
                List.of(lines.get(0), lines.get(1), lines.get(2), lines.get(3), lines.get(3)), // last line duplicated
                List.of(lines.get(0), lines.get(1), lines.get(3)), // seq 3 removed
                List.of(lines.get(0), lines.get(1), lines.get(3), lines.get(2))); // last two swapped
        List<String> brokenAt = List.of("BROKEN at seq 5 ", "BROKEN at seq 3 ", "BROKEN at seq 3 ");
        for (int i = 0; i < edits.size(); i++) {
            Files.write(file, edits.get(i));
            byte[] edited = Files.readAllBytes(file);

            assertThatThrownBy(() -> chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("omcp audit verify");
            assertThat(Files.readAllBytes(file)).as("nothing is appended to an altered log").isEqualTo(edited);
            assertThat(omcp("audit", "verify", file.toString()).out()).startsWith(brokenAt.get(i));
        }
    }

    @Test
    void rotationKeepsTheChainAcrossFiles() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain first = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        write(first, 4);
        first.close();
        // docs/audit.md, rotation: stop, move the file, seed the new one with the old last line, start
        Path archive = dir.resolve("audit-1.jsonl");
        Files.move(file, archive);
        List<String> old = Files.readAllLines(archive);
        Files.writeString(file, old.get(old.size() - 1) + "\n");
        AuditChain second = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        write(second, 3);
        second.close();

        assertThat(omcp("audit", "verify", archive.toString(), file.toString()).out()).startsWith("OK: 7 entries, seq 1..7");
        assertThat(omcp("audit", "verify", "--segment", file.toString()).out()).startsWith("OK: 4 entries, seq 4..7");
        Run alone = omcp("audit", "verify", file.toString());
        assertThat(alone.exit()).isEqualTo(1);
        assertThat(alone.out()).contains("seq gap").contains("--segment")
                // the break is at the file's first line: nothing before it verified
                .contains("No entry verifies; from seq 1 on").doesNotContain("Entries before");
    }

    @Test
    void exitCodesAreZeroForOkOneForBrokenTwoForUnreadable() throws Exception {
        Path empty = Files.createFile(dir.resolve("empty.jsonl"));
        Run ok = omcp("audit", "verify", empty.toString());
        assertThat(ok.exit()).isZero();
        assertThat(ok.out()).startsWith("OK: 0 entries (empty chain), tip " + "0".repeat(64));

        Path garbage = Files.writeString(dir.resolve("garbage.jsonl"), "hello\n");
        Run broken = omcp("audit", "verify", garbage.toString());
        assertThat(broken.exit()).isEqualTo(1);
        assertThat(broken.out()).startsWith("BROKEN at seq 1 (" + garbage + " line 1): unparsable line");

        Run missing = omcp("audit", "verify", dir.resolve("nope.jsonl").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("cannot read").contains("no such file");

        Run directory = omcp("audit", "verify", dir.toString());
        assertThat(directory.exit()).isEqualTo(2);

        Run usage = omcp("audit", "verify");
        assertThat(usage.exit()).isEqualTo(2);
    }

    @Test
    void anEmptyFile_verifiesAsAnEmptyChain_butSaysNothingWasChecked_andHowToTellATruncatedOne() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain chain = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        write(chain, 3);
        chain.close();
        String tip = omcp("audit", "verify", file.toString()).out().strip().replaceAll(".*, tip ([0-9a-f]{64})$", "$1");
        // after an incident, someone empties the file: what is left is an empty chain, valid on its own
        Files.write(file, new byte[0]);

        Run alone = omcp("audit", "verify", file.toString());
        assertThat(alone.exit()).as("a new gateway's file is empty too: that is not a broken chain").isZero();
        assertThat(alone.out()).startsWith("OK: 0 entries (empty chain), tip " + "0".repeat(64) + "\n")
                .contains("nothing was verified").contains("emptied after the fact").contains("--expect SEQ:HASH");

        Run anchored = omcp("audit", "verify", "--expect", "3:" + tip, file.toString());
        assertThat(anchored.exit()).isEqualTo(1);
        assertThat(anchored.out()).startsWith("BROKEN at seq 1 ").contains("cut off before an anchor")
                .doesNotContain("nothing was verified");
    }

    @Test
    void aLineLongerThanAnyEntryIsNamedWithoutReadingItIntoMemory() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain chain = chain(file, FsyncPolicy.NEVER, TornTailPolicy.REPAIR);
        write(chain, 2);
        chain.close();
        Files.writeString(file, "x".repeat(3 << 20) + "\n", StandardOpenOption.APPEND);

        Run verify = omcp("audit", "verify", file.toString());
        assertThat(verify.exit()).isEqualTo(1);
        assertThat(verify.out()).startsWith("BROKEN at seq 3 ").contains("longer than any audit entry");
    }

    @Test
    void aLineWithoutEnd_isNamedOnceItIsLongerThanAnyEntry_withoutReadingOnToItsEnd() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain chain = chain(file, FsyncPolicy.NEVER, TornTailPolicy.REPAIR);
        write(chain, 2);
        chain.close();
        // 64 GiB without a line break (sparse: it takes no disk), as a hostile or mistaken file can end
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.setLength(raw.length() + (64L << 30));
        }

        Run verify = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> omcp("audit", "verify", file.toString()));
        assertThat(verify.exit()).isEqualTo(1);
        assertThat(verify.out()).startsWith("BROKEN at seq 3 ").contains("longer than any audit entry");
    }

    @Test
    void aCutOffEndVerifiesAlone_butNotAgainstTheTipAnEarlierVerifyPrinted() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditChain chain = chain(file, FsyncPolicy.ALWAYS, TornTailPolicy.REPAIR);
        write(chain, 6);
        chain.close();
        Run before = omcp("audit", "verify", file.toString());
        String tip = before.out().strip().replaceAll(".*, tip ([0-9a-f]{64})$", "$1");
        assertThat(tip).hasSize(64);

        // someone removes the last two entries: what is left is a valid chain of four
        List<String> lines = Files.readAllLines(file);
        Files.writeString(file, String.join("\n", lines.subList(0, 4)) + "\n");
        assertThat(omcp("audit", "verify", file.toString()).exit()).isZero();

        Run anchored = omcp("audit", "verify", "--expect", "6:" + tip, file.toString());
        assertThat(anchored.exit()).isEqualTo(1);
        assertThat(anchored.out()).startsWith("BROKEN at seq 5 (" + file + " line 5): cut off before an anchor: the chain ends at seq 4"
                + " but an anchor names seq 6: entries 5..6 at least were cut off the end");

        Files.writeString(file, String.join("\n", lines) + "\n");
        Run held = omcp("audit", "verify", "--expect", "6:" + tip, file.toString());
        assertThat(held.exit()).isZero();
        assertThat(held.out()).startsWith("OK: 6 entries, seq 1..6, tip " + tip + ", 1 anchor held");

        Run malformed = omcp("audit", "verify", "--expect", "6:" + tip.substring(0, 8), file.toString());
        assertThat(malformed.exit()).isEqualTo(2);
        assertThat(malformed.err()).contains("--expect '6:" + tip.substring(0, 8) + "': an anchor's hash is the 64 lower-case hex digits");
        assertThat(malformed.out()).isEmpty();

        List<String> tail = lines.subList(3, 6);
        Path segment = Files.writeString(dir.resolve("segment.jsonl"), String.join("\n", tail) + "\n");
        Run unreachable = omcp("audit", "verify", "--segment", "--expect", "1:" + lines.get(0).replaceAll(".*\"hash\":\"([0-9a-f]{64})\".*", "$1"),
                segment.toString());
        assertThat(unreachable.exit()).isEqualTo(2);
        assertThat(unreachable.err()).contains("cannot check the anchor at seq 1: the files given start at seq 4; give the earlier files too");
    }
}
