package dev.omcp.core.analysis.history;

import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import dev.omcp.core.analysis.anomaly.AnomalyKind;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.anomaly.AnomalyScoreSink;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The anomaly scores detected in the last hour, per (tenant, service, signal), in memory, and handed
 * on to an optional durable sink ({@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE}).
 *
 * <p>Thread-safety: any number of threads may record and query at once. Series live in a
 * concurrent map; each series is a small ring buffer whose methods hold its own lock for a few
 * array writes, never around I/O. The sink is called after the score is stored and must not block
 * (see {@link AnomalyScoreSink}); if it throws anyway the score stays recorded, the failure is
 * counted and logged (first and every 1000th), and the call path goes on.
 *
 * <p>Memory is bounded by {@link HistoryLimits}: scores older than the retention are never
 * returned and are overwritten or evicted; at most {@code maxSeries} series of at most
 * {@code maxPointsPerSeries} scores each. At the cap the tenant holding the most series loses its
 * least recently updated one, so tenants share the cap rather than the busiest taking all of it.
 * Such a drop is logged (first and every 1000th, counts only: the names come from backends) and
 * the tenant's queries say up to when rows may be missing ({@link HistoryResult#evictedUntil()}),
 * so a dropped series does not read as a quiet service.
 */
public final class AnomalyHistory {
    private static final Logger LOG = LoggerFactory.getLogger(AnomalyHistory.class);
    /** Scores stamped this far after the clock are refused as clock trouble. */
    static final Duration MAX_FUTURE_SKEW = Duration.ofMinutes(1);
    /** The ring's mark for "no onset": a sample's onset is never this far in the past. */
    private static final long NO_ONSET = Long.MIN_VALUE;

    private record Key(String tenant, String service, String signal) {}

    private final Clock clock;
    private final HistoryLimits limits;
    private final Optional<AnomalyScoreSink> sink;
    private final ConcurrentHashMap<Key, Ring> series = new ConcurrentHashMap<>();
    /**
     * Oldest first; rows of one instant by service, then signal, then score (two calls judging one
     * series in the same millisecond record two rows, and which the cut keeps must not depend on chance).
     */
    private static final Comparator<HistoryRow> ROW_ORDER = Comparator.comparing(HistoryRow::at).thenComparing(HistoryRow::service)
            .thenComparing(HistoryRow::signal).thenComparingDouble(HistoryRow::score);
    private final Object evictionLock = new Object();
    private final AtomicLong evictedSeries = new AtomicLong();
    private final AtomicLong droppedAtCap = new AtomicLong();
    /** Per tenant, the newest score time of a series dropped at the cap; entries older than the retention go at the next drop. */
    private final ConcurrentHashMap<String, Long> evictedUntil = new ConcurrentHashMap<>();
    /** When recording began (the gateway's start): the memory holds nothing judged before. */
    private final Instant recordingSince;
    private final AtomicLong refusedSamples = new AtomicLong();
    private final AtomicLong sinkDropped = new AtomicLong();
    private final AtomicLong sinkFailures = new AtomicLong();

