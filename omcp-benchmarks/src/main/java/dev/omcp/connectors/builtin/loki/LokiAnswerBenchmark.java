package dev.omcp.connectors.builtin.loki;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.LogEntry;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
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
 * Reading one page of a Loki log query (50 JSON log lines in two streams, 15 KB, shaped like what
 * {@code bench/tools.sh} serves): {@link LokiStreams}, Jackson's streaming parser straight into log
 * entries, against a JSON-P tree read with Parsson and then walked, which is how the connector
 * read it before. Lives in the connector's package because {@code LokiStreams} is package-private.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class LokiAnswerBenchmark {
    private byte[] answer;

    @Setup
    public void setUp() {
        answer = page(new Random(42)).getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public List<LogEntry> streamingIntoEntries() throws ConnectorException {
        return LokiStreams.read(answer);
    }

    @Benchmark
    public List<LogEntry> parssonTreeThenWalk() throws ConnectorException {
        List<LogEntry> entries = new ArrayList<>();
        try (JsonReader reader = Jsonp.reader(new ByteArrayInputStream(answer))) {
            JsonObject data = reader.readObject().getJsonObject("data");
            for (JsonValue r : data.getJsonArray("result")) {
                JsonObject stream = r.asJsonObject();
                Map<String, String> labels = new TreeMap<>();
                stream.getJsonObject("stream").forEach((k, v) -> labels.put(k, ((JsonString) v).getString()));
                for (JsonValue v : stream.getJsonArray("values")) {
                    JsonArray pair = v.asJsonArray();
                    entries.add(new LogEntry(LokiConnector.instantOfNanos(pair.getString(0)), pair.getString(1), labels));
                }
            }
        }
        return entries;
    }

    /** 50 lines, newest first, alternating between two pods' streams; every line is a JSON object. */
    static String page(Random random) {
        long now = 1_795_320_000L;
        StringBuilder[] values = {new StringBuilder(), new StringBuilder()};
        for (int i = 0; i < 50; i++) {
            String level = i % 9 == 0 ? "error" : "info";
            String line = "{\"ts\": \"2026-11-27T14:" + String.format("%02d:%02d", (i * 15) / 60 % 60, (i * 15) % 60)
                    + ".123Z\", \"level\": \"" + level + "\", \"service\": \"checkout\", \"msg\": \"request handled\", "
                    + "\"route\": \"/api/cart\", \"status\": \"" + ("error".equals(level) ? 500 : 200) + "\", \"duration_ms\": "
                    + random.nextInt(900) + ", \"trace_id\": \"" + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong())
                    + "\", \"client\": \"10.0." + random.nextInt(256) + "." + random.nextInt(256) + "\"}";
            StringBuilder v = values[i % 2];
            v.append(v.isEmpty() ? "" : ",").append("[\"").append(now - i * 15L).append(String.format("%09d", random.nextInt(1_000_000_000)))
                    .append("\",").append(Jsonp.provider().createValue(line)).append(']');
        }
        return "{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":["
                + "{\"stream\":{\"service_name\":\"checkout\",\"namespace\":\"shop\",\"pod\":\"checkout-0\"},\"values\":[" + values[0] + "]},"
                + "{\"stream\":{\"service_name\":\"checkout\",\"namespace\":\"shop\",\"pod\":\"checkout-1\"},\"values\":[" + values[1] + "]}],"
                + "\"stats\":{\"summary\":{\"totalLinesProcessed\":4096}}}}";
    }
}
