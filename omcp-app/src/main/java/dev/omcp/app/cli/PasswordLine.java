package dev.omcp.app.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The password of {@code omcp hash-password} as the first line of standard input when that is not a
 * terminal, read with bounds: at most a password's worth of bytes (a stream without a line break,
 * such as {@code /dev/zero}, used to be read until the heap ran out), strictly UTF-8 (a byte that is
 * not UTF-8 used to become U+FFFD, so the hash was of another password than the one typed at login),
 * and within a time limit (a pipe that stays open without a line, as in a CI job, used to hang for ever).
 */
final class PasswordLine {
    /** How long to wait: a hint on standard error after {@code hintAfter}, giving up after {@code giveUpAfter}. */
    record Wait(Duration hintAfter, Duration giveUpAfter) {
        /**
         * A secret manager in the pipe may first ask for its own passphrase ({@code pass show x | ...}),
         * which takes a person a while: minutes, not seconds, before giving up.
         */
        static final Wait STANDARD = new Wait(Duration.ofSeconds(10), Duration.ofMinutes(5));
    }

    /** The password, or why there is none (already worded for standard error). */
    sealed interface Result {
        record Read(String password) implements Result {}

        record Refused(String message) implements Result {}
    }

    private static final String PIPE_IT_IN = "pipe the password in, ending it with a line break: "
            + "printf '%s\\n' \"$PW\" | omcp hash-password <username>";

    private PasswordLine() {}

    /**
     * Reads the first line of {@code in} (without its line break and a Windows carriage return),
     * at most {@code maxChars} characters; diagnostics go to {@code err}.
     */
    static Result read(InputStream in, int maxChars, Wait wait, PrintWriter err) {
        // a password of maxChars characters is at most 3 bytes each in UTF-8, plus a carriage return
        int maxBytes = maxChars * 3 + 1;
        // the read runs on a daemon thread: a blocked read of standard input cannot be interrupted,
        // and the process must still end when the time is up
        CompletableFuture<Line> line = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("hash-password-stdin").start(() -> {
            try {
                line.complete(firstLine(in, maxBytes));
            } catch (IOException | RuntimeException e) {
                line.completeExceptionally(e);
            }
        });
        try {
            return decoded(awaitWithHint(line, wait, err), maxChars);
        } catch (TimeoutException e) {
            return new Result.Refused("no line arrived on standard input within " + minutesOrSeconds(wait.giveUpAfter())
                    + " (it is a pipe or terminal that stays open without a line); " + PIPE_IT_IN);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            return new Result.Refused("standard input cannot be read: "
                    + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result.Refused("interrupted while waiting for the password on standard input");
        }
    }

    private static Line awaitWithHint(CompletableFuture<Line> line, Wait wait, PrintWriter err)
            throws TimeoutException, ExecutionException, InterruptedException {
        try {
            return line.get(wait.hintAfter().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            err.println("omcp hash-password: waiting for the password as the first line of standard input (not a terminal, so it is "
                    + "not asked for); giving up after " + minutesOrSeconds(wait.giveUpAfter()));
            err.flush();
        }
        long left = Math.max(0, wait.giveUpAfter().minus(wait.hintAfter()).toMillis());
        return line.get(left, TimeUnit.MILLISECONDS);
    }

    private static Result decoded(Line line, int maxChars) {
        if (line.tooLong()) {
            return new Result.Refused("the password must be 1-" + maxChars + " characters; the first line of standard input is longer");
        }
        if (line.bytes() == null) {
            return new Result.Refused("standard input is empty; pipe the password in, or run it in a terminal");
        }
        byte[] bytes = line.bytes();
        int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        String password;
        try {
            password = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, length))
                    .toString();
        } catch (CharacterCodingException e) {
            // never guessed at: a replaced byte would hash another password than the one typed at login
            return new Result.Refused("the password on standard input is not UTF-8 text; convert it first "
                    + "(for example with iconv -f LATIN1 -t UTF-8), as the gateway checks passwords as UTF-8");
        }
        if (password.isEmpty() || password.length() > maxChars) {
            return new Result.Refused("the password must be 1-" + maxChars + " characters");
        }
        return new Result.Read(password);
    }

    /** The first line's bytes: null at once at the end of the input; tooLong once more than {@code maxBytes} came without a break. */
    private record Line(byte[] bytes, boolean tooLong) {}

    private static Line firstLine(InputStream in, int maxBytes) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        boolean any = false;
        int b;
        while ((b = in.read()) >= 0) {
            any = true;
            if (b == '\n') {
                return new Line(line.toByteArray(), false);
            }
            if (line.size() == maxBytes) {
                return new Line(null, true);
            }
            line.write(b);
        }
        return any ? new Line(line.toByteArray(), false) : new Line(null, false);
    }

    private static String minutesOrSeconds(Duration duration) {
        return duration.toSeconds() >= 120 && duration.toSecondsPart() == 0 ? duration.toMinutes() + " minutes"
                : duration.toMillis() >= 1000 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }
}
