package dev.omcp.core.analysis.health;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The health of one service.
 *
 * @param service the service
 * @param status worst signal status; {@link HealthStatus#UNKNOWN} when no signal returned data
 * @param score weighted mean of the signal scores over the signals that returned data, 0..100;
 *     empty when none did
 * @param signals the scored signals
 * @param missing the enabled signals that returned no data, with the reason
 * @param drivers one sentence per signal (and anomaly) that made the status worse than healthy
 * @param anomalies every anomaly verdict passed in, including normal ones
 * @param note a one-line summary for an agent
 */
public record HealthReport(
        String service, HealthStatus status, OptionalDouble score, List<SignalHealth> signals, List<MissingSignal> missing,
        List<String> drivers, List<SignalAnomaly> anomalies, String note) {
    public HealthReport {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(score, "score");
        signals = List.copyOf(signals);
        missing = List.copyOf(missing);
        drivers = List.copyOf(drivers);
        anomalies = List.copyOf(anomalies);
        Objects.requireNonNull(note, "note");
    }

    /**
     * The JSON form for {@code get_service_health}: {@code service}, {@code status}, {@code score}
     * (absent when unknown), {@code signals[]} (a p99 above the largest histogram bucket has
     * {@code aboveLargestBucket: true} instead of a {@code value}), {@code missing[]}, {@code drivers[]},
     * {@code anomalies[]} (only anomalous ones), {@code note}. Every entry that names a signal also
     * names its {@link HealthSignal#metric() metric}, so an agent reads the same measure with
     * {@code query_metrics} and finds it under that name in the anomaly history.
     */
    public JsonObject toJson() {
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder().add("service", service).add("status", status.wireName());
        score.ifPresent(s -> b.add("score", Math.round(s * 10) / 10.0));
        JsonArrayBuilder sig = Jsonp.provider().createArrayBuilder();
        for (SignalHealth s : signals) {
            JsonObjectBuilder o = Jsonp.provider().createObjectBuilder().add("signal", s.signal().wireName())
                    .add("metric", s.signal().metric());
            if (Double.isFinite(s.value())) {
                o.add("value", s.value());
            } else {
                // +Inf (a p99 above the largest histogram bucket) is no JSON number: said, not written
                o.add("aboveLargestBucket", true);
            }
            o.add("unit", s.signal().valueUnit());
            if (s.signal() == HealthSignal.REQUEST_RATE_DROP) {
                o.add("drop", s.measure());
            }
            o.add("status", s.status().wireName()).add("score", Math.round(s.score() * 10) / 10.0).add("weight", s.weight())
                    .add("thresholds", Jsonp.provider().createObjectBuilder().add("degraded", s.threshold().degraded())
                            .add("critical", s.threshold().critical()))
                    .add("source", s.source()).add("reason", s.reason());
            sig.add(o);
        }
        JsonArrayBuilder miss = Jsonp.provider().createArrayBuilder();
        missing.forEach(m -> miss.add(Jsonp.provider().createObjectBuilder().add("signal", m.signal().wireName())
                .add("metric", m.signal().metric()).add("reason", m.reason())));
        JsonArrayBuilder drv = Jsonp.provider().createArrayBuilder();
        drivers.forEach(drv::add);
        JsonArrayBuilder an = Jsonp.provider().createArrayBuilder();
        anomalies.stream().filter(a -> a.finding().anomalous())
                .forEach(a -> an.add(Jsonp.provider().createObjectBuilder(a.finding().toJson()).add("signal", a.signal().wireName())
                        .add("metric", a.signal().metric())));
        return b.add("signals", sig).add("missing", miss).add("drivers", drv).add("anomalies", an).add("note", note).build();
    }
}
