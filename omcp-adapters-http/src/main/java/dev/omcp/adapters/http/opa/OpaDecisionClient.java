package dev.omcp.adapters.http.opa;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.omcp.adapters.http.outbound.BoundedExchange;
import dev.omcp.ports.access.ExternalDecision;
import dev.omcp.ports.access.PolicyDecisionPoint;
import dev.omcp.ports.access.PolicyQuery;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.text.LogField;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks OPA through its Data API: {@code POST <OMCP_OPA_URL>/v1/data/<decision path>} with
 * {@code {"input": {"subject": {id, name, authKind, tenant, roles}, "resource", "action",
 * "permission"}}}. Only {@code {"result": true}} or {@code {"result": {"allow": true}}} allows;
 * an undefined decision ({@code {}}), {@code false} or any other value denies. A network error, a
 * timeout, a non-200 status or an unreadable body is {@link ExternalDecision.Unavailable}: the
 * caller fails closed. Unreadable includes a key repeated in one object and anything but white
 * space after the document: read leniently, the last of two {@code "result"} members, or the first
 * of two documents, would decide, so a proxy that mangles a denial could turn it into an allow.
 * The timeout holds for the whole answer, body included, and the body is read up to 64 KiB: an
 * OPA (or a proxy in front of it) that trickles its answer cannot hold the management request
 * that waits on it.
 *
 * <p>An undefined decision is also logged ({@code event=opa-decision-undefined}, at most one line a
 * minute): it is what every question gets when {@code OMCP_OPA_DECISION} names no rule or the policy
 * is not loaded, and the 403s alone would not tell that apart from ordinary denials.
 */
public final class OpaDecisionClient implements PolicyDecisionPoint {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectMapper STRICT_READER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final Logger LOG = LoggerFactory.getLogger(OpaDecisionClient.class);
    private static final int MAX_RESPONSE = 64 * 1024;
    private static final Duration WARN_EVERY = Duration.ofMinutes(1);

    private final URI decision;
    private final BoundedExchange exchange;
    private final Duration timeout;
    private final Clock clock;
    /** Guards the two fields below: when the last undefined-decision warning went out, and the answers since. */
    private final Object undefinedLock = new Object();
    private Instant lastUndefinedWarning;
    private long undefinedSinceWarning;

    /**
     * @param decision the full Data API URL of the decision, for example
     *     {@code http://opa:8181/v1/data/omcp/authz/allow}
     */
    public OpaDecisionClient(URI decision, HttpClient http, Duration timeout) {
        this(decision, http, timeout, Clock.systemUTC());
    }

    /** As above, with the clock that spaces the undefined-decision warnings. */
    public OpaDecisionClient(URI decision, HttpClient http, Duration timeout, Clock clock) {
        this.decision = Objects.requireNonNull(decision, "decision");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.exchange = new BoundedExchange(Objects.requireNonNull(http, "http"), timeout, MAX_RESPONSE);
    }

    /** The Data API URL for {@code base} (an OPA address) and a decision path such as {@code omcp/authz/allow}. */
    public static URI decisionUrl(String base, String path) {
        String trimmed = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        if (trimmed.contains("/v1/data/")) {
            return URI.create(trimmed);
        }
        String cleanPath = path.replace('.', '/').replaceAll("^/+|/+$", "");
        return URI.create(trimmed + "/v1/data/" + cleanPath);
    }

    @Override
    public ExternalDecision decide(PolicyQuery query) {
        byte[] body;
        try {
            body = MAPPER.writeValueAsBytes(Map.of("input", input(query)));
        } catch (IOException e) {
            throw new IllegalStateException("an OPA input document could not be serialized", e);
        }
        HttpRequest request = HttpRequest.newBuilder(decision)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        HttpResponse<byte[]> response;
        try {
            response = exchange.send(request);
        } catch (IOException e) {
            if (BoundedExchange.isTimeout(e)) {
                return new ExternalDecision.Unavailable("OPA did not answer in full within " + timeout.toMillis() + " ms");
            }
            if (BoundedExchange.isTooLarge(e)) {
                return new ExternalDecision.Unavailable("OPA's answer is larger than 64 KiB");
            }
            return new ExternalDecision.Unavailable("OPA could not be reached (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ExternalDecision.Unavailable("interrupted while asking OPA");
        }
        if (response.statusCode() != 200) {
            return new ExternalDecision.Unavailable("OPA answered HTTP " + response.statusCode());
        }
        byte[] answer = response.body();
        JsonNode json;
        try {
            json = STRICT_READER.readTree(answer);
        } catch (IOException e) {
            return new ExternalDecision.Unavailable("OPA's answer is not a single JSON document without repeated keys");
        }
        if (json == null || !json.isObject()) {
            return new ExternalDecision.Unavailable("OPA's answer is not a JSON object");
        }
        if (!json.has("result")) {
            warnUndefined();
            return new ExternalDecision.Deny();
        }
        JsonNode result = json.path("result");
        boolean allowed = (result.isBoolean() && result.booleanValue())
                || (result.isObject() && result.path("allow").isBoolean() && result.path("allow").booleanValue());
        return allowed ? new ExternalDecision.Allow() : new ExternalDecision.Deny();
    }

    /** Logs an undefined decision: the first at once, then at most one line a minute counting those in between. */
    private void warnUndefined() {
        Instant now = clock.instant();
        long undefined;
        synchronized (undefinedLock) {
            undefinedSinceWarning++;
            if (lastUndefinedWarning != null && now.isBefore(lastUndefinedWarning.plus(WARN_EVERY))) {
                return;
            }
            lastUndefinedWarning = now;
            undefined = undefinedSinceWarning;
            undefinedSinceWarning = 0;
        }
        // the path only: user info in OMCP_OPA_URL could be a credential
        LOG.warn("event=opa-decision-undefined decision=\"{}\" undefined={} effect=denied hint=\"OPA answered without a result: "
                + "check that OMCP_OPA_DECISION names a rule of a loaded policy; a policy without 'default allow := false' "
                + "answers this for every denial, so add that default to tell a denial from a missing decision\"",
                LogField.of(decision.getRawPath()), undefined);
    }

    private static Map<String, Object> input(PolicyQuery query) {
        Principal subject = query.subject();
        Map<String, Object> who = new LinkedHashMap<>();
        who.put("id", subject.id());
        who.put("name", subject.name());
        who.put("authKind", subject.authKind().name().toLowerCase(Locale.ROOT));
        who.put("tenant", subject.tenant());
        who.put("roles", new TreeSet<>(subject.roles()));
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("subject", who);
        input.put("resource", query.permission().resource());
        input.put("action", query.permission().action());
        input.put("permission", query.permission().toString());
        return input;
    }
}
