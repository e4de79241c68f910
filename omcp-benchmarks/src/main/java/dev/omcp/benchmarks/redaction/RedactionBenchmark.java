package dev.omcp.benchmarks.redaction;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.core.redaction.Redactor;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Redaction of a 100 KB {@code query_logs} result (issue 4 target: at most 2 ms). Three inputs,
 * all generated from fixed seeds:
 * <ul>
 *   <li>{@code logResult}: realistic lines (access and application logs with trace ids, UUIDs,
 *       timestamps, durations; 1 in 10 with a client IP, 1 in 40 with an email, 1 in 100 with a
 *       credential);</li>
 *   <li>{@code denseSecrets}: the worst case, a secret on every line;</li>
 *   <li>{@code plainText}: the realistic lines as one non-JSON text (the fail-closed path).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class RedactionBenchmark {
    static final int TARGET_BYTES = 100 * 1024;

    private final Redactor redactor = new Redactor();
    private JsonObject logResult;
    private JsonObject denseSecrets;
    private String logResultText;
    private String plainText;

    @Setup
    public void setUp() {
        logResult = result(new Random(1), false);
        denseSecrets = result(new Random(2), true);
        logResultText = logResult.toString();
        StringBuilder text = new StringBuilder();
        Random rnd = new Random(3);
        while (text.length() < TARGET_BYTES) {
            text.append(line(rnd, rnd.nextInt(1000), false)).append('\n');
        }
        plainText = text.toString();
        System.out.printf(Locale.ROOT, "%nlogResult %d bytes, denseSecrets %d bytes, plainText %d bytes%n", logResultText.length(),
                denseSecrets.toString().length(), plainText.length());
    }

    @Benchmark
    public Object logResult() {
        return redactor.redactJson(logResult);
    }

    @Benchmark
    public Object denseSecrets() {
        return redactor.redactJson(denseSecrets);
    }

    @Benchmark
    public Object logResultAsPayloadString() {
        return redactor.redactPayload(logResultText);
    }

    @Benchmark
    public Object plainText() {
        return redactor.redactPayload(plainText);
    }

    public static JsonObject result(Random rnd, boolean dense) {
        JsonArrayBuilder entries = Jsonp.array();
        int size = 0;
        int i = 0;
        while (size < TARGET_BYTES - 200) {
            String line = line(rnd, i, dense);
            String ts = Instant.ofEpochMilli(1_741_600_000_000L + i * 37L).toString();
            JsonObject e = Jsonp.object().add("timestamp", ts).add("line", line)
                    .add("labels", Jsonp.object().add("service_name", "checkout").add("pod", "checkout-7d9f-" + (i % 5))
                            .add("level", i % 20 == 0 ? "error" : "info"))
                    .build();
            size += e.toString().length() + 1;
            entries.add(e);
            i++;
        }
        return Jsonp.object().add("service", "checkout").add("entries", entries).add("truncated", false)
                .add("resolvedQuery", "{service_name=\"checkout\"} |= \"\"").build();
    }

    static String line(Random rnd, int i, boolean dense) {
        String trace = hex(rnd, 32);
        String base = switch (i % 3) {
            case 0 -> String.format(Locale.ROOT, "ts=%s level=info msg=\"GET /api/orders/%s\" status=200 duration=%dms trace_id=%s span_id=%s",
                    Instant.ofEpochMilli(1_741_600_000_000L + i).toString(), UUID.nameUUIDFromBytes(new byte[] {(byte) i}), rnd.nextInt(900),
                    trace, hex(rnd, 16));
            case 1 -> String.format(Locale.ROOT, "%s INFO  [pool-3-thread-%d] c.e.checkout.OrderService - order %d reserved %d items in %d ms"
                    + " (trace %s)", Instant.ofEpochMilli(1_741_600_000_000L + i).toString(), rnd.nextInt(16), 100000 + i, rnd.nextInt(9) + 1,
                    rnd.nextInt(300), trace);
            default -> String.format(Locale.ROOT, "{\"level\":\"warn\",\"ts\":%d,\"caller\":\"payment/client.go:%d\",\"msg\":\"retrying upstream\","
                    + "\"attempt\":%d,\"trace_id\":\"%s\"}", 1_741_600_000_000L + i, 100 + rnd.nextInt(300), rnd.nextInt(3), trace);
        };
        if (dense || i % 10 == 3) {
            base += " client=10." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256);
        }
        if (dense || i % 40 == 7) {
            base += " user=customer" + i + "@example.com";
        }
        if (dense || i % 100 == 11) {
            base += switch (rnd.nextInt(3)) {
                case 0 -> " password=" + hex(rnd, 12);
                case 1 -> " Authorization: Bearer " + hex(rnd, 40);
                default -> " card=4111 1111 1111 1111";
            };
        }
        return base;
    }

    private static String hex(Random rnd, int n) {
        StringBuilder b = new StringBuilder(n);
        for (int k = 0; k < n; k++) {
            b.append("0123456789abcdef".charAt(rnd.nextInt(16)));
        }
        return b.toString();
    }
}
