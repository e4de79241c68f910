package dev.omcp.core.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.ConnectorUsers;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.SourceAudience;
import dev.omcp.ports.plugins.SourceReconnection;
import dev.omcp.sdk.connector.ConnectorFactory;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the sources of a connector type onto what a live install loaded. When the install replaced
 * the connector that served the type (an upgrade, an allowed downgrade, a pinned version now
 * shadowed), every source of the type is connected again, so none keeps running the code of the
 * version the operator replaced; the old connectors are closed once the new ones are in place.
 * Otherwise only the sources without a connector connect, as at a start. A source whose new
 * connector does not start keeps its definition, is left without a connector with the reason in its
 * status, and is named in the install's answer and the log. A plugin serves every tenant, so the
 * install touches the sources of all of them: the log names them all, the answer (its
 * {@code sources} and the counts and names of its detail) only those the caller may see.
 */
final class InstalledSources {
    private static final Logger LOG = LoggerFactory.getLogger(InstalledSources.class);

    private InstalledSources() {}

    /**
     * @param servedBefore the factory that served the installed type before the install, if any
     * @param servingNow the type that serves it after the install's re-scan
     * @param audience the sources the answer may name
     */
    static InstallOutcome.Installed connect(InstallOutcome.Installed installed, Optional<ConnectorFactory> servedBefore,
            Optional<ConnectorType> servingNow, ConnectorUsers users, SourceAudience audience) {
        // identity: a re-scan keeps the loaded plugin (and its factory) of files that did not change
        boolean replaced = servedBefore.isPresent() && servingNow.isPresent() && servingNow.get().factory() != servedBefore.get();
        if (!replaced) {
            List<SourceReconnection> connected = seenBy(audience, users.connectUnconnected(installed.name()));
            return installed.withSources(connected, installed.detail() + failures(connected, installed, "did not connect"));
        }
        List<SourceReconnection> all = users.reconnect(installed.name());
        List<SourceReconnection> failedAnywhere = failed(all);
        if (!failedAnywhere.isEmpty()) {
            LOG.warn("event=sources-reconnect-failed type={} version={} sources={} reason=\"their connector did not start on the new"
                    + " version; each keeps its definition and shows the reason in its status\"", installed.name(), installed.version(),
                    failedAnywhere.stream().map(SourceReconnection::source).collect(Collectors.joining(",")));
        }
        List<SourceReconnection> reconnected = seenBy(audience, all);
        List<SourceReconnection> failed = failed(reconnected);
        long enabled = reconnected.stream().filter(s -> !s.status().equals("disabled")).count();
        String moved = enabled == 0 ? "" : "; " + (enabled - failed.size()) + " of " + enabled + " enabled source(s) of type "
                + installed.name() + " now run version " + installed.version();
        return installed.withSources(reconnected, installed.detail() + moved + failures(reconnected, installed, "did not reconnect"));
    }

    /** The sources the caller may see: a tenant's admin must not learn the names (or number) of another tenant's. */
    private static List<SourceReconnection> seenBy(SourceAudience audience, List<SourceReconnection> sources) {
        return sources.stream().filter(s -> audience.maySee(s.source())).toList();
    }

    /** The enabled sources left without a connector (a disabled source has none on purpose). */
    private static List<SourceReconnection> failed(List<SourceReconnection> sources) {
        return sources.stream().filter(s -> !s.connected() && !s.status().equals("disabled")).toList();
    }

    private static String failures(List<SourceReconnection> sources, InstallOutcome.Installed installed, String what) {
        List<SourceReconnection> failed = failed(sources);
        if (failed.isEmpty()) {
            return "";
        }
        return "; " + failed.stream().map(s -> s.source() + " (" + s.problem() + ")").collect(Collectors.joining(", ")) + " " + what
                + " to " + installed.name() + " " + installed.version() + " and have no connector: their definitions are kept;"
                + " fix the cause and save each source again (PUT /api/sources/{name}), or restart the gateway";
    }
}