    /**
     * @param clock the time source (retention is measured against it)
     * @param limits memory bounds
     * @param sink the durable sink, or empty when none is configured
     */
    public AnomalyHistory(Clock clock, HistoryLimits limits, Optional<AnomalyScoreSink> sink) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.recordingSince = clock.instant();
    }

    /**
     * When this history began recording, which is when the gateway started: scores judged before
     * (by an earlier run) are not in memory, only in the durable sink when one is configured.
     */
    public Instant recordingSince() {
        return recordingSince;
    }

    /** Whether scores also go to a durable sink (the post-mortem and the tools say so when not). */
    public boolean remoteSinkConfigured() {
        return sink.isPresent();
    }

    public HistoryLimits limits() {
        return limits;
    }

    /**
     * The sample to record for a detector verdict, or empty when the verdict has no score (not
     * enough data: nothing is recorded, rather than a made-up 0). The finding's onset is carried
     * for an anomaly; an onset after {@code at} (a backend that answered points from the future) is
     * left out rather than failing the call, so the row says the onset is unknown. An anomaly whose
     * level is above the largest histogram bucket ({@code +Inf}) is flagged so: its score is a
     * lower bound. Empty too for a name longer than {@link AnomalyScoreSample#MAX_NAME_LENGTH}: a
     * backend may list a service by any label value, and the call that judged it must still answer
     * (its verdict is in the answer, only not in the history).
     */
    public static Optional<AnomalyScoreSample> sampleOf(String tenant, String service, String signal, Instant at,
            AnomalyFinding finding) {
        if (!Double.isFinite(finding.score()) || !recordable(tenant) || !recordable(service) || !recordable(signal)) {
            return Optional.empty();
        }
        Optional<Instant> onset = finding.anomalous() ? finding.onset().filter(o -> !o.isAfter(at)) : Optional.empty();
        // the same test detect_anomalies flags levelAboveLargestBucket by: the score is then the detector's lower bound
        boolean aboveBucket = finding.anomalous() && finding.evidence().map(e -> e.anomalyLevel() == Double.POSITIVE_INFINITY).orElse(false);
        return Optional.of(new AnomalyScoreSample(tenant, service, signal, at, finding.score(), finding.anomalous(),
                finding.kind().map(AnomalyKind::wireName), onset, aboveBucket));
    }

    private static boolean recordable(String name) {
        return name.length() <= AnomalyScoreSample.MAX_NAME_LENGTH;
    }

    /** Records one score; see {@link #recordAll}. */
    public void record(AnomalyScoreSample sample) {
        recordAll(List.of(sample));
    }

    /**
     * Records scores (one detector run over several signals hands them over together, so the sink
     * gets one batch). Scores older than the retention or more than a minute in the future are not
     * kept in memory (counted in {@link #stats()}); every score is offered to the sink.
     */
    public void recordAll(List<AnomalyScoreSample> samples) {
        Instant now = clock.instant();
        Instant cutoff = now.minus(limits.retention());
        Instant latestAllowed = now.plus(MAX_FUTURE_SKEW);
        for (AnomalyScoreSample s : samples) {
            if (s.at().isBefore(cutoff) || s.at().isAfter(latestAllowed)) {
                refusedSamples.incrementAndGet();
                continue;
            }
            Key key = new Key(s.tenant(), s.service(), s.signal());
            Ring ring = series.get(key);
            if (ring == null) {
                makeRoom(cutoff);
                ring = series.computeIfAbsent(key, k -> new Ring(limits.maxPointsPerSeries()));
            }
            ring.add(s.at().toEpochMilli(), s.score(), s.anomalous(), s.kind().orElse(null),
                    s.onset().map(Instant::toEpochMilli).orElse(NO_ONSET), s.levelAboveLargestBucket());
        }
        sink.ifPresent(target -> offer(target, samples));
    }

    private void offer(AnomalyScoreSink target, List<AnomalyScoreSample> samples) {
        if (samples.isEmpty()) {
            return;
        }
        try {
            if (!target.offer(List.copyOf(samples))) {
                sinkDropped.addAndGet(samples.size());
            }
        } catch (RuntimeException e) {
            long n = sinkFailures.incrementAndGet();
            if (n == 1 || n % 1000 == 0) {
                // the class only: an adapter's message may carry an address
                LOG.warn("anomaly score sink failed ({} failures so far): {}; scores stay in memory", n, e.getClass().getName());
            }
        }
    }

    /**
     * Frees a slot for a new series: expired series first, then the one updated least recently of
     * the tenant that holds the most series.
     */
    private void makeRoom(Instant cutoff) {
        if (series.size() < limits.maxSeries()) {
            return;
        }
        synchronized (evictionLock) {
            long cut = cutoff.toEpochMilli();
            series.entrySet().removeIf(e -> {
                boolean expired = e.getValue().latest() < cut;
                if (expired) {
                    evictedSeries.incrementAndGet();
                }
                return expired;
            });
            while (series.size() >= limits.maxSeries()) {
                // the tenant holding the most series gives one up, so one tenant judging many services
                // cannot push every other tenant's history out; a tenant alone may still use every slot
                Map<String, Integer> perTenant = new HashMap<>();
                for (Key k : series.keySet()) {
                    perTenant.merge(k.tenant(), 1, Integer::sum);
                }
                String largest = perTenant.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey())).map(Map.Entry::getKey).orElse("");
                Key oldest = null;
                long oldestTime = Long.MAX_VALUE;
                for (Map.Entry<Key, Ring> e : series.entrySet()) {
                    long t = e.getValue().latest();
                    if (e.getKey().tenant().equals(largest) && t < oldestTime) {
                        oldestTime = t;
                        oldest = e.getKey();
                    }
                }
                if (oldest == null || series.remove(oldest) == null) {
                    break;
                }
                evictedSeries.incrementAndGet();
                droppedAtCap(oldest.tenant(), oldestTime, cut);
            }
        }
    }

    /** Remembers up to when the tenant's rows may be missing and tells the operator (counts only, never names). */
    private void droppedAtCap(String tenant, long newestScore, long cutoff) {
        evictedUntil.values().removeIf(t -> t < cutoff);
        evictedUntil.merge(tenant, newestScore, Math::max);
        long n = droppedAtCap.incrementAndGet();
        if (n == 1 || n % 1000 == 0) {
            LOG.warn("event=anomaly-history-full maxSeries={} evictedSeries={} effect=\"series judged least recently are dropped "
                    + "before the hour is up; get_anomaly_history says when its rows may be missing\"", limits.maxSeries(), n);
        }
    }

    /**
     * Whether scores recorded under {@code recorded} answer a question about {@code asked}: the same
     * name, or for a bare name ({@code payments}) also that name in any namespace
     * ({@code shop/payments}), because a call that judged {@code shop/payments} records it so. Each
     * row keeps the name it was recorded under, so the two stay apart in the answer.
     */
    public static boolean answers(String asked, String recorded) {
        if (asked.equals(recorded)) {
            return true;
        }
        return asked.indexOf('/') < 0 && recorded.length() > asked.length() + 1 && recorded.endsWith(asked)
                && recorded.charAt(recorded.length() - asked.length() - 1) == '/';
    }

    /** The rows a {@code get_anomaly_history} call asked for. */
    public HistoryResult query(HistoryQuery q) {
        Instant now = clock.instant();
        long cutoff = now.minus(limits.retention()).toEpochMilli();
        long from = Math.max(q.from().toEpochMilli(), cutoff);
        long to = q.to().toEpochMilli();
        // only the newest `limit` rows are held: every series of a tenant at its full length would be
        // hundreds of thousands of rows per call, built only to be cut
        PriorityQueue<HistoryRow> newest = new PriorityQueue<>(ROW_ORDER);
        List<HistoryRow> ofOneSeries = new ArrayList<>();
        long matched = 0;
        long overwrittenUntil = Long.MIN_VALUE;
        for (Map.Entry<Key, Ring> e : series.entrySet()) {
            Key k = e.getKey();
            if (!k.tenant().equals(q.tenant()) || q.service().filter(s -> !answers(s, k.service())).isPresent()
                    || q.signal().filter(s -> !s.equals(k.signal())).isPresent()) {
                continue;
            }
            ofOneSeries.clear();
            e.getValue().collect(k.service(), k.signal(), from, to, q.anomalousOnly(), ofOneSeries);
            long overwritten = e.getValue().overwrittenUntil();
            if (overwritten >= from) {
                overwrittenUntil = Math.max(overwrittenUntil, Math.min(overwritten, to));
            }
            matched += ofOneSeries.size();
            for (HistoryRow row : ofOneSeries) {
                if (newest.size() < q.limit()) {
                    newest.add(row);
                } else if (ROW_ORDER.compare(row, newest.peek()) > 0) {
                    newest.poll();
                    newest.add(row);
                }
            }
        }
        Long evicted = evictedUntil.get(q.tenant());
        Optional<Instant> evictedInRange = evicted == null || evicted < from ? Optional.empty()
                : Optional.of(Instant.ofEpochMilli(Math.min(evicted, to)));
        List<HistoryRow> kept = new ArrayList<>(newest);
        kept.sort(ROW_ORDER);
        boolean truncated = matched > q.limit();
        Optional<String> note = Optional.empty();
        if (q.from().toEpochMilli() < cutoff) {
            note = Optional.of("the in-memory history keeps the last " + human(limits.retention()) + "; earlier scores "
                    + (sink.isPresent() ? "are in the remote-write sink (query them through the metrics source)"
                            : "were not kept: set OMCP_ANOMALY_HISTORY_REMOTE_WRITE to keep them"));
        } else if (kept.isEmpty()) {
            note = Optional.of("no anomaly scores recorded in this window: scores are recorded when detect_anomalies or"
                    + " get_service_health judge a service");
        }
        return new HistoryResult(kept, truncated, limits.retention(), sink.isPresent(), note,
                overwrittenUntil == Long.MIN_VALUE ? Optional.empty() : Optional.of(Instant.ofEpochMilli(overwrittenUntil)),
                evictedInRange);
    }

    /**
     * Per-service sparklines of the tenant over the retention window, in buckets of {@code bucket}
     * aligned to multiples of it, services in name order. The last bucket holds now and the first
     * starts at or before the retention cutoff, so every retained score up to now is plotted; that
     * takes {@code ceil(retention / bucket) + 1} buckets, always as many (with one fewer, the scores
     * of up to one bucket's width after the cutoff, retained but older than the first bucket, were
     * never plotted).
     */
    public List<Sparkline> sparklines(String tenant, Duration bucket) {
        long width = bucket.toMillis();
        if (width <= 0 || limits.retention().toMillis() / width > 10_000) {
            throw new IllegalArgumentException("sparkline bucket must be positive and give at most 10000 buckets, got " + bucket);
        }
        Instant now = clock.instant();
        int n = (int) ((limits.retention().toMillis() + width - 1) / width) + 1;
        long end = Math.floorDiv(now.toEpochMilli(), width) * width + width;
        // start = floor(now) - ceil(retention) <= now - retention: no retained score falls before the first bucket
        long start = end - n * width;
        long cutoff = now.minus(limits.retention()).toEpochMilli();
        Map<String, double[]> scores = new TreeMap<>();
        Map<String, boolean[]> flags = new TreeMap<>();
        Map<String, boolean[]> lowerBounds = new TreeMap<>();
        for (Map.Entry<Key, Ring> e : series.entrySet()) {
            if (!e.getKey().tenant().equals(tenant)) {
                continue;
            }
            double[] s = scores.computeIfAbsent(e.getKey().service(), k -> {
                double[] fresh = new double[n];
                Arrays.fill(fresh, Double.NaN);
                return fresh;
            });
            boolean[] f = flags.computeIfAbsent(e.getKey().service(), k -> new boolean[n]);
            boolean[] lb = lowerBounds.computeIfAbsent(e.getKey().service(), k -> new boolean[n]);
            e.getValue().bucket(start, width, Math.max(start, cutoff), s, f, lb);
        }
        List<Sparkline> out = new ArrayList<>();
        scores.forEach((service, s) -> out.add(new Sparkline(service, Instant.ofEpochMilli(start), bucket, s, flags.get(service),
                lowerBounds.get(service))));
        return out;
    }

    /** Counters for the health endpoint and tests. */
    public record Stats(int series, long evictedSeries, long refusedSamples, long sinkDropped, long sinkFailures) {}

    public Stats stats() {
        return new Stats(series.size(), evictedSeries.get(), refusedSamples.get(), sinkDropped.get(), sinkFailures.get());
    }

    private static String human(Duration d) {
        long m = d.toMinutes();
        return m % 60 == 0 ? (m / 60) + " h" : m + " min";
    }

    /** The scores of one series, a ring buffer grown on demand up to its capacity. */
    private static final class Ring {
        private final int capacity;
        private long[] onsets = new long[8];
        private long[] times = new long[8];
        private double[] scores = new double[8];
        private boolean[] anomalous = new boolean[8];
        private boolean[] aboveBucket = new boolean[8];
        private String[] kinds = new String[8];
        private int size;
        private int head; // index of the oldest when full
        private volatile long latest = Long.MIN_VALUE;
        /** The newest time of a score the full ring overwrote: scores up to it may be missing although retained in time. */
        private long overwrittenUntil = Long.MIN_VALUE;

        Ring(int capacity) {
            this.capacity = capacity;
        }

        long latest() {
            return latest;
        }

        synchronized void add(long at, double score, boolean isAnomalous, String kind, long onset, boolean isAboveBucket) {
            int slot;
            if (size < capacity) {
                if (size == times.length) {
                    int grown = Math.min(capacity, times.length * 2);
                    times = Arrays.copyOf(times, grown);
                    scores = Arrays.copyOf(scores, grown);
                    anomalous = Arrays.copyOf(anomalous, grown);
                    aboveBucket = Arrays.copyOf(aboveBucket, grown);
                    kinds = Arrays.copyOf(kinds, grown);
                    onsets = Arrays.copyOf(onsets, grown);
                }
                slot = size++;
            } else {
                slot = head;
                head = (head + 1) % capacity;
                overwrittenUntil = Math.max(overwrittenUntil, times[slot]);
            }
            times[slot] = at;
            scores[slot] = score;
            anomalous[slot] = isAnomalous;
            aboveBucket[slot] = isAboveBucket;
            kinds[slot] = kind;
            onsets[slot] = onset;
            if (at > latest) {
                latest = at;
            }
        }

        synchronized long overwrittenUntil() {
            return overwrittenUntil;
        }

        synchronized void collect(String service, String signal, long from, long to, boolean anomalousOnly, List<HistoryRow> out) {
            for (int i = 0; i < size; i++) {
                long t = times[i];
                if (t >= from && t <= to && (!anomalousOnly || anomalous[i])) {
                    out.add(new HistoryRow(service, signal, Instant.ofEpochMilli(t), scores[i], anomalous[i], Optional.ofNullable(kinds[i]),
                            onsets[i] == NO_ONSET ? Optional.empty() : Optional.of(Instant.ofEpochMilli(onsets[i])), aboveBucket[i]));
                }
            }
        }

        synchronized void bucket(long start, long width, long cutoff, double[] maxScores, boolean[] flags, boolean[] lowerBounds) {
            for (int i = 0; i < size; i++) {
                long t = times[i];
                if (t < cutoff || t < start) {
                    continue;
                }
                int b = (int) ((t - start) / width);
                if (b >= maxScores.length) {
                    continue;
                }
                maxScores[b] = Double.isNaN(maxScores[b]) ? scores[i] : Math.max(maxScores[b], scores[i]);
                flags[b] |= anomalous[i];
                // a lower-bound score makes the bucket's highest a lower bound too, whichever signal set it
                lowerBounds[b] |= aboveBucket[i];
            }
        }
    }
}
