package dev.omcp.testkit.connector;

import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginInspector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.manifest.ConnectorManifest;
import java.util.Objects;

/**
 * A plugin that passed every check the gateway's strict mode demands and was loaded in its own class
 * loader.
 *
 * @param inspection what the checks found
 * @param loaded the factory and hooks, from the plugin's class loader
 */
public record VerifiedPlugin(PluginInspector.Inspection inspection, LoadedPlugin loaded) {
    public VerifiedPlugin {
        Objects.requireNonNull(inspection, "inspection");
        Objects.requireNonNull(loaded, "loaded");
    }

    /** The verified {@code manifest.json}. */
    public ConnectorManifest manifest() {
        return inspection.candidate().manifest().orElseThrow();
    }

    /** The factory, as the gateway would call it. */
    public ConnectorFactory factory() {
        return loaded.factory();
    }

    /** Runs the SDK contract against a source (usually a recorded mock). */
    public ContractReport checkContract(SourceConfig source, ConnectorContext context, SampleQueries samples) {
        return ConnectorContract.check(factory(), manifest(), source, context, samples);
    }

    /** Runs the SDK contract with a {@link TestConnectorContext#defaults() default context}. */
    public ContractReport checkContract(SourceConfig source, SampleQueries samples) {
        return checkContract(source, TestConnectorContext.defaults(), samples);
    }
}
