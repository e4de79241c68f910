package dev.omcp.core.analysis.rootcause;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Objects;

/**
 * Anomalous services ranked by how likely each is the root cause.
 *
 * @param ranking most likely first
 * @param topologyUsed whether the dependents factor could be computed
 * @param notInTopology services the topology does not know (their dependents factor is 0)
 * @param note what the ranking rests on, including what was unavailable
 */
public record RootCauseRanking(List<RankedCause> ranking, boolean topologyUsed, List<String> notInTopology, String note) {
    public RootCauseRanking {
        ranking = List.copyOf(ranking);
        notInTopology = List.copyOf(notInTopology);
        Objects.requireNonNull(note, "note");
    }

    /**
     * The JSON form for {@code detect_anomalies}: {@code rootCauses[]} ({@code rank, service, score,
     * factors[] {name, value, weight, contribution, detail}, dependents, explanation}),
     * {@code topologyUsed}, {@code notInTopology}, {@code note}.
     */
    public JsonObject toJson() {
        JsonArrayBuilder causes = Jsonp.provider().createArrayBuilder();
        for (RankedCause c : ranking) {
            JsonArrayBuilder factors = Jsonp.provider().createArrayBuilder();
            for (Factor f : c.factors()) {
                factors.add(Jsonp.provider().createObjectBuilder().add("name", f.name()).add("value", round(f.value()))
                        .add("weight", round(f.weight())).add("contribution", round(f.contribution())).add("detail", f.detail()));
            }
            causes.add(Jsonp.provider().createObjectBuilder().add("rank", c.rank()).add("service", c.service()).add("score", round(c.score()))
                    .add("factors", factors).add("dependents", Jsonp.provider().createArrayBuilder(c.dependents()))
                    .add("explanation", c.explanation()));
        }
        return Jsonp.provider().createObjectBuilder().add("rootCauses", causes).add("topologyUsed", topologyUsed)
                .add("notInTopology", Jsonp.provider().createArrayBuilder(notInTopology)).add("note", note).build();
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
