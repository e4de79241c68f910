package dev.omcp.benchmarks.json;

import dev.omcp.benchmarks.redaction.RedactionBenchmark;
import dev.omcp.sdk.json.CompactJson;
import jakarta.json.JsonObject;
import java.util.Random;
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
 * The text form of a 100 KB {@code query_logs} result: serializing the structured content
 * ({@link CompactJson#of}) and escaping that JSON again as the string of {@code content[0].text}
 * ({@link CompactJson#appendString}), the two steps every structured tool result takes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class TextFormBenchmark {
    private JsonObject logResult;
    private String serialized;

    @Setup
    public void setUp() {
        logResult = RedactionBenchmark.result(new Random(1), false);
        serialized = CompactJson.of(logResult);
    }

    @Benchmark
    public String serialize() {
        return CompactJson.of(logResult);
    }

    @Benchmark
    public StringBuilder escapeAsString() {
        return CompactJson.appendString(new StringBuilder(serialized.length() + serialized.length() / 4), serialized);
    }
}
