package dev.omcp.adapters.http.access;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
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
import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A change that cannot be audited is not made: while the audit trail reports that its store
 * fails, the guard answers 503 before the route's handler runs, and still reports the refusal.
 */
class AuditFailClosedIT {
    private static final Permission WRITE = new Permission("sources", "write");

    /** A trail whose store can be made to fail, as the audit chain reports it. */
    private static final class SwitchableTrail implements AuditTrail {
        final List<AuditEvent> recorded = Collections.synchronizedList(new ArrayList<>());
        volatile String failure;
        volatile boolean throwing;

        @Override
        public void record(AuditEvent event) {
            if (throwing) {
                throw new IllegalStateException("the audit store failed");
            }
            recorded.add(event);
        }

        @Override
        public Optional<String> unavailable() {
            return Optional.ofNullable(failure);
        }
    }

    /** Everyone holds {@link #WRITE}; the guard asks nothing else in these tests. */
    private static final class AllowAll implements AccessPolicy {
        @Override
        public AccessDecision decide(Principal principal, Permission permission) {
            return new AccessDecision.Allowed();
        }

        @Override
        public List<Permission> permissionsOf(Principal principal) {
            return List.of(WRITE);
        }

        @Override
        public List<Permission> catalog() {
            return List.of(WRITE);
        }

        @Override
        public PolicyView view() {
            return new PolicyView(Map.of(), List.of(), "test");
        }
    }

    private final SwitchableTrail trail = new SwitchableTrail();
    private final AtomicInteger changesMade = new AtomicInteger();
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger guardLogger = (Logger) LoggerFactory.getLogger(ManagementGuard.class);
    private Javalin app;

    @BeforeEach
    void start() {
        log.start();
        guardLogger.addAppender(log);
        ManagementGuard guard = new ManagementGuard(AuthMode.ANONYMOUS,
                new SessionCookies("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8)), new NoSessions(),
                new AllowAll(), new CsrfProtection(true, new byte[32], new SecureRandom()), TrustedProxies.none(), trail);
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            ApiRoutes routes = new ApiRoutes(config.routes, guard);
            routes.route(HandlerType.PUT, "/api/sources/{name}").summary("change").permission("sources", "write")
                    .handle(ctx -> {
                        changesMade.incrementAndGet();
                        ctx.status(200).json(Map.of("ok", true));
                    });
            routes.route(HandlerType.GET, "/api/sources").summary("list").permission("sources", "write")
                    .handle(ctx -> ctx.json(Map.of("sources", List.of())));
        }).start();
    }

    @AfterEach
    void stop() {
        guardLogger.detachAppender(log);
        app.stop();
    }

    private HttpResponse<String> call(String method, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .header("Authorization", "Bearer machine") // CSRF-exempt, so the audit rule is what is tested
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aChangeIsMadeAndAuditedWhileTheTrailCanRecord() throws Exception {
        HttpResponse<String> response = call("PUT", "/api/sources/prod");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(changesMade).hasValue(1);
        assertThat(trail.recorded).singleElement().satisfies(event -> {
            assertThat(event.status()).isEqualTo(200);
            assertThat(event.target()).isEqualTo("prod");
        });
    }

    @Test
    void whileTheTrailCannotRecord_aChangeIsRefusedBeforeItIsMade_andTheRefusalIsReported() throws Exception {
        trail.failure = "could not write audit entry seq 7 to /var/lib/omcp/audit.jsonl: No space left on device";

        HttpResponse<String> response = call("PUT", "/api/sources/prod");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.body()).contains("\"code\":\"OMCP_AUDIT_UNAVAILABLE\"").contains("nothing was changed");
        assertThat(response.body()).as("the file name stays in the operator's log").doesNotContain("/var/lib");
        assertThat(changesMade).hasValue(0);
        // the refusal's own entry is the next attempt to write: once the store works again, so does the API
        assertThat(trail.recorded).singleElement().satisfies(event -> assertThat(event.status()).isEqualTo(503));
    }

    @Test
    void whenRecordingAChangeFails_itsLogLine_quotesTheDecodedTarget_soAPathCannotForgeAField() throws Exception {
        trail.throwing = true;

        // %22 arrives as a quote in the path parameter, which names the target: the target is made
        // printable (the quote in its escaped form) and the log line escapes that again, so no field is forged
        assertThat(call("PUT", "/api/sources/x%22%20actor%3D%22admin").statusCode()).isEqualTo(200);

        assertThat(log.list).filteredOn(e -> e.getLevel() == Level.ERROR).singleElement()
                .extracting(ILoggingEvent::getFormattedMessage).asString()
                .startsWith("event=audit-failed ")
                .contains(" target=\"x\\\\u{22} actor=\\\\u{22}admin\" ")
                .doesNotContain(" actor=\"admin\"");
    }

    @Test
    void readsAreNotRefusedWhenTheTrailCannotRecord() throws Exception {
        trail.failure = "disk full";

        assertThat(call("GET", "/api/sources").statusCode()).isEqualTo(200);
        assertThat(trail.recorded).isEmpty();
    }

    @Test
    void onceTheTrailRecordsAgain_changesAreMadeAgain() throws Exception {
        trail.failure = "disk full";
        assertThat(call("PUT", "/api/sources/prod").statusCode()).isEqualTo(503);

        trail.failure = null;

        assertThat(call("PUT", "/api/sources/prod").statusCode()).isEqualTo(200);
        assertThat(changesMade).hasValue(1);
    }
}
