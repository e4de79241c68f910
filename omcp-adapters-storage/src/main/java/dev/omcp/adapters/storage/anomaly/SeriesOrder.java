package dev.omcp.adapters.storage.anomaly;

import dev.omcp.ports.anomaly.AnomalyScoreSample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps each series' points strictly increasing in time across requests. Prometheus refuses a
 * point older than (or as old as) the last one it stored for a series ("out of order sample"),
 * and two tool calls judging the same signal at nearly the same moment can queue their scores in
 * either order; such a late point is dropped here and counted, instead of making the receiver
 * refuse the request it travels in.
 *
 * <p>Remembers the newest time of at most {@code maxSeries} series (least recently written
 * forgotten first; a forgotten series simply accepts its next point). Used by the sink's single
 * sender thread only, so not thread-safe.
 */
final class SeriesOrder {
    private record Key(String tenant, String service, String signal) {}

    private final Map<Key, Long> newest;

    SeriesOrder(int maxSeries) {
        if (maxSeries < 1) {
            throw new IllegalArgumentException("maxSeries must be at least 1");
        }
        this.newest = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Long> eldest) {
                return size() > maxSeries;
            }
        };
    }

    /**
     * The samples of {@code batch} that are newer than everything sent before for their series,
     * oldest first; the newest time of each series is remembered.
     */
    List<AnomalyScoreSample> admit(List<AnomalyScoreSample> batch) {
        List<AnomalyScoreSample> sorted = new ArrayList<>(batch);
        sorted.sort(Comparator.comparing(AnomalyScoreSample::at));
        List<AnomalyScoreSample> admitted = new ArrayList<>(sorted.size());
        for (AnomalyScoreSample s : sorted) {
            Key key = new Key(s.tenant(), s.service(), s.signal());
            long at = s.at().toEpochMilli();
            Long last = newest.get(key);
            if (last != null && at <= last) {
                continue;
            }
            newest.put(key, at);
            admitted.add(s);
        }
        return admitted;
    }
}
