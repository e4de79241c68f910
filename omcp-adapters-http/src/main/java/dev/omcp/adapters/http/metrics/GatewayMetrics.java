package dev.omcp.adapters.http.metrics;

import dev.omcp.ports.audit.AuditRecording;
import dev.omcp.ports.audit.AuditSinkStatus;
import dev.omcp.ports.mcp.McpTransport;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The gateway's own metrics at {@code /metrics}, kept with the official Prometheus Java client:
 * request counts and latency per HTTP route and per MCP method, refusals of agents per reason,
 * refused password logins per answer code, refusals by the per-address limits, whether the audit
 * log records and how each audit sink delivers (read at each scrape), and the JVM's metrics.
 */
public final class GatewayMetrics {
    /** From half a millisecond (a cached {@code tools/list}) to half a minute (a slow backend fan-out). */
    private static final double[] LATENCY_BUCKETS = {
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30
    };
    /**
     * The HTTP methods counted under their own name. Javalin takes any method token a client sends
     * (and the value of an {@code X-HTTP-Method-Override} header) as the request's method, so any
     * other is counted as {@code (other)}: a label value per request a client makes up would grow
     * the metrics without bound.
     */
    private static final Set<String> HTTP_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "QUERY");
    /**
     * The codes a password login that was checked and refused answers with (spec 7.4): a wrong
     * password, and the three 429s and the 503 that tell apart one account under attack, one
     * address guessing, logins from more addresses than the gateway counts, and a saturated
     * verifier. {@code /api/auth/login} answers all three 429s on one route, so
     * {@code omcp_http_requests_total} cannot tell them apart; this counter can. Also the 500 of a
     * sign-in whose session does not fit in the cookie (a password login or an OIDC callback): the
     * account cannot sign in until the operator shortens it.
     */
    public static final List<String> LOGIN_REFUSAL_CODES = List.of("OMCP_INVALID_CREDENTIALS", "OMCP_LOGIN_LOCKED", "OMCP_LOGIN_RATE_LIMIT",
            "OMCP_LOGIN_ADDRESS_TABLE_FULL", "OMCP_LOGIN_BUSY", "OMCP_SESSION_TOO_LARGE");
    /**
     * The request attribute a login route sets to the code it refused with; the request logger counts
     * it once the answer is sent, as it counts the request itself.
     */
    public static final String LOGIN_REFUSAL_ATTRIBUTE = "omcp.metrics.login-refusal";
    /** Prometheus text format 0.0.4, what every scraper understands. */
    public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter httpRequests;
    private final Histogram httpDuration;
    private final Counter mcpRequests;
    private final Histogram mcpDuration;
    private final Counter loginRefusals;
    private final Counter mcpRefusals;
    private final Counter addressLimitRefusals;
    private final Counter addressLimitUncounted;
    /**
     * The series of {@link #mcpRefusals}, bound once by transport and reason ordinals, so counting a
     * refusal allocates nothing; null for a pair that cannot happen (see {@link McpRefusalReason#happensOn}).
     */
    private final CounterDataPoint[][] mcpRefusalSeries;
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final Set<String> knownMethods;
    /** Guarded by {@code this}: whether the JVM's metrics are registered yet (see {@link #scrape}). */
    private boolean jvmMetricsRegistered;

    /**
     * @param knownMethods the JSON-RPC methods the gateway answers; any other method is counted as
     *     {@code (unknown)} so a caller cannot grow the label set without bound
     */
    public GatewayMetrics(Set<String> knownMethods) {
        this.knownMethods = Set.copyOf(knownMethods);
        httpRequests = Counter.builder()
                .name("omcp_http_requests")
                .help("HTTP requests served, by route template, method and status code")
                .labelNames("route", "method", "status")
                .register(registry);
        httpDuration = Histogram.builder()
                .name("omcp_http_request_duration_seconds")
                .help("HTTP request latency by route template and method")
                .labelNames("route", "method")
                .classicOnly()
                .classicUpperBounds(LATENCY_BUCKETS)
                .withoutExemplars()
                .register(registry);
        mcpRequests = Counter.builder()
                .name("omcp_mcp_requests")
                .help("MCP JSON-RPC messages handled, by method, transport and outcome (ok, error, refused, accepted, dropped)")
                .labelNames("method", "transport", "outcome")
                .register(registry);
        mcpDuration = Histogram.builder()
                .name("omcp_mcp_request_duration_seconds")
                .help("MCP JSON-RPC handling latency by method")
                .labelNames("method")
                .classicOnly()
                .classicUpperBounds(LATENCY_BUCKETS)
                .withoutExemplars()
                .register(registry);
        loginRefusals = Counter.builder()
                .name("omcp_login_refusals")
                .help("Sign-ins refused after their body was read (password logins; OIDC callbacks over their limit or with a "
                        + "session too large), by answer code: OMCP_INVALID_CREDENTIALS (401), "
                        + "OMCP_LOGIN_LOCKED, OMCP_LOGIN_RATE_LIMIT, OMCP_LOGIN_ADDRESS_TABLE_FULL (429), OMCP_LOGIN_BUSY (503), "
                        + "OMCP_SESSION_TOO_LARGE (500)")
                .labelNames("code")
                .register(registry);
        // every code from 0, so a rate or an alert on one works from the first refusal on
        LOGIN_REFUSAL_CODES.forEach(code -> loginRefusals.labelValues(code));
        mcpRefusals = Counter.builder()
                .name("omcp_mcp_refusals")
                .help("Requests, messages and WebSockets of agents refused at /mcp and /mcp/ws, before the dispatcher or by it, "
                        + "by transport and reason (a fixed set; see docs/mcp.md)")
                .labelNames("transport", "reason")
                .register(registry);
        addressLimitRefusals = Counter.builder()
                .name("omcp_address_limit_refusals")
                .help("Requests refused with 429 by a limit per client address, by limit: api-requests (an address over its "
                        + "requests to /api a minute, OMCP_ADDRESS_RATE_LIMIT), credential-failures (an address over its failed "
                        + "credentials a minute, refused at /mcp, /mcp/ws or /scim/v2 before its credential was checked, "
                        + "OMCP_ADDRESS_AUTH_FAILURE_LIMIT)")
                .labelNames("limit")
                .register(registry);
        addressLimitUncounted = Counter.builder()
                .name("omcp_address_limit_uncounted")
                .help("Requests (api-requests) or failed credentials (credential-failures) let through without being counted, "
                        + "because the limit's table held as many client addresses as it may: many source addresses at once "
                        + "(a spray, or OMCP_TRUST_PROXY trusting a forwarded address it should not)")
                .labelNames("limit")
                .register(registry);
        for (AddressLimit limit : AddressLimit.values()) {
            // from 0, like the login refusals
            addressLimitRefusals.labelValues(limit.label());
            addressLimitUncounted.labelValues(limit.label());
        }
        mcpRefusalSeries = new CounterDataPoint[McpTransport.values().length][McpRefusalReason.values().length];
        for (McpTransport transport : McpTransport.values()) {
            for (McpRefusalReason reason : McpRefusalReason.values()) {
                if (reason.happensOn(transport)) {
                    // from 0, like the login refusals
                    mcpRefusalSeries[transport.ordinal()][reason.ordinal()] = mcpRefusals.labelValues(transportLabel(transport),
                            reason.label());
                }
            }
        }
    }

    /**
     * Exports the audit log's state, read at each scrape (the chain keeps the counts; nothing is
     * copied here): whether it records, and each sink's counters, every one from 0 so an alert on
     * it works from the first entry lost. Call once, before the first scrape.
     *
     * @param recording whether the log records now
     * @param sinks each sink's status, as {@code GET /api/audit} reports it
     */
    public void audit(Supplier<AuditRecording> recording, Supplier<List<AuditSinkStatus>> sinks) {
        GaugeWithCallback.builder()
                .name("omcp_audit_recording")
                .help("1 while the audit log records entries; 0 while it cannot (failing) or has stopped: changes through the "
                        + "management API are then refused with 503. GET /api/audit tells which; the gateway's log says why")
                .callback(gauge -> gauge.call(recording.get() == AuditRecording.OK ? 1 : 0))
                .register(registry);
        sinkCounter("omcp_audit_sink_delivered", "Audit entries the sink's destination (webhook, object store) accepted, by sink",
                sinks, AuditSinkStatus::delivered);
        sinkCounter("omcp_audit_sink_dead_lettered", "Audit entries the sink gave up delivering and wrote to its dead-letter file "
                + "(or only logged, without one), by sink; replay them from that file once the destination is back", sinks,
                AuditSinkStatus::deadLettered);
        sinkCounter("omcp_audit_sink_overflowed", "Of the dead-lettered audit entries, those given up at once because the sink's "
                + "queue was full: the destination is slower than the gateway or unreachable", sinks, AuditSinkStatus::overflowed);
        sinkCounter("omcp_audit_sink_lost", "Audit entries neither delivered nor written to the dead-letter file (it failed or "
                + "could not keep up), by sink: the sink's copy of the log misses them; they remain only in the gateway's audit "
                + "file. Alert on any increase; fix the dead-letter file's disk and copy the missing entries (seq in the gateway's "
                + "log, event=audit-dead-letter-failed or audit-dead-letter-lost) from the audit file", sinks, AuditSinkStatus::lost);
        GaugeWithCallback.builder()
                .name("omcp_audit_sink_queued")
                .help("Audit entries waiting in the sink's queue to be delivered now, by sink")
                .labelNames("sink")
                .callback(gauge -> sinks.get().forEach(sink -> gauge.call(sink.queued(), sink.name())))
                .register(registry);
    }

    private void sinkCounter(String name, String help, Supplier<List<AuditSinkStatus>> sinks, ToLongFunction<AuditSinkStatus> count) {
        CounterWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames("sink")
                .callback(counter -> sinks.get().forEach(sink -> counter.call(count.applyAsLong(sink), sink.name())))
                .register(registry);
    }

    /**
     * Records one refusal of an agent at {@code /mcp} or {@code /mcp/ws}: a request or message
     * refused (a batch counts once), or a WebSocket refused at its upgrade or closed on connect.
     */
    public void mcpRefused(McpTransport transport, McpRefusalReason reason) {
        CounterDataPoint series = mcpRefusalSeries[transport.ordinal()][reason.ordinal()];
        // a pair no code path produces today still counts, under its own bounded labels
        (series != null ? series : mcpRefusals.labelValues(transportLabel(transport), reason.label())).inc();
    }

    /** Records one request refused (429) by the per-address {@code limit}. */
    public void addressLimitRefused(AddressLimit limit) {
        addressLimitRefusals.labelValues(limit.label()).inc();
    }

    /** Records one request or failure the per-address {@code limit} let through uncounted, its table being full. */
    public void addressLimitUncounted(AddressLimit limit) {
        addressLimitUncounted.labelValues(limit.label()).inc();
    }

    /** The {@code transport} label value, as {@code omcp_mcp_requests_total} spells it. */
    private static String transportLabel(McpTransport transport) {
        return switch (transport) {
            case STREAMABLE_HTTP -> "streamable-http";
            case WEBSOCKET -> "websocket";
            case IN_PROCESS -> "in-process";
        };
    }

    /**
     * Records one refused login.
     *
     * @param code the code of its answer, one of {@link #LOGIN_REFUSAL_CODES}; any other is counted as
     *     {@code (other)}, so the label set stays the documented one
     */
    public void loginRefused(String code) {
        loginRefusals.labelValues(LOGIN_REFUSAL_CODES.contains(code) ? code : "(other)").inc();
    }

    /**
     * Records one HTTP request.
     *
     * @param route the route template that matched (never the request's path), or {@code unmatched}
     * @param method the request's method as the client sent it; one outside {@link #HTTP_METHODS} is
     *     counted as {@code (other)}
     */
    public void http(String route, String method, int status, double seconds) {
        String methodLabel = HTTP_METHODS.contains(method) ? method : "(other)";
        httpRequests.labelValues(route, methodLabel, Integer.toString(status)).inc();
        httpDuration.labelValues(route, methodLabel).observe(seconds);
    }

    /**
     * Records one MCP message.
     *
     * @param method the JSON-RPC method, or empty when the message had none
     */
    public void mcp(String method, String transport, String outcome, double seconds) {
        String label = method.isEmpty() ? "(none)" : knownMethods.contains(method) ? method : "(unknown)";
        mcpRequests.labelValues(label, transport, outcome).inc();
        mcpDuration.labelValues(label).observe(seconds);
    }

    /**
     * Writes every metric in the Prometheus text format. The JVM's metrics are registered on the
     * first scrape, not at start: registering them costs about 70 ms of start-up (a tenth of the
     * whole), and they read the JVM's cumulative counters, so nothing before the first scrape is lost.
     */
    public void scrape(OutputStream out) throws IOException {
        synchronized (this) {
            if (!jvmMetricsRegistered) {
                JvmMetrics.builder().register(registry);
                jvmMetricsRegistered = true;
            }
        }
        writer.write(out, registry.scrape());
    }
}
