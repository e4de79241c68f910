package dev.omcp.adapters.storage.anomaly;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.anomaly.AnomalySeries;
import io.airlift.compress.snappy.SnappyCompressor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns anomaly scores into the body of a Prometheus remote-write request (protocol 0.1.0): a
 * {@code prometheus.WriteRequest} protobuf, snappy-compressed in the block format (not framed).
 *
 * <p>Each sample becomes two series points, both labelled {@code service}, {@code signal} and,
 * when the call ran for a tenant, {@code tenant}:
 * <ul>
 *   <li>{@code omcp_anomaly_score}: the detector's score in robust standard deviations;</li>
 *   <li>{@code omcp_anomaly_detected}: 1 when the verdict was an anomaly, else 0;</li>
 *   <li>{@code omcp_anomaly_onset_timestamp_seconds}: only for an anomaly the detector dated, when the
 *       deviation began, in seconds since the epoch (the Prometheus convention for a timestamp-valued
 *       gauge), so a post-mortem read from the durable store can tell when things went wrong and
 *       group the judgements of one episode;</li>
 *   <li>{@code omcp_anomaly_level_above_largest_bucket}: 1, only for an anomaly that took a latency
 *       above its histogram's largest bucket ({@code +Inf}), whose {@code omcp_anomaly_score} is then
 *       only a lower bound, so whoever ranks the durable scores can rank it as the in-memory history
 *       does (at least as severe as any measured score).</li>
 * </ul>
 * Every series also carries the {@link ExternalLabels} of this gateway, when set (several replicas writing
 * to one receiver tell their series apart by them). Labels are sorted by name (byte order, so an upper-case
 * external label comes before {@code __name__}) and the points of a series by time, as the protocol
 * requires. The
 * wire layout, from {@code prompb/remote.proto} and {@code prompb/types.proto}:
 * <pre>
 * WriteRequest { repeated TimeSeries timeseries = 1; }
 * TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
 * Label        { string name = 1; string value = 2; }
 * Sample       { double value = 1; int64 timestamp = 2; }   // milliseconds since the epoch
 * </pre>
 */
final class RemoteWriteEncoding {
    static final String SCORE_METRIC = AnomalySeries.SCORE;
    static final String DETECTED_METRIC = AnomalySeries.DETECTED;
    static final String ONSET_METRIC = AnomalySeries.ONSET;
    static final String ABOVE_BUCKET_METRIC = AnomalySeries.ABOVE_LARGEST_BUCKET;

    private static final int TIMESERIES = 1;
    private static final int LABELS = 1;
    private static final int SAMPLES = 2;
    private static final int NAME = 1;
    private static final int VALUE = 2;
    private static final int SAMPLE_VALUE = 1;
    private static final int SAMPLE_TIMESTAMP = 2;

    private RemoteWriteEncoding() {}

    /** One point of a series. */
    record Point(long timestampMillis, double value) {}

    /** One series: its labels (sorted by name, {@code __name__} included) and its points in time order. */
    record Series(List<Map.Entry<String, String>> labels, List<Point> points) {}

    /** The series the samples make without external labels; see {@link #series(List, ExternalLabels)}. */
    static List<Series> series(List<AnomalyScoreSample> samples) {
        return series(samples, ExternalLabels.none());
    }

    /** The series the samples make, each also labelled with {@code external}, in a stable order (by labels). */
    static List<Series> series(List<AnomalyScoreSample> samples, ExternalLabels external) {
        Map<List<Map.Entry<String, String>>, List<Point>> byLabels = new TreeMap<>(RemoteWriteEncoding::compareLabels);
        for (AnomalyScoreSample s : samples) {
            long at = s.at().toEpochMilli();
            byLabels.computeIfAbsent(labels(SCORE_METRIC, s, external), k -> new ArrayList<>()).add(new Point(at, s.score()));
            byLabels.computeIfAbsent(labels(DETECTED_METRIC, s, external), k -> new ArrayList<>())
                    .add(new Point(at, s.anomalous() ? 1 : 0));
            s.onset().ifPresent(onset -> byLabels.computeIfAbsent(labels(ONSET_METRIC, s, external), k -> new ArrayList<>())
                    .add(new Point(at, onset.toEpochMilli() / 1000.0)));
            if (s.levelAboveLargestBucket()) {
                // only when true, as the onset: a series of zeros for every measured score would double the bytes sent for nothing
                byLabels.computeIfAbsent(labels(ABOVE_BUCKET_METRIC, s, external), k -> new ArrayList<>()).add(new Point(at, 1));
            }
        }
        List<Series> out = new ArrayList<>(byLabels.size());
        byLabels.forEach((labels, points) -> {
            points.sort(Comparator.comparingLong(Point::timestampMillis));
            out.add(new Series(labels, List.copyOf(points)));
        });
        return out;
    }

