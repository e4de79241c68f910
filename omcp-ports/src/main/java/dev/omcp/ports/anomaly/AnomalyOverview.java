package dev.omcp.ports.anomaly;

import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;

/**
 * Driving port: the recent anomaly scores per service, as the health page's sparklines show them.
 * Implemented by the core over its in-memory anomaly history. Thread-safe.
 */
public interface AnomalyOverview {

    /** How far back the in-memory history reaches (one hour by default). */
    Duration retention();

    /**
     * One series per service of the caller's tenant over {@link #retention()}, in equal buckets of
     * {@code bucket}: {@code {service, start, bucketSeconds, scores, anomalous}} where a bucket
     * without any score is {@code null}, never 0. Services in name order.
     *
     * @throws IllegalArgumentException when {@code bucket} is not positive or gives more than
     *     10000 buckets
     */
    List<JsonObject> sparklines(Principal caller, Duration bucket);

    /** Whether scores also go to a durable sink, so older scores can be queried there. */
    boolean durableSinkConfigured();
}
