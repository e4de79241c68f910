package dev.omcp.adapters.storage.audit;

import dev.omcp.adapters.storage.delivery.SendFailure;
import dev.omcp.ports.audit.AuditRecord;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Posts a batch to the audit webhook ({@code OMCP_AUDIT_WEBHOOK_URL}) as one JSON document:
 *
 * <pre>{"kind":"omcp.audit.batch","version":1,"count":2,"firstSeq":41,"lastSeq":42,"entries":[{...},{...}]}</pre>
 *
 * with each entry exactly as the audit file holds it, so the receiver can check the hashes. The
 * {@code Idempotency-Key} header is the same for every attempt at the same batch. 2xx is success;
 * 408, 425, 429, 5xx and network errors are retried; any other status is the receiver refusing
 * the batch, which retries would not change. Each attempt is held to the request timeout until
 * the answer has arrived in full ({@link BoundedExchange}). Never logs the URL or the token.
 */
final class WebhookDelivery implements Delivery {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient client;
    private final URI url;
    private final Optional<String> token;
    private final Duration requestTimeout;

    WebhookDelivery(HttpClient client, URI url, Optional<String> token, Duration requestTimeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.url = Objects.requireNonNull(url, "url");
        this.token = Objects.requireNonNull(token, "token");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
    }

    /** The JSON body for {@code batch}. */
    static String payload(List<AuditRecord> batch) {
        StringBuilder body = new StringBuilder(128 + batch.size() * 400);
        body.append("{\"kind\":\"omcp.audit.batch\",\"version\":1,\"count\":").append(batch.size())
                .append(",\"firstSeq\":").append(batch.get(0).entry().seq())
                .append(",\"lastSeq\":").append(batch.get(batch.size() - 1).entry().seq())
                .append(",\"entries\":[");
        for (int i = 0; i < batch.size(); i++) {
            if (i > 0) {
                body.append(',');
            }
            body.append(batch.get(i).json());
        }
        return body.append("]}").toString();
    }

    static String idempotencyKey(List<AuditRecord> batch) {
        AuditRecord last = batch.get(batch.size() - 1);
        return "omcp-audit-" + batch.get(0).entry().seq() + "-" + last.entry().seq() + "-"
                + last.entry().hash().substring(0, 16);
    }

    @Override
    public Outcome deliver(List<AuditRecord> batch) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url)
                .timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "omcp-audit-webhook")
                .header("Idempotency-Key", idempotencyKey(batch))
                .POST(HttpRequest.BodyPublishers.ofString(payload(batch), StandardCharsets.UTF_8));
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        try {
            // the answer's body is not needed: it is read and dropped, within the same deadline
            return classify(BoundedExchange.send(client, request.build(), requestTimeout, 0).status());
        } catch (IOException e) {
            return new Retry(SendFailure.of(e));
        }
    }

    static Outcome classify(int status) {
        if (status >= 200 && status < 300) {
            return new Delivered();
        }
        if (status == 408 || status == 425 || status == 429 || status >= 500) {
            return new Retry("HTTP " + status);
        }
        return new Permanent("HTTP " + status + ": the receiver refused the batch; fix the receiver or the token,"
                + " then replay the dead-letter file");
    }
}
