package dev.omcp.app.demo;

import dev.omcp.testkit.demo.DemoBackends;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Points a gateway at the simulated shop: writes a sources file for its Prometheus, Loki,
 * Kubernetes and Zipkin, unpacks the signed reference Zipkin plugin with its trust root, writes a
 * service catalog of the shop's teams and an IP dataset covering the client addresses in its logs,
 * and returns the environment the settings reader needs. Used by {@code omcp demo} and the
 * end-to-end tests.
 */
public final class DemoEnvironment {
    /** Where the build puts the reference Zipkin plugin and its trust root inside the jar. */
    static final String BUNDLED = "/dev/omcp/app/demo/";
    private static final List<String> ZIPKIN_FILES = List.of("package.json", "manifest.json", "manifest.json.sig", "zipkin-connector.jar");
    /** The shop's owners, tiers, on-call channels and SLOs (spec 2.11 {@code .catalog}). */
    static final String CATALOG = """
            {"services": {
              "frontend":      {"owner": "team-web",      "tier": 1, "onCall": "#web-oncall",      "slo": "99.9% of requests under 800 ms"},
              "catalog":       {"owner": "team-catalog",  "tier": 2, "onCall": "#catalog-oncall",  "slo": "99.5% availability"},
              "catalog-cache": {"owner": "team-catalog",  "tier": 3, "onCall": "#catalog-oncall",  "slo": "best effort"},
              "checkout":      {"owner": "team-checkout", "tier": 1, "onCall": "#checkout-oncall", "slo": "99.9% of orders accepted"},
              "inventory":     {"owner": "team-checkout", "tier": 2, "onCall": "#checkout-oncall", "slo": "99.5% availability"},
              "payments":      {"owner": "team-payments", "tier": 1, "onCall": "#payments-oncall", "slo": "99.95% of payments under 1 s"},
              "payments-db":   {"owner": "team-platform", "tier": 1, "onCall": "#dba-oncall",      "slo": "p99 query latency under 50 ms"}
            }}
            """;
    /** Networks of the client addresses the simulated logs carry (documentation ranges, RFC 5737 and RFC 3849). */
    static final String IP_NETWORKS = """
            network,asn,org,country,kind
            203.0.113.0/24,64500,"Example Transit, B.V.",NL,transit
            198.51.100.0/24,64501,Example Mobile GmbH,DE,mobile
            192.0.2.0/24,64502,Shop office VPN,US,corporate
            2001:db8::/32,64503,Example IPv6 Broadband,FR,broadband
            """;

    private DemoEnvironment() {}

    /**
     * Prepares {@code workDir} and returns the variables that point a gateway at {@code backends}.
     *
     * @param pluginSource where the signed reference plugins are: a directory holding
     *     {@code plugins/zipkin} and {@code trust-root.pem}, or empty to use the copy bundled in the jar
     */
    public static Map<String, String> prepare(DemoBackends backends, Path workDir, Optional<Path> pluginSource) {
        try {
            Path plugins = Files.createDirectories(workDir.resolve("plugins"));
            Path trustRoot = workDir.resolve("trust-root.pem");
            boolean zipkin = installZipkin(plugins.resolve("zipkin"), trustRoot, pluginSource);
            Path sources = workDir.resolve("sources.yaml");
            StringBuilder yaml = new StringBuilder("# The simulated shop of `omcp demo`: every backend runs on loopback.\nsources:\n")
                    .append("  - name: prometheus\n    type: prometheus\n    url: ").append(backends.prometheusUrl()).append('\n')
                    .append("  - name: loki\n    type: loki\n    url: ").append(backends.lokiUrl()).append('\n')
                    .append("  - name: kubernetes\n    type: kubernetes\n    mode: source\n    url: ").append(backends.kubernetesUrl()).append('\n')
                    .append("    auth:\n      type: bearer\n      token: ${OMCP_DEMO_KUBERNETES_TOKEN}\n");
            if (zipkin) {
                // the shop's services run in its namespace: the trace-derived service calls then merge with the cluster's services
                yaml.append("  - name: zipkin\n    type: zipkin\n    url: ").append(backends.zipkinUrl()).append('\n')
                        .append("    topologyNamespace: ").append(SimulatedSystem.NAMESPACE).append('\n');
            }
            Files.writeString(sources, yaml);
            Map<String, String> env = new LinkedHashMap<>();
            env.put("CONFIG_PATH", sources.toString());
            // The simulated backends listen on loopback, which the egress guard refuses by default.
            env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
            env.put("OMCP_DEMO_KUBERNETES_TOKEN", backends.kubernetesToken());
            env.put("PLUGINS_DIR", plugins.toString());
            Path catalog = Files.writeString(workDir.resolve("service-catalog.json"), CATALOG);
            env.put("OMCP_SERVICE_CATALOG_FILE", catalog.toString());
            Path networks = Files.writeString(workDir.resolve("ip-networks.csv"), IP_NETWORKS);
            env.put("OMCP_IP_ENRICH_FILE", networks.toString());
            // The simulated shop's post-mortems go with the demo: in the default /tmp/postmortems.jsonl (or
            // the operator's OMCP_POSTMORTEMS_FILE) they were listed by every later gateway on the machine.
            env.put("OMCP_POSTMORTEMS_FILE", workDir.resolve("postmortems.jsonl").toString());
            if (zipkin) {
                env.put("PLUGIN_TRUST_ROOT", trustRoot.toString());
            }
            return env;
        } catch (IOException e) {
            throw new UncheckedIOException("preparing the demo directory " + workDir + " failed", e);
        }
    }

    private static boolean installZipkin(Path target, Path trustRoot, Optional<Path> source) throws IOException {
        Files.createDirectories(target);
        if (source.isPresent()) {
            Path dir = source.get();
            if (!Files.isDirectory(dir.resolve("plugins/zipkin"))) {
                return false;
            }
            for (String file : ZIPKIN_FILES) {
                Files.copy(dir.resolve("plugins/zipkin").resolve(file), target.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
            Files.copy(dir.resolve("trust-root.pem"), trustRoot, StandardCopyOption.REPLACE_EXISTING);
            return true;
        }
        for (String file : ZIPKIN_FILES) {
            try (InputStream in = DemoEnvironment.class.getResourceAsStream(BUNDLED + "plugins/zipkin/" + file)) {
                if (in == null) {
                    return false;
                }
                Files.copy(in, target.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        try (InputStream in = DemoEnvironment.class.getResourceAsStream(BUNDLED + "trust-root.pem")) {
            if (in == null) {
                return false;
            }
            Files.copy(in, trustRoot, StandardCopyOption.REPLACE_EXISTING);
        }
        return true;
    }
}