    /**
     * The labels of one metric for one sample, with the external ones, sorted by name; an empty tenant is
     * left out (Prometheus treats it as absent). {@link ExternalLabels} cannot name any of the others.
     */
    static List<Map.Entry<String, String>> labels(String metric, AnomalyScoreSample sample, ExternalLabels external) {
        List<Map.Entry<String, String>> labels = new ArrayList<>(4 + external.labels().size());
        labels.add(Map.entry("__name__", metric));
        labels.add(Map.entry(AnomalySeries.SERVICE_LABEL, sample.service()));
        labels.add(Map.entry(AnomalySeries.SIGNAL_LABEL, sample.signal()));
        if (!sample.tenant().isEmpty()) {
            labels.add(Map.entry(AnomalySeries.TENANT_LABEL, sample.tenant()));
        }
        if (!external.isEmpty()) {
            labels.addAll(external.asList());
            labels.sort(Map.Entry.comparingByKey());
        }
        return List.copyOf(labels);
    }

    private static int compareLabels(List<Map.Entry<String, String>> a, List<Map.Entry<String, String>> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).getKey().compareTo(b.get(i).getKey());
            if (c == 0) {
                c = a.get(i).getValue().compareTo(b.get(i).getValue());
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** The uncompressed {@code WriteRequest} protobuf. */
    static byte[] writeRequest(List<Series> series) {
        int total = 0;
        int[] seriesSizes = new int[series.size()];
        for (int i = 0; i < series.size(); i++) {
            seriesSizes[i] = seriesSize(series.get(i));
            total += lengthDelimitedSize(TIMESERIES, seriesSizes[i]);
        }
        byte[] bytes = new byte[total];
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            for (int i = 0; i < series.size(); i++) {
                Series s = series.get(i);
                out.writeTag(TIMESERIES, WireFormat.WIRETYPE_LENGTH_DELIMITED);
                out.writeUInt32NoTag(seriesSizes[i]);
                for (Map.Entry<String, String> label : s.labels()) {
                    out.writeTag(LABELS, WireFormat.WIRETYPE_LENGTH_DELIMITED);
                    out.writeUInt32NoTag(labelSize(label));
                    out.writeString(NAME, label.getKey());
                    out.writeString(VALUE, label.getValue());
                }
                for (Point p : s.points()) {
                    out.writeTag(SAMPLES, WireFormat.WIRETYPE_LENGTH_DELIMITED);
                    out.writeUInt32NoTag(pointSize(p));
                    out.writeDouble(SAMPLE_VALUE, p.value());
                    out.writeInt64(SAMPLE_TIMESTAMP, p.timestampMillis());
                }
            }
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            // the buffer was sized exactly; running out of it is a bug here, not an I/O condition
            throw new UncheckedIOException("remote-write encoding did not fit its computed size", e);
        }
        return bytes;
    }

    /** The request body without external labels; see {@link #body(List, ExternalLabels)}. */
    static byte[] body(List<AnomalyScoreSample> samples) {
        return body(samples, ExternalLabels.none());
    }

    /** The request body: the {@code WriteRequest} of {@code samples} labelled with {@code external}, snappy block-compressed. */
    static byte[] body(List<AnomalyScoreSample> samples, ExternalLabels external) {
        return snappy(writeRequest(series(samples, external)));
    }

    static byte[] snappy(byte[] raw) {
        SnappyCompressor compressor = new SnappyCompressor();
        byte[] out = new byte[compressor.maxCompressedLength(raw.length)];
        int length = compressor.compress(raw, 0, raw.length, out, 0, out.length);
        return Arrays.copyOf(out, length);
    }

    private static int seriesSize(Series s) {
        int size = 0;
        for (Map.Entry<String, String> label : s.labels()) {
            size += lengthDelimitedSize(LABELS, labelSize(label));
        }
        for (Point p : s.points()) {
            size += lengthDelimitedSize(SAMPLES, pointSize(p));
        }
        return size;
    }

    private static int labelSize(Map.Entry<String, String> label) {
        return CodedOutputStream.computeStringSize(NAME, label.getKey()) + CodedOutputStream.computeStringSize(VALUE, label.getValue());
    }

    private static int pointSize(Point p) {
        return CodedOutputStream.computeDoubleSize(SAMPLE_VALUE, p.value())
                + CodedOutputStream.computeInt64Size(SAMPLE_TIMESTAMP, p.timestampMillis());
    }

    private static int lengthDelimitedSize(int field, int contentSize) {
        return CodedOutputStream.computeTagSize(field) + CodedOutputStream.computeUInt32SizeNoTag(contentSize) + contentSize;
    }
}
