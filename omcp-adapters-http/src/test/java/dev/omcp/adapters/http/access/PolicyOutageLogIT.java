package dev.omcp.adapters.http.access;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.adapters.http.api.AccessRefusals;
import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.auth.AuthMode;
import dev.omcp.adapters.http.auth.SessionCookies;
import dev.omcp.adapters.http.security.CsrfProtection;
import dev.omcp.adapters.http.security.TrustedProxies;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyView;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditTrail;
import dev.omcp.ports.identity.Principal;
import dev.omcp.testkit.time.ManualClock;
import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * While the policy engine cannot decide, every request that needs a permission is refused with 503;
 * the operator's log gets one {@code event=policy-unavailable} line a minute, not one per request,
 * naming the request, whether the route's permission or a handler's further check met the outage.
 */
class PolicyOutageLogIT {
    private static final Permission READ = new Permission("sources", "read");
    private static final Permission HEALTH_WRITE = new Permission("health", "write");

    /** An engine in an outage: it decides nothing, except that {@link #HEALTH_WRITE}'s route permission was cached before. */
    private static final class Outage implements AccessPolicy {
        @Override
        public AccessDecision decide(Principal principal, Permission permission) {
            if (permission.equals(HEALTH_WRITE)) {
                return new AccessDecision.Allowed();
            }
            return new AccessDecision.Unavailable("OPA did not answer in full within 2000 ms");
        }

        @Override
        public List<Permission> permissionsOf(Principal principal) {
            return List.of();
        }

        @Override
        public List<Permission> catalog() {
            return List.of(READ, HEALTH_WRITE);
        }

        @Override
        public PolicyView view() {
            return new PolicyView(Map.of(), List.of(), "test");
        }
    }

    /** Reads are not audited; any entry is a bug in the test's routes. */
    private static final class NoAudit implements AuditTrail {
        @Override
        public void record(AuditEvent event) {
            throw new AssertionError("a read is not audited");
        }

        @Override
        public Optional<String> unavailable() {
            return Optional.empty();
        }
    }

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger refusalLogger = (Logger) LoggerFactory.getLogger(AccessRefusals.class);
    private Javalin app;

    @BeforeEach
    void start() {
        log.start();
        refusalLogger.addAppender(log);
        ManagementGuard guard = new ManagementGuard(AuthMode.ANONYMOUS,
                new SessionCookies("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8)), new NoSessions(),
                new Outage(), new CsrfProtection(true, new byte[32], new SecureRandom()), TrustedProxies.none(), new NoAudit(), clock);
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            ApiRoutes routes = new ApiRoutes(config.routes, guard);
            routes.route(HandlerType.GET, "/api/sources").summary("list").permission("sources", "read")
                    .handle(ctx -> ctx.json(Map.of("sources", List.of())));
            // a handler that needs a further permission for part of its work, as the settings' health thresholds do
            routes.route(HandlerType.GET, "/api/health").summary("further").permission("health", "write").handle(ctx -> {
                if (AccessRefusals.allowed(ctx, new Outage(), ApiCaller.principal(ctx).orElseThrow(), READ)) {
                    ctx.json(Map.of());
                }
            });
        }).start();
    }

    @AfterEach
    void stop() {
        refusalLogger.detachAppender(log);
        app.stop();
    }

    private int get() throws Exception {
        return get("/api/sources");
    }

    private int get(String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path)).GET().build();
        return client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private List<String> outageLines() {
        return log.list.stream().filter(e -> e.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage)
                .filter(line -> line.startsWith("event=policy-unavailable ")).toList();
    }

    @Test
    void anOutageUnderLoad_logsOneLineAMinute_countingTheRefusalsInBetween() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(get()).as("every request is refused, logged or not").isEqualTo(503);
        }
        assertThat(outageLines()).as("the first refusal of the outage at once, the next four only counted").singleElement()
                .satisfies(line -> assertThat(line).contains("method=GET path=\"/api/sources\"")
                        .contains("permission=sources:read").contains("refused=1")
                        .contains("OPA did not answer in full within 2000 ms"));

        clock.advance(Duration.ofSeconds(59));
        assertThat(get()).isEqualTo(503);
        assertThat(outageLines()).hasSize(1);

        clock.advance(Duration.ofSeconds(1));
        assertThat(get()).isEqualTo(503);
        assertThat(outageLines()).as("a minute after the first line, one line for the six refusals since").hasSize(2)
                .last().satisfies(line -> assertThat(line).contains("refused=6"));
    }

    @Test
    void aHandlersFurtherCheckThatMeetsAnOutage_isLoggedWithItsRequest_andPacedWithTheGuardsLines() throws Exception {
        assertThat(get("/api/health")).isEqualTo(503);
        assertThat(outageLines()).as("the route's permission was allowed; the handler's own check met the outage").singleElement()
                .satisfies(line -> assertThat(line).contains("method=GET path=\"/api/health\"").contains("permission=sources:read")
                        .contains("reason=\"OPA did not answer in full within 2000 ms\"").contains("refused=1"));

        assertThat(get("/api/sources")).isEqualTo(503);
        assertThat(outageLines()).as("one outage, one pacing: the guard's refusal within the minute is only counted").hasSize(1);

        clock.advance(Duration.ofMinutes(1));
        assertThat(get("/api/health")).isEqualTo(503);
        assertThat(outageLines()).hasSize(2).last().satisfies(line -> assertThat(line).contains("refused=2"));
    }
}
