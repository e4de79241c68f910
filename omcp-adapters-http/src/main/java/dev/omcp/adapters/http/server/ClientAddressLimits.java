package dev.omcp.adapters.http.server;

import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.RequestBodies;
import dev.omcp.adapters.http.metrics.AddressLimit;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.adapters.http.metrics.McpRefusalReason;
import dev.omcp.adapters.http.security.TrustedProxies;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.ratelimit.AddressLimits;
import dev.omcp.sdk.text.LogField;
import dev.omcp.sdk.text.LogPace;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The limits per client address at the HTTP edge (spec 8, "IP-level limit of other endpoints"; docs/access-control.md,
 * "Per-address limits"), asked before any route reads a request, authenticates it or parses its body:
 * <ul>
 *   <li>{@code /api/*}: each request counts against its address's requests a minute, and one over them is answered
 *       429 {@value #API_CODE};</li>
 *   <li>the endpoints that take a bearer credential ({@code /mcp}, {@code /mcp/v/<id>}, {@code /mcp/ws},
 *       {@code /scim/v2}): each 401 they answer, and each WebSocket closed on connect for its credential, counts one
 *       failure of its address; an address with its limit of failures in its minute is answered 429
 *       {@value #CREDENTIAL_CODE} before its credential is looked at, a valid one too, until the minute ends.</li>
 * </ul>
 * The probes ({@code /healthz}, {@code /readyz}, {@code /metrics}) and every other path are outside both. The client
 * address is the one the trusted-proxy rules give ({@code OMCP_TRUST_PROXY}): behind a trusted proxy each client is
 * counted apart, and a client not behind one cannot choose its address with {@code X-Forwarded-For}.
 *
 * <p>A refusal says when to come back ({@code Retry-After}) and is counted in {@code omcp_address_limit_refusals_total}
 * (at {@code /mcp} and {@code /mcp/ws} also in {@code omcp_mcp_refusals_total}); the log gets one line a minute per
 * limit at most, naming the last address refused and how many requests it stands for. A request let through
 * uncounted because a table is full is counted in {@code omcp_address_limit_uncounted_total} and warned about the same
 * way.
 */
final class ClientAddressLimits {
    private static final Logger LOG = LoggerFactory.getLogger(ClientAddressLimits.class);
    /** The request attribute holding the client address; a WebSocket's context holds it too, copied from its upgrade. */
    static final String CLIENT_ADDRESS = "omcp.client-address";
    /** The code of a request to {@code /api} over its address's limit. */
    static final String API_CODE = "OMCP_ADDRESS_RATE_LIMIT";
    /** The code of a request refused for its address's failed credentials. */
    static final String CREDENTIAL_CODE = "OMCP_ADDRESS_AUTH_FAILURE_LIMIT";
    private static final Duration LOG_EVERY = Duration.ofMinutes(1);
    /**
     * How much of a refused request's body is read and dropped, so the client reads the 429 rather than a reset and its
     * connection stays usable: a JSON-RPC message or a form fits. A larger body closes the connection instead, since a
     * flood refused here must not cost the gateway the reading of what it refuses.
     */
    private static final long DRAIN_BYTES = 64 * 1024;

    private final AddressLimits limits;
    private final TrustedProxies proxies;
    private final GatewayMetrics metrics;
    private final Map<AddressLimit, LogPace> refusalLines = new EnumMap<>(AddressLimit.class);
    private final Map<AddressLimit, LogPace> uncountedLines = new EnumMap<>(AddressLimit.class);

    /** Which limit, if any, a path is under. */
    private enum Guarded { API, CREDENTIAL, NONE }

    ClientAddressLimits(AddressLimits limits, TrustedProxies proxies, GatewayMetrics metrics, Clock clock) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.proxies = Objects.requireNonNull(proxies, "proxies");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        for (AddressLimit limit : AddressLimit.values()) {
            refusalLines.put(limit, new LogPace(clock, LOG_EVERY));
            uncountedLines.put(limit, new LogPace(clock, LOG_EVERY));
        }
    }

    /**
     * Counts or checks the request against its path's limit; answers 429 and skips every handler when it is over it.
     *
     * @return whether the request may go on
     */
    boolean admit(Context ctx) {
        Guarded guarded = guardedAt(ctx.path());
        if (guarded == Guarded.NONE) {
            return true;
        }
        String address = clientAddress(ctx);
        ctx.attribute(CLIENT_ADDRESS, address);
        AddressLimit limit = guarded == Guarded.API ? AddressLimit.API_REQUESTS : AddressLimit.CREDENTIAL_FAILURES;
        AddressLimits.Verdict verdict = guarded == Guarded.API ? limits.admitApiRequest(address) : limits.admitCredential(address);
        return switch (verdict) {
            case AddressLimits.Verdict.Admitted admitted -> true;
            case AddressLimits.Verdict.Uncounted uncounted -> {
                uncounted(limit, uncounted.capacity());
                yield true;
            }
            case AddressLimits.Verdict.Refused refused -> {
                refuse(ctx, limit, address, refused);
                yield false;
            }
        };
    }

    /** After a request: a 401 of an endpoint that takes a bearer credential counts one failure of its address. */
    void answered(Context ctx) {
        if (ctx.statusCode() == 401 && guardedAt(ctx.path()) == Guarded.CREDENTIAL) {
            String address = ctx.attribute(CLIENT_ADDRESS);
            credentialFailed(address == null ? clientAddress(ctx) : address);
        }
    }

    /** A WebSocket whose credential was refused on connect: one failure of the address its upgrade came from. */
    void credentialRefused(String address) {
        if (address != null) {
            credentialFailed(address);
        }
    }

    private void credentialFailed(String address) {
        if (limits.credentialFailed(address) instanceof AddressLimits.Verdict.Uncounted uncounted) {
            uncounted(AddressLimit.CREDENTIAL_FAILURES, uncounted.capacity());
        }
    }

    private String clientAddress(Context ctx) {
        return proxies.clientIp(ctx.req().getRemoteAddr(), Collections.list(ctx.req().getHeaders("X-Forwarded-For")));
    }

    private static Guarded guardedAt(String path) {
        if (path.equals("/api") || path.startsWith("/api/")) {
            return Guarded.API;
        }
        // every path of the agent transport and of SCIM, so no method or sub-path is a way around the limit
        if (path.equals("/mcp") || path.startsWith("/mcp/") || path.equals("/scim/v2") || path.startsWith("/scim/v2/")) {
            return Guarded.CREDENTIAL;
        }
        return Guarded.NONE;
    }

    private void refuse(Context ctx, AddressLimit limit, String address, AddressLimits.Verdict.Refused refused) {
        metrics.addressLimitRefused(limit);
        McpTransport transport = ctx.path().equals("/mcp/ws") ? McpTransport.WEBSOCKET
                : ctx.path().startsWith("/mcp") ? McpTransport.STREAMABLE_HTTP : null;
        if (transport != null) {
            metrics.mcpRefused(transport, McpRefusalReason.ADDRESS_AUTH_FAILURES);
        }
        long lines = refusalLines.get(limit).occurred();
        if (lines > 0) {
            LOG.warn("event=address-limited limit={} client={} path=\"{}\" retryAfterSeconds={} refused={} note=\"at most one line a"
                    + " minute per limit; refused counts the requests since the previous line, client names the last\"",
                    limit.label(), LogField.of(address), LogField.of(ctx.path()), refused.retryAfterSeconds(), lines);
        }
        long seconds = refused.retryAfterSeconds();
        String message = limit == AddressLimit.API_REQUESTS
                ? "Too many requests: one client address (an IPv4 address, or an IPv6 /64) may send " + refused.limit()
                        + " requests to /api within " + refused.window().toSeconds() + " s, and yours has; this request did not"
                        + " run, send it again in " + seconds + " s"
                : "Too many failed credentials: your client address (an IPv4 address, or an IPv6 /64) sent " + refused.limit()
                        + " requests with a missing or wrong credential within " + refused.window().toSeconds() + " s, so its"
                        + " requests to /mcp, /mcp/ws and /scim/v2 are refused without their credential being checked, a valid"
                        + " one too; send it again in " + seconds + " s, with the right credential";
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", limit == AddressLimit.API_REQUESTS ? API_CODE : CREDENTIAL_CODE);
        body.put("error", message);
        body.put("retryAfterSeconds", seconds);
        body.put("limit", refused.limit());
        body.put("windowMs", refused.window().toMillis());
        if (transport != McpTransport.WEBSOCKET) {
            RequestBodies.drainOrClose(ctx, DRAIN_BYTES);
        }
        ctx.header("Retry-After", Long.toString(seconds));
        JsonResponses.json(ctx, 429, body);
        ctx.skipRemainingHandlers();
    }

    private void uncounted(AddressLimit limit, int capacity) {
        metrics.addressLimitUncounted(limit);
        long lines = uncountedLines.get(limit).occurred();
        if (lines > 0) {
            LOG.warn("event=address-limit-table-full limit={} capacity={} uncounted={} note=\"{} client addresses are counted"
                    + " within the last minute, as many as this limit holds, so requests from other addresses go uncounted (not"
                    + " limited) until windows end: many source addresses at once (a spray, or OMCP_TRUST_PROXY trusting a"
                    + " forwarded address it should not); uncounted counts them since the previous such line, which comes at most"
                    + " once a minute\"", limit.label(), capacity, lines, capacity);
        }
    }
}
