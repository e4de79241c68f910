package dev.omcp.core.management;

import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.Sparkline;
import dev.omcp.ports.anomaly.AnomalyOverview;
import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** {@link AnomalyOverview} over the in-memory anomaly history, scoped to the caller's tenant. */
public final class HistorySparklines implements AnomalyOverview {
    private final AnomalyHistory history;

    public HistorySparklines(AnomalyHistory history) {
        this.history = Objects.requireNonNull(history, "history");
    }

    @Override
    public Duration retention() {
        return history.limits().retention();
    }

    @Override
    public List<JsonObject> sparklines(Principal caller, Duration bucket) {
        return history.sparklines(caller.tenant(), bucket).stream().map(Sparkline::toJson).toList();
    }

    @Override
    public boolean durableSinkConfigured() {
        return history.remoteSinkConfigured();
    }
}
