package dev.omcp.core.plugins;

import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginDirectoryBusyException;
import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.plugins.PluginStore;
import dev.omcp.ports.plugins.RemoveOutcome;
import dev.omcp.ports.plugins.SourceAudience;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.sdk.text.LogField;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes a plugin from the plugins directory: refused when it is not installed or is a builtin, and
 * when sources use the connector it serves unless the removal is forced; otherwise the store takes it
 * out crash-safely and the plugins are re-scanned. The version it had is forgotten: downgrade
 * protection compares a bundle with the plugin in place, and after a removal there is none, so the
 * next install of any version is a first install. Used by the management API and by
 * {@code omcp plugin remove}.
 *
 * <p>A versioned directory ({@code <name>-<version>}) the sources file pins is refused, forced or
 * not: the pin would then name a missing directory, which leaves the pinned connector unloaded and,
 * in strict mode, refuses the next start. The pin is the operator's, in their sources file, so the
 * gateway does not rewrite it; the refusal says to take the pin out first. A versioned directory no
 * pin names is loaded by nothing and is removed like any plugin.
 */
public final class PluginRemoval {
    private static final Logger LOG = LoggerFactory.getLogger(PluginRemoval.class);
    /** A name echoed in a message is cut here: it comes from a URL path, and a message should stay one line. */
    private static final int SHOWN_NAME = 64;
    /** Characters of a refusal a log line keeps: the longest says what to do and that nothing changed. */
    private static final int MAX_LOGGED_REASON = 1_000;

    private final PluginStore store;
    private final Set<String> builtinNames;

    public PluginRemoval(PluginStore store, Set<String> builtinNames) {
        this.store = Objects.requireNonNull(store, "store");
        this.builtinNames = Set.copyOf(builtinNames);
    }

    /**
     * What a removal asks of whoever uses the plugins: a running gateway (its live sources and
     * catalog), or {@code omcp plugin remove} (the sources file the next start reads).
     */
    public interface Checks {
        /**
         * The sources that would be left without a connector when the plugin in {@code location},
         * serving connector type {@code type}, is removed; empty when none would.
         */
        List<String> sourcesLeftWithout(String location, String type);

        /** The {@code plugins:} pins of the sources file in force: the gateway's from its start, the file's offline. */
        List<PluginPin> pins();

        /** Called once the plugin left the plugins directory: re-scan, reconnect. */
        Unloaded afterRemoval(String type);
    }

    /**
     * After a removal: what became of the plugin's connector.
     *
     * @param sourcesWithoutConnector the sources of its type that have no connector now
     * @param problem empty when it is unloaded (or, offline, will not load at the next start); else why
     *     it is still loaded, safe to show
     */
    public record Unloaded(List<String> sourcesWithoutConnector, String problem) {
        public Unloaded {
            sourcesWithoutConnector = List.copyOf(sourcesWithoutConnector);
            Objects.requireNonNull(problem, "problem");
        }
    }

    /**
     * Removes the plugin in the plugins directory's {@code name} sub-directory.
     *
     * @param force remove it even when {@link Checks#sourcesLeftWithout} names sources
     */
    public RemoveOutcome remove(String name, boolean force, Checks checks) {
        return remove(name, force, checks, SourceAudience.wholeGateway());
    }

    /**
     * As {@link #remove(String, boolean, Checks)}, naming in the answer only the sources
     * {@code audience} may see: a plugin serves every tenant, so the sources that block or lose it
     * can be another tenant's, whose names that tenant's admin must not learn. The others are counted,
     * so a refusal still says why; the log names them all.
     */
    public RemoveOutcome remove(String name, boolean force, Checks checks, SourceAudience audience) {
        PluginStore.ChangeLock held;
        try {
            held = store.lockForChange();
        } catch (PluginDirectoryBusyException e) {
            return refused(new RemoveOutcome.Refused(RemoveOutcome.Kind.BUSY, e.getMessage()));
        } catch (PluginDirectoryWriteException e) {
            // the message names the directory and what to do, and says nothing was changed: one refusal, logged once
            // (as an install's is), which omcp plugin remove leaves to its own line
            return refused(new RemoveOutcome.Refused(RemoveOutcome.Kind.FAILED, e.getMessage()));
        }
        // held from the first look at the plugin until the re-scan: another process's install must not rename in between
        try (held) {
            return removeHeld(name, force, checks, audience);
        }
    }

