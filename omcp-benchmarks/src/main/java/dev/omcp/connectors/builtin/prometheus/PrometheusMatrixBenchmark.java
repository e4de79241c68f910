package dev.omcp.connectors.builtin.prometheus;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.query.Series;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading one Prometheus range answer of 241 points ({@link PrometheusMatrix}), as
 * {@code get_service_health} reads five per call. {@code fractional} times are what a real
 * Prometheus answers when the query's start has a fraction of a second (the gateway sends
 * millisecond starts, so nearly always: {@code [1795846440.123,"0.0199"]}); {@code integral} is the
 * canned backend of {@code bench/tools.sh}. Lives in the connector's package because
 * {@code PrometheusMatrix} is package-private.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class PrometheusMatrixBenchmark {
    @Param({"fractional", "integral"})
    public String times;

    private byte[] answer;

    @Setup
    public void setUp() {
        answer = answer(new Random(7), times.equals("fractional")).getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public List<Series> read() throws ConnectorException {
        return PrometheusMatrix.read(answer);
    }

    /** One series of 241 points a minute apart, values like a p99 latency in seconds. */
    static String answer(Random random, boolean fractional) {
        StringBuilder values = new StringBuilder();
        long start = 1_795_846_440L;
        for (int i = 0; i <= 240; i++) {
            values.append(i == 0 ? "" : ",").append('[').append(start + 60L * i).append(fractional ? ".123" : "")
                    .append(",\"").append(String.format(java.util.Locale.ROOT, "%.6g", 0.02 + random.nextGaussian() * 0.001))
                    .append("\"]");
        }
        return "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"job\":\"checkout\"},"
                + "\"values\":[" + values + "]}]}}";
    }
}
