package dev.omcp.app.wiring;

import dev.omcp.adapters.http.api.ManagementIdentity;
import dev.omcp.adapters.http.sources.SourcesRoutes;
import dev.omcp.adapters.storage.config.EnvironmentSource;
import dev.omcp.adapters.storage.config.YamlSourceStore;
import dev.omcp.app.settings.Settings;
import dev.omcp.connectors.builtin.catalog.BuiltinConnectorCatalog;
import dev.omcp.connectors.builtin.egress.BackendHostGuard;
import dev.omcp.connectors.builtin.transport.SourceConnectorContexts;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.sdk.memory.AnswerBudget;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires sources: the egress rules (installed into the JDK resolver provider), the builtin connector
 * catalog, the guarded connector contexts, the sources file, the live registry and its routes.
 */
final class SourcesAssembly implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SourcesAssembly.class);

    private final SourceRegistry registry;

    private SourcesAssembly(SourceRegistry registry) {
        this.registry = registry;
    }

    /** The builtin connector types, configured from the settings. */
    static BuiltinConnectorCatalog builtins(Settings.Connectors settings) {
        return new BuiltinConnectorCatalog(settings.prometheusServiceLabels(), settings.prometheusScrapeInterval(),
                settings.lokiServiceLabels(), settings.serviceLabelCacheTtl(), Duration.ofMinutes(5));
    }

    /** The sources file (or the environment URLs when there is none). */
    static YamlSourceStore store(Settings.Connectors settings) {
        return new YamlSourceStore(settings.configPath().map(Path::of), Path.of("").toAbsolutePath(),
                settings.environment(), settings.environmentSources().stream()
                        .map(e -> new EnvironmentSource(e.type(), e.variable(), e.urls())).toList());
    }

    /** Builds and starts the registry over {@code catalog}; the gateway starts with zero sources too (spec 1.4). */
    static SourcesAssembly start(Settings.Connectors settings, Clock clock, ConnectorCatalog catalog, YamlSourceStore store) {
        EgressRules egress = settings.egressRules();
        BackendHostGuard.install(egress);
        if (!BackendHostGuard.active()) {
            LOG.warn("event=egress-resolver-missing effect=\"connections to backend names are refused\"");
        }
        // the file was read for its plugin pins before the plugins loaded; the read that makes the sources types each ${VAR}
        // setting by its connector's configSchema (a number from the environment stays a number)
        store.useSettingsSchemas(type -> catalog.find(type).map(t -> t.manifest().configSchema()));
        SourceConnectorContexts contexts = new SourceConnectorContexts(egress, settings.connectTimeout(), settings.requestTimeout(), clock,
                answerBudget(settings));
        SourceRegistry registry = new SourceRegistry(catalog, contexts, store, egress, BackendHostGuard.unfilteredResolver(),
                settings.startTimeout(), clock);
        registry.start();
        return new SourcesAssembly(registry);
    }

    /** The budget every source's answers share: the operator's, or the JVM's default from the heap. */
    static AnswerBudget answerBudget(Settings.Connectors settings) {
        return answerBudget(settings, Runtime.getRuntime().maxMemory());
    }

    /**
     * As {@link #answerBudget(Settings.Connectors)} on a JVM whose heap may grow to {@code maxHeapBytes}. A budget above
     * the heap never gets here (the settings refuse it); one above half of it is allowed but warned about: answers
     * in flight may then leave the gateway's own work (sessions, audit, analysis) less than the half the default keeps.
     */
    static AnswerBudget answerBudget(Settings.Connectors settings, long maxHeapBytes) {
        AnswerBudget budget = settings.answerBudgetMib().isPresent()
                ? AnswerBudget.ofBytes((long) settings.answerBudgetMib().getAsInt() << 20)
                : AnswerBudget.jvmDefault();
        LOG.info("event=answer-budget mib={} from={} heap_mib={}", budget.capacity() >> 20,
                settings.answerBudgetMib().isPresent() ? "OMCP_BACKEND_ANSWER_BUDGET_MIB" : "heap", maxHeapBytes >> 20);
        if (settings.answerBudgetMib().isPresent() && maxHeapBytes != Long.MAX_VALUE
                && budget.capacity() > maxHeapBytes / AnswerBudget.DEFAULT_HEAP_DIVISOR) {
            LOG.warn("event=answer-budget-large mib={} heap_mib={} effect=\"backend answers in flight may take more than half the heap,"
                    + " leaving the rest of the gateway less; an OutOfMemoryError is likelier under load\" fix=\"lower"
                    + " OMCP_BACKEND_ANSWER_BUDGET_MIB to {} or less, or raise -Xmx\"", budget.capacity() >> 20, maxHeapBytes >> 20,
                    maxHeapBytes / AnswerBudget.DEFAULT_HEAP_DIVISOR >> 20);
        }
        return budget;
    }

    SourceRegistry registry() {
        return registry;
    }

    /** The management routes for sources. */
    SourcesRoutes routes() {
        // The API guard has already resolved the caller (or refused the request) before a handler runs.
        return new SourcesRoutes(registry, dev.omcp.adapters.http.api.ApiCaller::principal);
    }


    @Override
    public void close() {
        registry.close();
    }
}
