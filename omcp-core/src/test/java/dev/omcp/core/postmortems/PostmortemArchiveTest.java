package dev.omcp.core.postmortems;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.omcp.core.testing.CapturedLog;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.Refusal;
import dev.omcp.ports.postmortems.PostmortemOutcome;
import dev.omcp.ports.postmortems.PostmortemStore;
import dev.omcp.ports.postmortems.PostmortemStoreException;
import dev.omcp.ports.postmortems.StoredPostmortem;
import dev.omcp.ports.postmortems.TenantScope;
import dev.omcp.ports.tools.InvokeTool;
import dev.omcp.ports.tools.ToolOutcome;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** spec 2.13, 4.3: post-mortems generated through the tool chain, stored per tenant, deleted by tombstone. */
class PostmortemArchiveTest {
    private static final Principal ACME_OPS = user("olivia", "acme");
    private static final Principal GLOBEX_OPS = user("gary", "globex");
    private static final Principal GLOBAL_ADMIN = user("alice", "");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final InMemoryPostmortemStore store = new InMemoryPostmortemStore(100);
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private Function<JsonObject, ToolOutcome> tool = arguments -> new ToolOutcome.Completed(PostmortemArchive.TOOL,
            ToolResult.structured(Jsonp.object().add("service", arguments.getString("service")).add("synopsis", "db slow").build(),
                    "# markdown"));

    private final InvokeTool tools = new InvokeTool() {
        @Override
        public ToolOutcome invoke(Principal caller, String name, JsonObject arguments) {
            calls.add(caller.id() + " " + name + " " + arguments);
            return tool.apply(arguments);
        }

        @Override
        public ToolOutcome invokeWithParameters(Principal caller, String name, Map<String, List<String>> parameters, JsonObject fixed) {
            throw new AssertionError("post-mortems pass JSON arguments");
        }
    };
    private final PostmortemArchive archive = new PostmortemArchive(tools, store, clock, new Random(7));

    @RegisterExtension
    final CapturedLog log = new CapturedLog(PostmortemArchive.class);

    private static Principal user(String name, String tenant) {
        return new Principal("user:" + name, name, AuthKind.SESSION, tenant, Set.of("operator"), Optional.of("sid-" + name));
    }

    private StoredPostmortem generate(Principal caller, String service) {
        PostmortemOutcome outcome = archive.generate(caller, service, Optional.empty());
        assertThat(outcome).isInstanceOf(PostmortemOutcome.Stored.class);
        return ((PostmortemOutcome.Stored) outcome).entry();
    }

    @Test
    void generating_runsTheToolInJsonFormatAsTheCaller_andStoresItsReport() {
        StoredPostmortem entry = generate(ACME_OPS, "payments/db");

        // spec 4.3: "regenerates with format json"; spec 8: the window defaults to 1h
        assertThat(calls).containsExactly("user:olivia generate_postmortem {\"service\":\"payments/db\",\"duration\":\"1h\",\"format\":\"json\"}");
        assertThat(entry.id()).matches("pm-[0-9a-f]{24}");
        assertThat(entry.tenant()).isEqualTo("acme");
        assertThat(entry.createdBy()).isEqualTo("user:olivia");
        assertThat(entry.createdAt()).isEqualTo(clock.instant());
        assertThat(entry.duration()).isEqualTo("1h");
        assertThat(entry.report().getString("synopsis")).isEqualTo("db slow");
        assertThat(store.newestFirst(TenantScope.everyTenant(), 10)).containsExactly(entry);
    }

    @Test
    void listing_isNewestFirst_andTenantScoped_aCallerWithoutATenantSeesEveryEntry() throws PostmortemStoreException {
        StoredPostmortem first = generate(ACME_OPS, "checkout");
        clock.advance(Duration.ofMinutes(1));
        StoredPostmortem other = generate(GLOBEX_OPS, "billing");
        clock.advance(Duration.ofMinutes(1));
        StoredPostmortem second = generate(ACME_OPS, "payments");

        assertThat(archive.list(ACME_OPS, 10)).containsExactly(second, first);
        assertThat(archive.list(GLOBEX_OPS, 10)).containsExactly(other);
        assertThat(archive.list(GLOBAL_ADMIN, 10)).containsExactly(second, other, first);
        assertThat(archive.list(ACME_OPS, 1)).containsExactly(second);
    }

