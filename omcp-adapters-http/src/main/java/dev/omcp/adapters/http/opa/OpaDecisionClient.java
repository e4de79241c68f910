package dev.omcp.adapters.http.opa;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.omcp.sdk.text.LogPace;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks OPA through its Data API: {@code POST <OMCP_OPA_URL>/v1/data/<decision path>} with
 * {@code {"input": {"subject": {id, name, authKind, tenant, roles}, "resource", "action",
 * "permission"}}}, and {@code Authorization: Bearer <OMCP_OPA_TOKEN>} when a token is set (an OPA
 * started with {@code --authentication=token}). Only {@code {"result": true}} or
 * {@code {"result": {"allow": true}}} allows; an undefined decision ({@code {}}), {@code false} or
 * any other value denies. A network error, a timeout, a non-200 status (a redirect included: it is
 * never followed, since it could carry the token to another server) or an unreadable body is
 * {@link ExternalDecision.Unavailable}: the caller fails closed. Unreadable includes a key repeated
 * in one object and anything but white space after the document: read leniently, the last of two
 * {@code "result"} members, or the first of two documents, would decide, so a proxy that mangles a
 * denial could turn it into an allow. The timeout holds for the whole answer, body included, and
 * the body is read up to 64 KiB: an OPA (or a proxy in front of it) that trickles its answer cannot
 * hold the management request that waits on it. No reason names OPA's address or the token.
 *
 * <p>An undefined decision is also logged ({@code event=opa-decision-undefined}, at most one line a
 * minute): it is what every question gets when {@code OMCP_OPA_DECISION} names no rule or the policy
 * is not loaded, and the 403s alone would not tell that apart from ordinary denials. A result of
 * another shape ({@code "true"}, {@code {"Allow": true}}, a number) is a policy bug that denies every
 * question, so it is logged the same way ({@code event=opa-decision-unexpected}).
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
    /** OPA's error codes are snake_case identifiers ({@code internal_error}); anything else in that field is not repeated. */
    private static final Pattern ERROR_CODE = Pattern.compile("[a-z_]{1,64}");
    private static final int KEYS_SHOWN = 5;

    private final URI decision;
    private final BoundedExchange exchange;
    private final Duration timeout;
    private final Optional<String> bearerToken;
    private final LogPace undefinedLines;
    private final LogPace unexpectedLines;

    /**
     * @param decision the full Data API URL of the decision, for example
     *     {@code http://opa:8181/v1/data/omcp/authz/allow}
     */
    public OpaDecisionClient(URI decision, HttpClient http, Duration timeout) {
        this(decision, http, timeout, Clock.systemUTC());
    }

    /** As above, with the clock that spaces the warnings about undefined or unexpected decisions. */
    public OpaDecisionClient(URI decision, HttpClient http, Duration timeout, Clock clock) {
        this(decision, http, timeout, clock, Optional.empty());
    }

    /**
     * As above, sending {@code bearerToken} as {@code Authorization: Bearer} with every question.
     *
     * @param http a client that follows no redirect: one would send the question, and the token, wherever OPA's
     *     address (or a proxy in front of it) points
     */
    public OpaDecisionClient(URI decision, HttpClient http, Duration timeout, Clock clock, Optional<String> bearerToken) {
        this.decision = Objects.requireNonNull(decision, "decision");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.bearerToken = Objects.requireNonNull(bearerToken, "bearerToken");
        Objects.requireNonNull(http, "http");
        if (http.followRedirects() != HttpClient.Redirect.NEVER) {
            throw new IllegalArgumentException("the HTTP client that asks OPA must follow no redirect (HttpClient.Redirect.NEVER)");
        }
        this.undefinedLines = new LogPace(clock, WARN_EVERY);
        this.unexpectedLines = new LogPace(clock, WARN_EVERY);
        this.exchange = new BoundedExchange(http, timeout, MAX_RESPONSE);
    }

    /**
     * The Data API URL for {@code base} (an OPA address, checked by the settings reader) and a
     * decision path such as {@code omcp/authz/allow} or {@code omcp.authz.allow}. Trailing slashes of
     * {@code base} are dropped; a {@code base} whose path already names a decision
     * ({@code .../v1/data/omcp/authz/allow}) is taken as it is and {@code path} is not used.
     */
    public static URI decisionUrl(String base, String path) {
        String trimmed = base.replaceAll("/+$", "");
        if (trimmed.contains("/v1/data/")) {
            return URI.create(trimmed);
        }
        return URI.create(trimmed + "/v1/data/" + decisionPath(path));
    }

    /** {@code path} as a Data API path: a Rego package's dots become slashes, leading and trailing slashes go. */
    public static String decisionPath(String path) {
        return path.replace('.', '/').replaceAll("^/+|/+$", "");
    }

    @Override
    public ExternalDecision decide(PolicyQuery query) {
        byte[] body;
        try {
            body = MAPPER.writeValueAsBytes(Map.of("input", input(query)));
        } catch (IOException e) {
            throw new IllegalStateException("an OPA input document could not be serialized", e);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(decision)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        bearerToken.ifPresent(token -> request.header("Authorization", "Bearer " + token));
        HttpResponse<byte[]> response;
        try {
            response = exchange.send(request.build());
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
            return new ExternalDecision.Unavailable(refusal(response));
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
        if (result.isBoolean()) {
            return result.booleanValue() ? new ExternalDecision.Allow() : new ExternalDecision.Deny();
        }
        if (result.isObject() && result.path("allow").isBoolean()) {
            return result.path("allow").booleanValue() ? new ExternalDecision.Allow() : new ExternalDecision.Deny();
        }
        warnUnexpected(result);
        return new ExternalDecision.Deny();
    }

    /**
     * What a non-200 answer means and what to do about it. Neither OPA's address nor a redirect's
     * target is named (the reason reaches the refused caller), nor the token.
     */
    private String refusal(HttpResponse<byte[]> response) {
        int status = response.statusCode();
        String said = "OPA answered HTTP " + status + errorCode(response.body());
        if (status == 401 || status == 403) {
            return said + (bearerToken.isPresent()
                    ? ": it did not accept the token; check OMCP_OPA_TOKEN against the token OPA's system.authz policy expects"
                    : ": it wants a token (OPA runs with --authentication=token); set OMCP_OPA_TOKEN");
        }
        if (status >= 300 && status < 400) {
            return said + ", a redirect, which is not followed (it could carry the question and token elsewhere); set "
                    + "OMCP_OPA_URL to the address it points to";
        }
        if (status == 404) {
            return said + ": check that OMCP_OPA_URL is the OPA server's address (the gateway appends /v1/data/<decision>)";
        }
        return said;
    }

    /** OPA's error {@code code} ({@code " (internal_error)"}) when the body is OPA's error document, else nothing. */
    private static String errorCode(byte[] body) {
        try {
            JsonNode document = STRICT_READER.readTree(body);
            JsonNode code = document == null ? null : document.path("code");
            return code != null && code.isTextual() && ERROR_CODE.matcher(code.textValue()).matches() ? " (" + code.textValue() + ")" : "";
        } catch (IOException e) {
            // not OPA's error document (a proxy's HTML page, nothing): the status alone is the reason
            return "";
        }
    }

    /** Logs an undefined decision: the first at once, then at most one line a minute counting those in between. */
    private void warnUndefined() {
        long undefined = undefinedLines.occurred();
        if (undefined == 0) {
            return;
        }
        // the path only: the address is the operator's business, not the log reader's
        LOG.warn("event=opa-decision-undefined decision=\"{}\" undefined={} effect=denied hint=\"OPA answered without a result: "
                + "check that OMCP_OPA_DECISION names a rule of a loaded policy; a policy without 'default allow := false' "
                + "answers this for every denial, so add that default to tell a denial from a missing decision\"",
                LogField.of(decision.getRawPath()), undefined);
    }

    /** Logs a result that is neither a boolean nor an object with a boolean {@code allow}, paced like an undefined one. */
    private void warnUnexpected(JsonNode result) {
        long unexpected = unexpectedLines.occurred();
        if (unexpected == 0) {
            return;
        }
        LOG.warn("event=opa-decision-unexpected decision=\"{}\" result=\"{}\" unexpected={} effect=denied hint=\"only true or "
                + "{allow: true} allows (names are case-sensitive): make the rule OMCP_OPA_DECISION names a boolean, "
                + "or name the package whose boolean allow rule decides\"",
                LogField.of(decision.getRawPath()), LogField.of(shape(result)), unexpected);
    }

    /** The kind of {@code result}, never its values: for an object its first keys, which show a misspelt allow. */
    private static String shape(JsonNode result) {
        if (result.isObject()) {
            List<String> keys = new ArrayList<>();
            result.fieldNames().forEachRemaining(keys::add);
            String shown = String.join(", ", keys.subList(0, Math.min(KEYS_SHOWN, keys.size())));
            return "an object without a boolean allow, with keys [" + shown + (keys.size() > KEYS_SHOWN ? ", ..." : "") + "]";
        }
        return switch (result.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> "a number";
            case ARRAY -> "an array";
            case NULL -> "null";
            default -> "a " + result.getNodeType().name().toLowerCase(Locale.ROOT);
        };
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