    private RemoveOutcome removeHeld(String name, boolean force, Checks checks, SourceAudience audience) {
        String shown = shown(name);
        Optional<PluginPin> pin = checks.pins().stream().filter(p -> p.directoryName().equals(name)).findFirst();
        if (pin.isPresent()) {
            return refused(new RemoveOutcome.Refused(RemoveOutcome.Kind.PINNED, "'" + name + "' is the versioned directory the "
                    + "sources file pins (plugins: name " + pin.get().name() + ", version " + pin.get().version() + "); removing it "
                    + "would leave the pin naming a missing directory, which leaves that connector unloaded and refuses the start in "
                    + "strict mode. Take the pin out of the sources file (CONFIG_PATH) first (a running gateway reads pins at start, so "
                    + "restart it), then remove '" + name + "'. Nothing was removed"));
        }
        PluginCandidate installed = store.installed(name).orElse(null);
        if (installed == null) {
            if (builtinNames.contains(name)) {
                return refused(new RemoveOutcome.Refused(RemoveOutcome.Kind.BUILTIN, "'" + shown + "' is a builtin connector, part of "
                        + "the gateway; it cannot be removed. To stop using it, remove the sources of type '" + shown + "'"));
            }
            return refused(new RemoveOutcome.Refused(RemoveOutcome.Kind.NOT_INSTALLED, "no plugin '" + shown + "' is installed in the "
                    + "plugins directory; GET /api/connectors lists the installed plugins (their 'location' is the name to remove, "
                    + "for a versioned directory its directory name, such as tempo-1.2.0)"));
        }
        String type = installed.name();
        String version = installed.manifest().map(ConnectorManifest::version).orElse("unknown");
        List<String> users = checks.sourcesLeftWithout(name, type);
        if (!users.isEmpty() && !force) {
            List<String> visible = users.stream().filter(audience::maySee).toList();
            LOG.info("event=plugin-remove-in-use plugin={} sources={}", name, users);
            return refused(new RemoveOutcome.Refused(RemoveOutcome.Kind.IN_USE, "plugin '" + name + "' (" + type + " " + version
                    + ") serves the connector of " + named(visible, users.size() - visible.size()) + "; removing it would leave them "
                    + "without one. Remove those sources or change their type first, or remove it with force=true: they then stay "
                    + "defined, without a connector, until the plugin is installed again. Nothing was removed", visible));
        }
        boolean deleted;
        try {
            deleted = store.remove(name);
        } catch (UncheckedIOException e) {
            LOG.error("event=plugin-remove-failed plugin={} version={} reason=\"{}\"", name, version, LogField.of(e.getMessage()), e);
            return new RemoveOutcome.Refused(RemoveOutcome.Kind.FAILED, e.getMessage() + "; nothing was removed");
        }
        Unloaded unloaded = checks.afterRemoval(type);
        LOG.info("event=plugin-removed plugin={} version={} forced={} sources_without_connector={}", name, version, force && !users.isEmpty(),
                unloaded.sourcesWithoutConnector());
        String detail = "removed";
        if (!unloaded.problem().isEmpty()) {
            detail += "; " + unloaded.problem();
        }
        if (!deleted) {
            detail += "; some of its files could not be deleted and stay hidden in the plugins directory until the next start deletes "
                    + "them (the gateway log names them)";
        }
        List<String> left = unloaded.sourcesWithoutConnector();
        List<String> leftVisible = left.stream().filter(audience::maySee).toList();
        if (leftVisible.size() < left.size()) {
            detail += "; " + (left.size() - leftVisible.size()) + " source(s) you cannot list are without a connector too";
        }
        return new RemoveOutcome.Removed(name, version, leftVisible, detail);
    }

    /** "source(s) a, b" plus how many more the caller cannot see, or only that count. */
    private static String named(List<String> visible, int hidden) {
        String more = hidden + " source(s) you cannot list (another tenant's, or needing sources:read)";
        if (visible.isEmpty()) {
            return more;
        }
        return "source(s) " + String.join(", ", visible) + (hidden == 0 ? "" : " and " + more);
    }

    /** {@code name} as a message may show it: one line (control and format characters replaced), at most 64 characters. */
    private static String shown(String name) {
        return BackendText.quoted(name, SHOWN_NAME);
    }

    private static RemoveOutcome refused(RemoveOutcome.Refused refused) {
        LOG.warn("event=plugin-remove-refused kind={} reason=\"{}\"", refused.kind(), LogField.of(refused.reason(), MAX_LOGGED_REASON));
        return refused;
    }
}
