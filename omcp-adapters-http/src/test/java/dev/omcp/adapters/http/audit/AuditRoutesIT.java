package dev.omcp.adapters.http.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiGuard;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditHistory;
import dev.omcp.ports.audit.AuditPage;
import dev.omcp.ports.audit.AuditQuery;
import dev.omcp.ports.audit.AuditRecording;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /api/audit} on a real Javalin server: the page cursor and what a caller bound to a tenant sees. */
class AuditRoutesIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2025-01-31T12:00:00.250Z");

    private final List<AuditEntry> stored = new CopyOnWriteArrayList<>();
    private final AtomicReference<Principal> caller = new AtomicReference<>(Principal.anonymous());
    private final AtomicReference<AuditRecording> recording = new AtomicReference<>(AuditRecording.OK);
    private final AtomicInteger judgedPerSearch = new AtomicInteger(Integer.MAX_VALUE);
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private Javalin app;

    /** The log as the stores answer it: matching entries newest first, at most the limit. */
    private final class StoredHistory implements AuditHistory {
        @Override
        public AuditPage find(AuditQuery query) {
            List<AuditEntry> newestFirst = new ArrayList<>(stored);
            Collections.reverse(newestFirst);
            AuditEntry tip = stored.get(stored.size() - 1);
            List<AuditEntry> candidates = newestFirst.stream()
                    .filter(entry -> query.beforeSeq().isEmpty() || entry.seq() < query.beforeSeq().getAsLong()).toList();
            List<AuditEntry> found = new ArrayList<>();
            for (int judged = 0; judged < candidates.size() && found.size() < query.limit(); judged++) {
                if (judged == judgedPerSearch.get()) {
                    // the file store's work budget: stop before this entry, which the next search starts with
                    return new AuditPage(found, tip.seq(), tip.hash(), OptionalLong.of(candidates.get(judged).seq() + 1));
                }
                if (query.matches(candidates.get(judged))) {
                    found.add(candidates.get(judged));
                }
            }
            return new AuditPage(found, tip.seq(), tip.hash());
        }

        @Override
        public boolean persisted() {
            return true;
        }

        @Override
        public AuditRecording recording() {
            return recording.get();
        }
    }

    @BeforeEach
    void start() {
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            ApiGuard guard = (ctx, route, handler) -> {
                ApiCaller.setPrincipal(ctx, caller.get());
                handler.handle(ctx);
            };
            new AuditRoutes(new StoredHistory()).register(new ApiRoutes(config.routes, guard));
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private void store(String actor, String tenant, String target) {
        long seq = stored.size() + 1;
        // every entry in the same millisecond: a burst of changes
        stored.add(new AuditEntry(T0, seq, actor, tenant, "sources", "write", "PUT", "/api/sources/" + target, 200,
                "10.0.0." + seq, target, "%064d".formatted(seq - 1), "%064d".formatted(seq)));
    }

    private HttpResponse<String> get(String query) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/api/audit" + query)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode page(String query) throws Exception {
        HttpResponse<String> response = get(query);
        assertThat(response.statusCode()).as(query).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    @Test
    void followingNextBeforeSeq_returnsEveryEntryExactlyOnce_whenMoreThanAPageShareOneMillisecond() throws Exception {
        for (int i = 1; i <= 7; i++) {
            store("user:alice", null, "s" + i);
        }

        List<Long> seen = new ArrayList<>();
        String query = "?limit=3";
        for (int pages = 0; pages < 10 && query != null; pages++) {
            JsonNode page = page(query);
            page.get("entries").forEach(entry -> seen.add(entry.get("seq").asLong()));
            JsonNode next = page.get("nextBeforeSeq");
            query = next.isNull() ? null : "?limit=3&beforeSeq=" + next.asLong();
        }

        assertThat(seen).containsExactly(7L, 6L, 5L, 4L, 3L, 2L, 1L);
        // a page with fewer entries than the limit is the last one
        assertThat(page("?limit=10").get("nextBeforeSeq").isNull()).isTrue();
        // the cursor combines with the filters
        assertThat(page("?beforeSeq=3&actor=user:alice").get("entries")).extracting(e -> e.get("seq").asLong())
                .containsExactly(2L, 1L);
    }

    @Test
    void theAnswerSaysWhetherTheLogRecords_andWhetherOnlyARestartBringsItBack() throws Exception {
        store("user:alice", null, "s1");

        assertThat(page("").get("recording").asText()).isEqualTo("ok");
        recording.set(AuditRecording.FAILING);
        assertThat(page("").get("recording").asText()).isEqualTo("failing");
        recording.set(AuditRecording.STOPPED); // a failed fsync: every change is refused until a restart
        assertThat(page("").get("recording").asText()).isEqualTo("stopped");
    }

    @Test
    void aPageTheStoreCutShortAtItsWorkBudget_saysSo_andItsCursorLeadsToEveryMatchingEntryOnce() throws Exception {
        for (int i = 1; i <= 7; i++) {
            store(i == 2 || i == 6 ? "user:bob" : "user:alice", null, "s" + i);
        }
        judgedPerSearch.set(2);

        List<Long> seen = new ArrayList<>();
        List<Boolean> complete = new ArrayList<>();
        String query = "?limit=3&actor=user:bob";
        for (int pages = 0; pages < 10 && query != null; pages++) {
            JsonNode page = page(query);
            page.get("entries").forEach(entry -> seen.add(entry.get("seq").asLong()));
            complete.add(page.get("searchComplete").asBoolean());
            JsonNode next = page.get("nextBeforeSeq");
            query = next.isNull() ? null : "?limit=3&actor=user:bob&beforeSeq=" + next.asLong();
        }

        assertThat(seen).containsExactly(6L, 2L);
        // short pages that are not the last say so; the last one, which ends the paging, is complete
        assertThat(complete).containsExactly(false, false, false, true);
    }

    @Test
    void aBadBeforeSeq_answers400NamingTheParameter() throws Exception {
        store("user:alice", null, "s1");
        for (String bad : List.of("0", "-3", "abc", "7.5")) {
            HttpResponse<String> response = get("?beforeSeq=" + bad);
            assertThat(response.statusCode()).as(bad).isEqualTo(400);
            JsonNode body = JSON.readTree(response.body());
            assertThat(body.get("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
            assertThat(body.get("error").asText()).as(bad).startsWith("'beforeSeq' must be");
        }
    }

    @Test
    void aCallerBoundToATenant_readsOnlyItsTenantsEntries_whileOneWithoutATenantReadsThemAll() throws Exception {
        store("user:alice", "acme", "acme-prod");
        store("user:gina", "globex", "globex-prod");
        store("user:root", null, "acme-staging");
        store("user:bob", "acme", "acme-dev");

        caller.set(new Principal("user:victor", "Victor", AuthKind.SESSION, "acme", Set.of("viewer"),
                Optional.of("sid-1")));
        JsonNode acme = page("");
        assertThat(acme.get("entries")).extracting(e -> e.get("target").asText()).containsExactly("acme-dev", "acme-prod");
        assertThat(acme.get("count").asInt()).isEqualTo(2);
        // asking for another tenant's actor gives nothing, as if it did not exist
        assertThat(page("?actor=user:gina").get("entries")).isEmpty();

        caller.set(Principal.apiKey("globex-ci", "globex"));
        assertThat(page("").get("entries")).extracting(e -> e.get("target").asText()).containsExactly("globex-prod");

        caller.set(new Principal("user:admin", "Admin", AuthKind.SESSION, "", Set.of("admin"),
                Optional.of("sid-2")));
        assertThat(page("").get("entries")).hasSize(4);
    }
}