    @Test
    void thePageAfterAnEntry_continuesBelowIt_inTheCallersTenant_andAStaleCursorIsToldApart() throws PostmortemStoreException {
        StoredPostmortem first = generate(ACME_OPS, "checkout");
        clock.advance(Duration.ofMinutes(1));
        StoredPostmortem other = generate(GLOBEX_OPS, "billing");
        clock.advance(Duration.ofMinutes(1));
        StoredPostmortem second = generate(ACME_OPS, "payments");
        clock.advance(Duration.ofMinutes(1));
        StoredPostmortem third = generate(ACME_OPS, "frontend");

        assertThat(archive.listOlderThan(ACME_OPS, third.id(), 1)).contains(List.of(second));
        assertThat(archive.listOlderThan(ACME_OPS, second.id(), 10)).contains(List.of(first));
        assertThat(archive.listOlderThan(ACME_OPS, first.id(), 10)).contains(List.of());
        assertThat(archive.listOlderThan(GLOBAL_ADMIN, third.id(), 2)).contains(List.of(second, other));
        // another tenant's entry is no cursor for this caller, exactly like one that does not exist
        assertThat(archive.listOlderThan(ACME_OPS, other.id(), 10)).isEmpty();
        assertThat(archive.delete(GLOBAL_ADMIN, second.id())).isInstanceOf(PostmortemOutcome.Deleted.class);
        assertThat(archive.listOlderThan(ACME_OPS, second.id(), 10)).isEmpty();
        assertThat(archive.listOlderThan(ACME_OPS, "../x", 10)).isEmpty();
    }

    @Test
    void aUserNameHoldingAQuote_cannotForgeTheActorOfTheStoredAndDeletedLines() {
        // a user name (or an OIDC subject) comes from outside and may hold anything
        Principal forger = user("eve\" actor=\"user:alice", "");
        StoredPostmortem entry = generate(forger, "payments");
        archive.delete(forger, entry.id());

        assertThat(log.messages(Level.INFO)).hasSize(2).allSatisfy(line -> assertThat(line)
                .endsWith(" actor=\"user:eve\\\" actor=\\\"user:alice\"").doesNotContain(" actor=\"user:alice\""));
    }

    @Test
    void anEntryOfAnotherTenant_cannotBeReadOrDeleted_itBehavesAsMissing() throws PostmortemStoreException {
        StoredPostmortem globex = generate(GLOBEX_OPS, "billing");

        assertThat(archive.find(ACME_OPS, globex.id())).isEmpty();
        assertThat(archive.delete(ACME_OPS, globex.id())).isEqualTo(new PostmortemOutcome.NotFound(globex.id()));
        assertThat(archive.find(GLOBEX_OPS, globex.id())).contains(globex);

        assertThat(archive.delete(GLOBAL_ADMIN, globex.id())).isEqualTo(new PostmortemOutcome.Deleted(globex.id()));
        assertThat(archive.find(GLOBEX_OPS, globex.id())).isEmpty();
        assertThat(archive.delete(GLOBAL_ADMIN, globex.id())).isEqualTo(new PostmortemOutcome.NotFound(globex.id()));
    }

    @Test
    void invalidServiceAndDuration_areBothReported_andTheToolIsNotCalled() {
        PostmortemOutcome outcome = archive.generate(ACME_OPS, "pay ments", Optional.of("forever"));

        assertThat(outcome).isInstanceOfSatisfying(PostmortemOutcome.Invalid.class, invalid -> assertThat(invalid.errors())
                .anySatisfy(e -> assertThat(e).startsWith("service:"))
                .anySatisfy(e -> assertThat(e).startsWith("duration: 'forever'")));
        assertThat(archive.generate(ACME_OPS, null, Optional.of("31d"))).isInstanceOfSatisfying(PostmortemOutcome.Invalid.class,
                invalid -> assertThat(invalid.errors()).hasSize(2));
        assertThat(calls).isEmpty();
    }

