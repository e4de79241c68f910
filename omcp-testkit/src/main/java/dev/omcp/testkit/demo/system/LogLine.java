package dev.omcp.testkit.demo.system;

import java.util.Map;

/**
 * One generated log line.
 *
 * @param epochNanos when it was written, in nanoseconds (Loki's resolution)
 * @param stream the stream labels, for example {@code {service_name="payments", pod="..."}}
 * @param line the JSON text of the line
 */
public record LogLine(long epochNanos, Map<String, String> stream, String line) {
    public LogLine {
        stream = Map.copyOf(stream);
    }
}
