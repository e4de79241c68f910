package dev.omcp.app.cli;

import dev.omcp.core.audit.ChainVerifier;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code omcp audit verify [--expect SEQ:HASH]... FILE...}: checks a hash chain offline and names the
 * first broken {@code seq}; with anchors, also that the chain still holds those entries, which is
 * how a cut-off end shows (what is left of a cut chain verifies on its own). Exit 0 when the chain verifies, 1 when it is broken, 2 when a file cannot be read
 * (or the command line is wrong).
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Check an audit file's hash chain offline and name the first broken entry.",
            "Give rotated files oldest first; a file may start with a copy of the previous file's last line."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the chain verifies (an empty file is an empty chain: nothing to verify, said on a second line)",
            "1:the chain is broken (the first broken seq is printed)", "2:a file cannot be read, or the command line is wrong",
            OmcpCommand.EXIT_BUG})
public final class AuditVerifyCommand implements Callable<Integer> {
    static final int OK = 0;
    static final int BROKEN = 1;
    static final int UNREADABLE = 2;
    private static final int MAX_LINE = 1 << 20;

    @Spec
    CommandSpec spec;

    @Option(names = "--segment", description = "The first file starts in the middle of a chain (a rotated file, or an"
            + " object written by the S3 sink): take its first entry as the anchor instead of requiring seq 1.")
    boolean segment;

    @Option(names = "--expect", paramLabel = "SEQ:HASH", description = {"An entry the chain must still hold, recorded"
            + " elsewhere: the tip an earlier verify printed, the tipSeq/tipHash of the gateway's audit-chain-started or"
            + " audit-chain-closed log line, or an entry a sink delivered. Fails when the chain ends before it (the end was"
            + " cut off) or holds another hash at that seq. Repeatable."})
    List<String> anchors = List.of();

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Audit JSONL files, oldest first.")
    List<Path> files;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ChainVerifier verifier = segment ? ChainVerifier.segment() : ChainVerifier.fromGenesis();
        for (String anchor : anchors) {
            try {
                verifier.expect(ChainVerifier.Anchor.parse(anchor));
            } catch (IllegalArgumentException e) {
                err.println("omcp audit verify: --expect '" + printable(anchor) + "': " + e.getMessage());
                return UNREADABLE;
            }
        }
        for (Path file : files) {
            verifier.nextFile();
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                feed(in, verifier);
            } catch (NoSuchFileException e) {
                err.println("omcp audit verify: cannot read " + file + ": no such file");
                return UNREADABLE;
            } catch (IOException e) {
                err.println("omcp audit verify: cannot read " + file + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
                return UNREADABLE;
            }
            if (verifier.isBroken()) {
                break;
            }
        }
        ChainVerifier.Result result = verifier.result();
        if (result instanceof ChainVerifier.Broken broken) {
            out.println("BROKEN at seq " + broken.seq() + " (" + files.get(broken.fileIndex()) + " line " + broken.line() + "): "
                    + broken.reason().text() + ": " + broken.detail());
            // at the first line of the first file there is nothing before the break that verified
            boolean atTheStart = broken.fileIndex() == 0 && broken.line() == 1;
            out.println((atTheStart ? "No entry verifies" : "Entries before seq " + broken.seq() + " verify") + "; from seq "
                    + broken.seq() + " on, the log cannot be trusted.");
            out.flush();
            return BROKEN;
        }
        ChainVerifier.Valid valid = (ChainVerifier.Valid) result;
        List<ChainVerifier.Anchor> unchecked = verifier.anchorsBeforeFirstEntry();
        if (!unchecked.isEmpty()) {
            err.println("omcp audit verify: cannot check the anchor at seq " + unchecked.getFirst().seq() + ": the files given"
                    + " start at seq " + valid.firstSeq() + "; give the earlier files too, oldest first");
            return UNREADABLE;
        }
        out.println((valid.count() == 0
                ? "OK: 0 entries (empty chain), tip " + valid.tipHash()
                : "OK: " + valid.count() + " entries, seq " + valid.firstSeq() + ".." + valid.lastSeq() + ", tip " + valid.tipHash())
                + (anchors.isEmpty() ? "" : ", " + anchors.size() + (anchors.size() == 1 ? " anchor" : " anchors") + " held"));
        if (valid.count() == 0) {
            // not a silent "all good": a file emptied after an incident is an empty chain too, and only an anchor tells the two apart
            out.println("No entry, so nothing was verified: a new gateway's audit file is empty until the first audited change, but so"
                    + " is a file emptied after the fact. To tell them apart, verify with --expect SEQ:HASH, a tip recorded elsewhere"
                    + " (docs/audit.md, Anchors).");
        }
        out.flush();
        return OK;
    }

    /** The argument as the error shows it: at most 80 characters, control characters as '?'. */
    private static String printable(String text) {
        String cut = text.length() > 80 ? text.substring(0, 79) + "…" : text;
        return cut.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }

    /**
     * Splits the stream at line breaks and hands each line to the verifier, without holding the file.
     * A line is given up on as soon as it is longer than any entry: a file that never breaks its line
     * (gigabytes of zeros, a device) would otherwise be read to its end, or for ever, to say the same.
     */
    private static void feed(InputStream in, ChainVerifier verifier) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(512);
        byte[] buffer = new byte[1 << 16];
        int n;
        while ((n = in.read(buffer)) > 0) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (buffer[i] == '\n') {
                    if (tooLong(line, i - start, verifier)) {
                        return;
                    }
                    line.write(buffer, start, i - start);
                    verifier.accept(line.toByteArray(), true);
                    line.reset();
                    start = i + 1;
                    if (verifier.isBroken()) {
                        return;
                    }
                }
            }
            if (tooLong(line, n - start, verifier)) {
                return;
            }
            line.write(buffer, start, n - start);
        }
        if (line.size() > 0) {
            verifier.accept(line.toByteArray(), false);
        }
    }

    /** Whether {@code more} bytes would make the line longer than any entry; if so the verifier is told. */
    private static boolean tooLong(ByteArrayOutputStream line, int more, ChainVerifier verifier) {
        long length = (long) line.size() + more;
        if (length <= MAX_LINE) {
            return false;
        }
        verifier.acceptOversized(length);
        return true;
    }
}
