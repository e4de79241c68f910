package dev.omcp.adapters.storage.anomaly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.anomaly.AnomalyScoreSample;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RemoteWriteEncodingTest {
    private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");

    private static AnomalyScoreSample sample(String tenant, String service, String signal, Instant at, double score, boolean anomalous) {
        return new AnomalyScoreSample(tenant, service, signal, at, score, anomalous, anomalous ? Optional.of("step") : Optional.empty(), Optional.empty());
    }

    @Test
    void oneSeriesWithOneLabelAndOnePoint_isEncodedByteForByteAsThePrometheusProtoDefinesIt() {
        // WriteRequest{timeseries: [TimeSeries{labels: [Label{name: "a", value: "b"}], samples: [Sample{value: 1.0, timestamp: 5}]}]}
        // Label  = 0a 01 61 12 01 62                           (field 1 "a", field 2 "b")
        // Sample = 09 000000000000f03f 10 05                  (field 1 fixed64 1.0, field 2 varint 5)
        // TimeSeries = 0a 06 <label> 12 0b <sample>           (2 + 6 + 2 + 11 = 21 bytes)
        // WriteRequest = 0a 15 <timeseries>
        byte[] bytes = RemoteWriteEncoding.writeRequest(List.of(new RemoteWriteEncoding.Series(
                List.of(Map.entry("a", "b")), List.of(new RemoteWriteEncoding.Point(5, 1.0)))));

        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo("0a15" + "0a06" + "0a0161120162" + "120b" + "09000000000000f03f" + "1005");
    }

    @Test
    void eachScore_becomesAScorePointAndADetectedPoint_withSortedLabels() throws Exception {
        byte[] body = RemoteWriteEncoding.body(List.of(
                sample("acme", "shop/checkout", "latency_p99", T0, 4.25, true),
                sample("acme", "shop/checkout", "error_rate", T0, 0.5, false)));

        List<WriteRequestDecoder.TimeSeries> series = WriteRequestDecoder.decodeBody(body);

        assertThat(series).hasSize(4);
        for (WriteRequestDecoder.TimeSeries s : series) {
            // remote write 0.1.0: labels sorted by name, __name__ first
            assertThat(s.labelOrder()).containsExactly("__name__", "service", "signal", "tenant");
            assertThat(s.labels()).containsEntry("service", "shop/checkout").containsEntry("tenant", "acme");
            assertThat(s.samples()).singleElement().extracting(WriteRequestDecoder.Sample::timestamp).isEqualTo(T0.toEpochMilli());
        }
        assertThat(value(series, "omcp_anomaly_score", "latency_p99")).isEqualTo(4.25);
        assertThat(value(series, "omcp_anomaly_detected", "latency_p99")).isEqualTo(1.0);
        assertThat(value(series, "omcp_anomaly_score", "error_rate")).isEqualTo(0.5);
        assertThat(value(series, "omcp_anomaly_detected", "error_rate")).isEqualTo(0.0);
    }

    @Test
    void aDatedAnomaly_alsoSendsItsOnsetAsATimestampGauge_stampedWhenItWasJudged() throws Exception {
        Instant onset = T0.minusSeconds(1500).plusMillis(500);
        byte[] body = RemoteWriteEncoding.body(List.of(
                new AnomalyScoreSample("", "payments-db", "latency_p99", T0, 1016.78, true, Optional.of("step"), Optional.of(onset)),
                sample("", "payments-db", "error_rate", T0, 0.4, false)));

        List<WriteRequestDecoder.TimeSeries> series = WriteRequestDecoder.decodeBody(body);

        // score and detected for both, the onset gauge only for the dated anomaly
        assertThat(series).hasSize(5);
        WriteRequestDecoder.TimeSeries onsetSeries = series.stream()
                .filter(s -> s.labels().get("__name__").equals("omcp_anomaly_onset_timestamp_seconds")).findFirst().orElseThrow();
        assertThat(onsetSeries.labelOrder()).containsExactly("__name__", "service", "signal");
        assertThat(onsetSeries.labels()).containsEntry("service", "payments-db").containsEntry("signal", "latency_p99");
        assertThat(onsetSeries.samples()).singleElement().satisfies(p -> {
            assertThat(p.timestamp()).isEqualTo(T0.toEpochMilli());
            assertThat(p.value()).isEqualTo(onset.toEpochMilli() / 1000.0); // seconds, the Prometheus timestamp convention
        });
    }

    @Test
    void anAnomalyAboveTheLargestBucket_alsoSendsAFlagGauge_soTheDurableScoreIsKnownAsALowerBound() throws Exception {
        byte[] body = RemoteWriteEncoding.body(List.of(
                new AnomalyScoreSample("", "payments-db", "latency_p99", T0, 20, true, Optional.of("step"), Optional.empty(), true),
                sample("", "payments", "latency_p99", T0, 150, true)));

        List<WriteRequestDecoder.TimeSeries> series = WriteRequestDecoder.decodeBody(body);

        // score and detected for both, the flag only for the score that is a lower bound
        assertThat(series).hasSize(5);
        WriteRequestDecoder.TimeSeries flag = series.stream()
                .filter(s -> s.labels().get("__name__").equals("omcp_anomaly_level_above_largest_bucket")).findFirst().orElseThrow();
        assertThat(flag.labels()).containsEntry("service", "payments-db").containsEntry("signal", "latency_p99");
        assertThat(flag.samples()).singleElement().satisfies(p -> {
            assertThat(p.timestamp()).isEqualTo(T0.toEpochMilli());
            assertThat(p.value()).isEqualTo(1.0);
        });
    }

    @Test
    void anAnomalyWithoutOnset_sendsNoOnsetGauge() throws Exception {
        List<WriteRequestDecoder.TimeSeries> series = WriteRequestDecoder.decodeBody(
                RemoteWriteEncoding.body(List.of(sample("", "payments", "cpu", T0, 9.0, true))));

        assertThat(series).extracting(s -> s.labels().get("__name__")).containsExactlyInAnyOrder("omcp_anomaly_score", "omcp_anomaly_detected");
    }

    @Test
    void aScoreWithoutTenant_carriesNoTenantLabel() throws Exception {
        List<WriteRequestDecoder.TimeSeries> series = WriteRequestDecoder.decodeBody(
                RemoteWriteEncoding.body(List.of(sample("", "payments", "cpu", T0, 1.0, false))));

        assertThat(series).allSatisfy(s -> assertThat(s.labelOrder()).containsExactly("__name__", "service", "signal"));
    }

    @Test
    void scoresOfOneSignalAtSeveralTimes_formOneSeriesWhosePointsAreInTimeOrder() throws Exception {
        byte[] body = RemoteWriteEncoding.body(List.of(
                sample("", "payments", "cpu", T0.plusSeconds(20), 3.0, false),
                sample("", "payments", "cpu", T0, 1.0, false),
                sample("", "payments", "cpu", T0.plusSeconds(10), 2.0, false)));

        List<WriteRequestDecoder.TimeSeries> series = WriteRequestDecoder.decodeBody(body);

        WriteRequestDecoder.TimeSeries score = series.stream()
                .filter(s -> s.labels().get("__name__").equals("omcp_anomaly_score")).findFirst().orElseThrow();
        assertThat(score.samples()).extracting(WriteRequestDecoder.Sample::timestamp)
                .containsExactly(T0.toEpochMilli(), T0.plusSeconds(10).toEpochMilli(), T0.plusSeconds(20).toEpochMilli());
        assertThat(score.samples()).extracting(WriteRequestDecoder.Sample::value).containsExactly(1.0, 2.0, 3.0);
    }

    @Test
    void aLargeBatch_roundTripsThroughSnappyAndComesOutSmallerThanItWent() throws Exception {
        List<AnomalyScoreSample> samples = new java.util.ArrayList<>();
        for (int i = 0; i < 500; i++) {
            samples.add(sample("", "service-" + (i % 20), "latency_p99", T0.plusSeconds(i), i / 10.0, i % 7 == 0));
        }
        byte[] raw = RemoteWriteEncoding.writeRequest(RemoteWriteEncoding.series(samples));
        byte[] body = RemoteWriteEncoding.snappy(raw);

        assertThat(body.length).isLessThan(raw.length);
        List<WriteRequestDecoder.TimeSeries> decoded = WriteRequestDecoder.decodeBody(body);
        assertThat(decoded).hasSize(40);
        assertThat(decoded.stream().mapToInt(s -> s.samples().size()).sum()).isEqualTo(1000);
        assertThat(WriteRequestDecoder.decodeWriteRequest(raw)).isEqualTo(decoded);
    }

    private static double value(List<WriteRequestDecoder.TimeSeries> series, String metric, String signal) {
        return series.stream()
                .filter(s -> s.labels().get("__name__").equals(metric) && s.labels().get("signal").equals(signal))
                .findFirst().orElseThrow().samples().get(0).value();
    }

    @Test
    void externalLabels_areAddedToEverySeries_inNameOrder_soReplicasWriteDistinctSeries() throws Exception {
        // "Zone" sorts before "__name__" (upper case comes before '_'): the protocol wants byte order, not __name__ first
        ExternalLabels replica = ExternalLabels.of(Map.of("replica", "omcp-1", "Zone", "a"));
        byte[] body = RemoteWriteEncoding.body(List.of(
                new AnomalyScoreSample("acme", "payments-db", "latency_p99", T0, 20, true, Optional.of("step"), Optional.of(T0), true)),
                replica);

        List<WriteRequestDecoder.TimeSeries> series = WriteRequestDecoder.decodeBody(body);

        assertThat(series).hasSize(4).allSatisfy(s -> {
            assertThat(s.labelOrder()).containsExactly("Zone", "__name__", "replica", "service", "signal", "tenant");
            assertThat(s.labels()).containsEntry("replica", "omcp-1").containsEntry("Zone", "a");
        });
    }

    @Test
    void withoutExternalLabels_theBodyIsByteForByteWhatItWasBefore() {
        List<AnomalyScoreSample> samples = List.of(sample("acme", "shop/checkout", "latency_p99", T0, 4.25, true));

        assertThat(RemoteWriteEncoding.body(samples, ExternalLabels.none())).isEqualTo(RemoteWriteEncoding.body(samples));
        assertThat(RemoteWriteEncoding.labels("omcp_anomaly_score", samples.getFirst(), ExternalLabels.none()))
                .containsExactly(Map.entry("__name__", "omcp_anomaly_score"), Map.entry("service", "shop/checkout"),
                        Map.entry("signal", "latency_p99"), Map.entry("tenant", "acme"));
    }
}
