package dev.omcp.app.settings;

import dev.omcp.connectors.builtin.prometheus.PrometheusConnectorFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** Reads the sources-and-connectors variables; part of {@link SettingsReader}, kept apart so each area stays small. */
final class ConnectorSettingsReader {
    private static final String LABEL = "[a-zA-Z_][a-zA-Z0-9_]{0,127}";
    private static final String LABEL_IN_WORDS = "ASCII letters, digits and '_', not starting with a digit";
    /** Prometheus 3 stores OpenTelemetry attributes as labels with dots (service.name); the connector quotes them. */
    private static final String METRIC_LABEL = "[a-zA-Z_][a-zA-Z0-9_./-]{0,127}";
    private static final String METRIC_LABEL_IN_WORDS = "ASCII letters, digits, '_', '.', '-' and '/', starting with a letter or '_'";
    /** Below this, ordinary answers (a service's label values, a short range) would be refused. */
    private static final int MIN_ANSWER_BUDGET_MIB = 8;
    /** 1 TiB: a bound that keeps the value in bytes far from overflow, not a heap anyone has. */
    private static final int MAX_ANSWER_BUDGET_MIB = 1 << 20;

    private ConnectorSettingsReader() {}

    static Settings.Connectors read(Environment environment, Map<String, String> env, long maxHeapBytes) {
        List<Settings.EnvironmentUrls> urls = new ArrayList<>();
        urls(environment, env, Variables.PROMETHEUS_URL, "prometheus").ifPresent(urls::add);
        urls(environment, env, Variables.LOKI_URL, "loki").ifPresent(urls::add);
        return new Settings.Connectors(
                environment.file(Variables.CONFIG_PATH).map(java.nio.file.Path::toString),
                urls,
                labels(environment, Variables.PROMETHEUS_SERVICE_LABELS, METRIC_LABEL, METRIC_LABEL_IN_WORDS),
                scrapeInterval(environment),
                labels(environment, Variables.LOKI_SERVICE_LABELS, LABEL, LABEL_IN_WORDS),
                environment.flag(Variables.ALLOW_PRIVATE_BACKENDS),
                Nat64PrefixesReader.read(environment),
                Duration.ofSeconds(environment.seconds(Variables.CONNECTOR_CONNECT_TIMEOUT, 1, 300)),
                Duration.ofSeconds(environment.seconds(Variables.CONNECTOR_REQUEST_TIMEOUT, 1, 3600)),
                Duration.ofSeconds(environment.seconds(Variables.CONNECTOR_START_TIMEOUT, 1, 3600)),
                Duration.ofSeconds(environment.seconds(Variables.SERVICE_LABEL_CACHE_TTL, 0, 86400)),
                answerBudgetMib(environment, maxHeapBytes),
                env);
    }

    /**
     * The operator's budget, refused above the heap: answers could then fill the heap before the
     * budget refuses one, the {@code OutOfMemoryError} the budget exists to prevent. Unset, the
     * launcher derives it from the heap.
     */
    private static OptionalInt answerBudgetMib(Environment environment, long maxHeapBytes) {
        OptionalInt mib = environment.optionalInteger(Variables.BACKEND_ANSWER_BUDGET_MIB, MIN_ANSWER_BUDGET_MIB, MAX_ANSWER_BUDGET_MIB);
        // Long.MAX_VALUE: the JVM reports no heap limit, so there is nothing to compare with
        if (mib.isPresent() && maxHeapBytes != Long.MAX_VALUE && ((long) mib.getAsInt() << 20) > maxHeapBytes) {
            long heapMib = maxHeapBytes >> 20;
            environment.problem(Variables.BACKEND_ANSWER_BUDGET_MIB, "(" + mib.getAsInt() + " MiB) is larger than the maximum heap of this JVM ("
                    + heapMib + " MiB, as the JVM reports it: a little under -Xmx with some collectors): backend answers could fill the heap before the budget refused one. Lower it to at most "
                    + heapMib + " (half the heap, " + Math.max(MIN_ANSWER_BUDGET_MIB, heapMib / 2) + ", leaves the gateway room), "
                    + "or raise the heap with -Xmx in OMCP_JAVA_OPTS");
            return OptionalInt.empty();
        }
        return mib;
    }

    private static Optional<Settings.EnvironmentUrls> urls(Environment environment, Map<String, String> env, Variable variable, String type) {
        List<String> list = environment.list(variable);
        if (list.isEmpty()) {
            return Optional.empty();
        }
        String used = variable.name();
        if (env.get(variable.name()) == null || env.get(variable.name()).isBlank()) {
            used = variable.aliases().stream().filter(a -> env.get(a) != null && !env.get(a).isBlank()).findFirst().orElse(used);
        }
        for (int i = 0; i < list.size(); i++) {
            if (!HttpUrls.usable(list.get(i))) {
                // the value is not shown: a URL may carry a token in its query
                environment.problem(variable, "entry " + (i + 1) + " must be an http:// or https:// URL with a host, for example "
                        + (type.equals("loki") ? "http://loki:3100" : "http://prometheus:9090"));
            }
        }
        return Optional.of(new Settings.EnvironmentUrls(type, used, list));
    }

    /**
     * {@code PROMETHEUS_SCRAPE_INTERVAL}, by the rule of a source's {@code scrapeInterval}: the only way a
     * source from {@code PROMETHEUS_URL}, which has no entry of its own, can say its targets are scraped
     * every minute.
     */
    private static Duration scrapeInterval(Environment environment) {
        Variable variable = Variables.PROMETHEUS_SCRAPE_INTERVAL;
        String text = environment.string(variable);
        Optional<Duration> interval = PrometheusConnectorFactory.scrapeInterval(text);
        if (interval.isEmpty()) {
            environment.problem(variable, "must be " + PrometheusConnectorFactory.SCRAPE_INTERVAL_FORM + ", got '" + text + "'");
            return PrometheusConnectorFactory.DEFAULT_SCRAPE_INTERVAL;
        }
        return interval.get();
    }

    private static List<String> labels(Environment environment, Variable variable, String rule, String ruleInWords) {
        List<String> labels = environment.list(variable);
        if (labels.isEmpty()) {
            labels = List.of(variable.defaultValue().split(","));
        }
        for (String label : labels) {
            if (!label.matches(rule)) {
                environment.problem(variable, "entry '" + label + "' is not a label name (" + ruleInWords + ")");
            }
        }
        return labels;
    }
}