    @Test
    void aToolThatIsMissingRefusedOrFailing_storesNothing() {
        for (ToolOutcome failure : List.of(
                new ToolOutcome.UnknownTool(PostmortemArchive.TOOL),
                new ToolOutcome.Refused(PostmortemArchive.TOOL, Refusal.RATE_LIMITED, Jsonp.object().add("code", "X").build()),
                new ToolOutcome.Completed(PostmortemArchive.TOOL, ToolResult.error("no metrics source")),
                new ToolOutcome.Failed(PostmortemArchive.TOOL, -32603, "boom"))) {
            tool = arguments -> failure;
            assertThat(archive.generate(ACME_OPS, "checkout", Optional.of("30m"))).isEqualTo(new PostmortemOutcome.NotGenerated(failure));
        }
        tool = arguments -> new ToolOutcome.Completed(PostmortemArchive.TOOL, ToolResult.text("just text", false));
        assertThat(archive.generate(ACME_OPS, "checkout", Optional.empty())).isInstanceOfSatisfying(PostmortemOutcome.NotGenerated.class,
                notGenerated -> assertThat(notGenerated.outcome()).isInstanceOf(ToolOutcome.Failed.class));
        assertThat(store.newestFirst(TenantScope.everyTenant(), 10)).isEmpty();
    }

    @Test
    void aStoreThatCannotWrite_isReportedAsUnavailable() {
        PostmortemStore broken = new PostmortemStore() {
            @Override
            public void append(StoredPostmortem entry) throws PostmortemStoreException {
                throw new PostmortemStoreException("disk full");
            }

            @Override
            public List<StoredPostmortem> newestFirst(TenantScope scope, int limit) {
                return List.of();
            }

            @Override
            public Optional<List<StoredPostmortem>> olderThan(String before, TenantScope scope, int limit) {
                return Optional.empty();
            }

            @Override
            public Optional<StoredPostmortem> find(String id, TenantScope scope) {
                return Optional.empty();
            }

            @Override
            public boolean delete(String id, TenantScope scope, String deletedBy, Instant at) throws PostmortemStoreException {
                throw new PostmortemStoreException("disk full");
            }

            @Override
            public List<String> problems() {
                return List.of("line 3: torn");
            }
        };
        PostmortemArchive archive = new PostmortemArchive(tools, broken, clock, new Random(1));

        assertThat(archive.generate(ACME_OPS, "checkout", Optional.empty())).isEqualTo(new PostmortemOutcome.StoreUnavailable("disk full"));
        assertThat(archive.delete(ACME_OPS, "pm-1")).isEqualTo(new PostmortemOutcome.StoreUnavailable("disk full"));
        assertThat(archive.storeProblems()).containsExactly("line 3: torn");
    }

    @Test
    void aMalformedId_isNotFound_withoutAskingTheStore() throws PostmortemStoreException {
        assertThat(archive.find(ACME_OPS, "../etc/passwd")).isEmpty();
        assertThat(archive.delete(ACME_OPS, "x".repeat(65))).isInstanceOf(PostmortemOutcome.NotFound.class);
    }

    @Test
    void theMemoryStore_keepsOnlyTheNewestEntriesUpToItsCapacity() {
        InMemoryPostmortemStore small = new InMemoryPostmortemStore(2);
        for (int i = 0; i < 3; i++) {
            small.append(new StoredPostmortem("pm-" + i, "", "s", "1h", clock.instant(), "user:x", JsonObject.EMPTY_JSON_OBJECT));
        }
        assertThat(small.newestFirst(TenantScope.everyTenant(), 10)).extracting(StoredPostmortem::id).containsExactly("pm-2", "pm-1");
    }
}
