package com.acme.jaeger;

import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.connector.SampleQueries;
import java.time.Duration;
import java.util.List;

/**
 * The samples of docs/writing-a-connector.md for a logs connector whose mock answers a count per
 * minute: the page shows how {@code checkContract} is given an aggregation to exercise
 * {@code LogAggregatesCapability} with. (Jaeger has no logs; the block is kept here with the rest of
 * the page's code.)
 */
public final class LogAggregationSamples {
    private LogAggregationSamples() {}

    /** A mock that covers a window, as {@link JaegerRecording} does. */
    public interface Mock {
        TimeRange window();
    }

    public static SampleQueries countPerMinute(Mock mock) {
        SampleQueries samples = SampleQueries.of("checkout", mock.window());
        samples = samples.withLogAggregation(new LogAggregation(samples.logs(), LogAggregation.Function.SUM, List.of(), 0,
                LogAggregation.tilingStep(samples.range().length(), Duration.ofMinutes(1))));
        return samples;
    }
}
