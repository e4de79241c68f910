package dev.omcp.core.plugins;

import dev.omcp.core.hooks.HookMode;
import dev.omcp.core.hooks.HookRegistration;
import dev.omcp.core.hooks.HookRegistry;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.ConnectorStatus;
import dev.omcp.ports.plugins.LoadedHook;
import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginLoadException;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.plugins.PluginScan;
import dev.omcp.ports.plugins.PluginStore;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.manifest.HookEntry;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.sdk.text.LogField;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live connector catalog: builtin connector types, verified filesystem plugins and pinned
 * plugins, with the precedence of spec 5.8 (builtin, then filesystem, then pins; the first of a
 * name wins). A re-scan after an install swaps in a new snapshot and re-registers hooks in place;
 * readers always see a consistent snapshot. Thread-safe; re-scans are serialized.
 */
public final class PluginCatalog implements ConnectorCatalog {
    private static final Logger LOG = LoggerFactory.getLogger(PluginCatalog.class);
    /** Characters of a reason a log line keeps: every check a plugin failed; GET /api/connectors keeps up to 2,000. */
    private static final int MAX_LOGGED_REASON = 1_000;
    /**
     * Plugins a strict-mode refusal names, a line saying how many more after them: the install and
     * removal answers and a refused start show every reason, and a plugins directory may hold hundreds.
     */
    static final int MAX_REFUSALS = 10;

    private final List<ConnectorType> builtins;
    private final PluginStore store;
    private final List<PluginPin> pins;
    private final VerificationPolicy policy;
    private final SemanticVersion serverVersion;
    private final HookRegistry hooks;
    /** {@code OMCP_HOOK_MODE}: when present, the mode every hook runs in, whatever its manifest entry says. */
    private final Optional<HookMode> hookModeOverride;
    private final ReentrantLock rescans = new ReentrantLock();
    private volatile Snapshot snapshot;

    /** One consistent view: the winning type of each name, every status, the loaded plugins by fingerprint. */
    private record Snapshot(Map<String, ConnectorType> types, List<ConnectorStatus> statuses, Map<String, LoadedPlugin> loaded) {}

    /** The plan of one scan before any code is loaded. */
    record Plan(PluginScan scan, List<String> refusals, Map<PluginCandidate, Admission> admissions) {}

    private PluginCatalog(
            List<ConnectorFactory> builtinFactories,
            PluginStore store,
            List<PluginPin> pins,
            VerificationPolicy policy,
            SemanticVersion serverVersion,
            HookRegistry hooks,
            Optional<HookMode> hookModeOverride) {
        List<ConnectorType> types = new ArrayList<>();
        for (ConnectorFactory factory : builtinFactories) {
            types.add(new ConnectorType(factory, factory.manifest(), ConnectorType.Origin.BUILTIN));
        }
        this.builtins = List.copyOf(types);
        this.store = Objects.requireNonNull(store, "store");
        this.pins = List.copyOf(pins);
        this.policy = Objects.requireNonNull(policy, "policy");
        this.serverVersion = Objects.requireNonNull(serverVersion, "serverVersion");
        this.hooks = Objects.requireNonNull(hooks, "hooks");
        this.hookModeOverride = Objects.requireNonNull(hookModeOverride, "hookModeOverride");
    }

    /**
     * Scans the plugins directory and loads what spec 3.5 admits.
     *
     * @param builtins the builtin connectors: always loaded, never gated by verification (spec 1.4)
     * @param serverVersion this gateway's version, for {@code compat.serverVersion}
     * @throws PluginStartRefusedException in strict mode, when a plugin is unverifiable or the trust
     *     root is unusable
     */
    public static PluginCatalog start(
            List<ConnectorFactory> builtins,
            PluginStore store,
            List<PluginPin> pins,
            VerificationPolicy policy,
            SemanticVersion serverVersion,
            HookRegistry hooks) {
        return start(builtins, store, pins, policy, serverVersion, hooks, Optional.empty());
    }

    /**
     * As above, showing each hook's mode as {@code hookModeOverride} ({@code OMCP_HOOK_MODE}) makes it
     * when that is present: the statuses say what the gateway does, not only what the manifest asks.
     */
    public static PluginCatalog start(
            List<ConnectorFactory> builtins,
            PluginStore store,
            List<PluginPin> pins,
            VerificationPolicy policy,
            SemanticVersion serverVersion,
            HookRegistry hooks,
            Optional<HookMode> hookModeOverride) {
        PluginCatalog catalog = new PluginCatalog(builtins, store, pins, policy, serverVersion, hooks, hookModeOverride);
        Plan plan = catalog.plan(store.scan(catalog.pins));
        if (!plan.refusals().isEmpty()) {
            throw new PluginStartRefusedException(plan.refusals());
        }
        catalog.rescans.lock();
        try {
            catalog.apply(plan, Map.of());
        } finally {
            catalog.rescans.unlock();
        }
        return catalog;
    }

    /** The outcome of a runtime re-scan. */
    public sealed interface Rescan {
        /** The new snapshot is in force. */
        record Applied(List<ConnectorStatus> statuses) implements Rescan {}

        /** Strict mode refused the scan; the previous snapshot stays in force. */
        record Refused(List<String> reasons) implements Rescan {}
    }

    /** Scans again and applies the result, unless strict mode refuses it. */
    public Rescan rescan() {
        rescans.lock();
        try {
            Plan plan = plan(store.scan(pins));
            if (!plan.refusals().isEmpty()) {
                plan.refusals().forEach(reason -> LOG.error("event=plugin-rescan-refused reason=\"{}\"",
                        LogField.of(reason, MAX_LOGGED_REASON)));
                return new Rescan.Refused(plan.refusals());
            }
            apply(plan, snapshot.loaded());
            return new Rescan.Applied(snapshot.statuses());
        } finally {
            rescans.unlock();
        }
    }

    /**
     * What strict mode would say about the plugins directory if {@code staged} were installed under
     * its name: empty when a re-scan would be accepted.
     */
    public List<String> refusalsWith(PluginCandidate staged) {
        PluginScan scan = store.scan(pins);
        List<PluginCandidate> candidates = new ArrayList<>();
        for (PluginCandidate candidate : scan.candidates()) {
            boolean replaced = candidate.origin() == ConnectorType.Origin.FILESYSTEM && candidate.location().equals(staged.name());
            if (!replaced) {
                candidates.add(candidate);
            }
        }
        candidates.add(staged);
        return plan(new PluginScan(scan.trustRoot(), candidates, true)).refusals();
    }

    /** Decides about every candidate of {@code scan} without loading anything. */
    Plan plan(PluginScan scan) {
        List<String> refusals = new ArrayList<>();
        LoadDecision.refuseStartWithout(policy, scan.trustRoot()).map(PluginCatalog::shownRefusal).ifPresent(refusals::add);
        Map<PluginCandidate, Admission> admissions = new LinkedHashMap<>();
        for (PluginCandidate candidate : ordered(scan.candidates())) {
            Admission admission = LoadDecision.decide(policy, scan.trustRoot(), candidate, serverVersion);
            admissions.put(candidate, admission);
            if (admission instanceof Admission.RefuseStart refuse) {
                String reason = shownRefusal(refuse.reason());
                if (!refusals.contains(reason)) {
                    refusals.add(reason);
                }
            }
        }
        if (refusals.size() > MAX_REFUSALS) {
            int more = refusals.size() - MAX_REFUSALS;
            refusals = new ArrayList<>(refusals.subList(0, MAX_REFUSALS));
            refusals.add("and " + more + " more plugins are refused the same way; fix the ones above and the next check lists the rest");
        }
        return new Plan(scan, refusals, admissions);
    }

    /**
     * A strict-mode refusal as it is shown: it quotes the plugin's directory name and its checks'
     * problems, the plugin author's text, so it is bounded and kept one printable line as a
     * connector's reason is ({@link ConnectorStatus#reason()}).
     */
    private static String shownRefusal(String reason) {
        return BackendText.clean(reason, ConnectorStatus.MAX_REASON_CHARS);
    }

    /** Filesystem plugins before pins (spec 5.8), each group in a stable order. */
    private List<PluginCandidate> ordered(List<PluginCandidate> candidates) {
        List<PluginCandidate> filesystem = candidates.stream()
                .filter(c -> c.origin() == ConnectorType.Origin.FILESYSTEM)
                .sorted(Comparator.comparing(PluginCandidate::location))
                .toList();
        List<PluginCandidate> pinned = new ArrayList<>();
        for (PluginPin pin : pins) {
            candidates.stream()
                    .filter(c -> c.origin() == ConnectorType.Origin.PINNED && c.location().equals(pin.directoryName()))
                    .findFirst()
                    .ifPresent(pinned::add);
        }
        candidates.stream()
                .filter(c -> c.origin() == ConnectorType.Origin.PINNED && !pinned.contains(c))
                .sorted(Comparator.comparing(PluginCandidate::location))
                .forEach(pinned::add);
        List<PluginCandidate> all = new ArrayList<>(filesystem);
        all.addAll(pinned);
        return all;
    }

    /** Loads the admitted winners of each name, swaps the snapshot and re-registers hooks. */
    private void apply(Plan plan, Map<String, LoadedPlugin> previous) {
        TreeMap<String, ConnectorType> types = new TreeMap<>();
        Map<String, String> owners = new HashMap<>();
        List<ConnectorStatus> statuses = new ArrayList<>();
        for (ConnectorType builtin : builtins) {
            if (types.putIfAbsent(builtin.name(), builtin) == null) {
                owners.put(builtin.name(), "the builtin connector");
                statuses.add(new ConnectorStatus(builtin.name(), ConnectorType.Origin.BUILTIN, "", ConnectorStatus.State.LOADED, "",
                        Optional.of(builtin.manifest()), List.of()));
            }
        }
        Map<String, LoadedPlugin> loaded = new HashMap<>();
        for (Map.Entry<PluginCandidate, Admission> entry : plan.admissions().entrySet()) {
            PluginCandidate candidate = entry.getKey();
            if (!(entry.getValue() instanceof Admission.Load)) {
                String reason = entry.getValue() instanceof Admission.Skip skip ? skip.reason() : ((Admission.RefuseStart) entry.getValue()).reason();
                LOG.warn("event=plugin-skipped plugin=\"{}\" location=\"{}\" origin={} reason=\"{}\"",
                        LogField.of(candidate.name()), LogField.of(candidate.location()), origin(candidate),
                        LogField.of(reason, MAX_LOGGED_REASON));
                statuses.add(status(candidate, ConnectorStatus.State.SKIPPED, reason, List.of()));
                continue;
            }
            String owner = owners.get(candidate.name());
            if (owner != null) {
                String reason = "shadowed by " + owner + " of the same name (precedence: builtin, filesystem, pinned)";
                LOG.warn("event=plugin-shadowed plugin={} location=\"{}\" origin={} reason=\"{}\"",
                        candidate.name(), LogField.of(candidate.location()), origin(candidate), LogField.of(reason));
                statuses.add(status(candidate, ConnectorStatus.State.SHADOWED, reason, List.of()));
                continue;
            }
            LoadedPlugin plugin = previous.get(key(candidate));
            if (plugin == null) {
                try {
                    plugin = store.load(candidate);
                } catch (PluginLoadException e) {
                    // the message may quote the plugin's own exception: its author's text, of any length
                    LOG.warn("event=plugin-skipped plugin={} location=\"{}\" origin={} reason=\"{}\"",
                            candidate.name(), LogField.of(candidate.location()), origin(candidate),
                            LogField.of(e.getMessage(), MAX_LOGGED_REASON));
                    statuses.add(status(candidate, ConnectorStatus.State.SKIPPED, e.getMessage(), List.of()));
                    continue;
                }
                // said once, when the plugin's code is loaded: a re-scan that keeps the plugin keeps its hooks as they were
                warnSkippedHooks(plugin);
            }
            loaded.put(key(candidate), plugin);
            types.put(candidate.name(), new ConnectorType(plugin.factory(), candidate.manifest().orElseThrow(), candidate.origin()));
            owners.put(candidate.name(), (candidate.origin() == ConnectorType.Origin.FILESYSTEM ? "the filesystem plugin in '" : "the pinned plugin in '")
                    + candidate.location() + "'");
            statuses.add(status(candidate, ConnectorStatus.State.LOADED, "", hookStatuses(plugin)));
            LOG.info("event=plugin-loaded plugin={} version={} location=\"{}\" origin={} hooks={}", candidate.name(),
                    candidate.manifest().orElseThrow().version(), LogField.of(candidate.location()), origin(candidate),
                    plugin.hooks().size());
        }
        registerHooks(loaded);
        snapshot = new Snapshot(java.util.Collections.unmodifiableSortedMap(types), List.copyOf(statuses), Map.copyOf(loaded));
    }

    private void registerHooks(Map<String, LoadedPlugin> loaded) {
        List<String> registeredBefore = hooks.plugins();
        List<String> now = new ArrayList<>();
        for (LoadedPlugin plugin : loaded.values()) {
            String name = plugin.candidate().name();
            now.add(name);
            List<HookRegistration> registrations = new ArrayList<>();
            for (LoadedHook hook : plugin.hooks()) {
                registrations.add(new HookRegistration(name, hook.entry().kind(), hook.entry().priority(), mode(hook.entry()), hook.hook()));
            }
            hooks.replacePlugin(name, registrations);
        }
        for (String plugin : registeredBefore) {
            if (!now.contains(plugin)) {
                hooks.removePlugin(plugin);
                LOG.info("event=hooks-removed plugin={}", plugin);
            }
        }
    }

    /** Skipped hooks: a module that is no usable hook, or one a later hook of the same kind in the manifest replaced. */
    private static void warnSkippedHooks(LoadedPlugin plugin) {
        for (LoadedPlugin.SkippedHook skipped : plugin.skippedHooks()) {
            // the module is the manifest's text (up to 512 characters, any of them), and the reason quotes it
            LOG.warn("event=hook-skipped plugin={} kind={} module=\"{}\" reason=\"{}\"", plugin.candidate().name(),
                    skipped.entry().kind().wireName(), LogField.of(skipped.entry().module()), LogField.of(skipped.reason()));
        }
    }

    /**
     * The entry's declared mode. A loaded manifest's mode is always one of the three: the manifest
     * schema refuses any other spelling. An entry made some other way that does not parse runs
     * enforced, the mode that fails safe.
     */
    private static HookMode mode(HookEntry entry) {
        return entry.mode().flatMap(HookMode::fromWireName).orElse(HookMode.ENFORCE);
    }

    private List<ConnectorStatus.HookStatus> hookStatuses(LoadedPlugin plugin) {
        List<ConnectorStatus.HookStatus> list = new ArrayList<>();
        for (LoadedHook hook : plugin.hooks()) {
            list.add(hookStatus(hook.entry(), true, ""));
        }
        for (LoadedPlugin.SkippedHook skipped : plugin.skippedHooks()) {
            list.add(hookStatus(skipped.entry(), false, skipped.reason()));
        }
        return list;
    }

    private ConnectorStatus.HookStatus hookStatus(HookEntry e, boolean registered, String reason) {
        HookMode declared = mode(e);
        return new ConnectorStatus.HookStatus(e.kind().wireName(), e.module(), e.priority(), hookModeOverride.orElse(declared).wireName(),
                declared.wireName(), registered, reason);
    }

    private static ConnectorStatus status(PluginCandidate candidate, ConnectorStatus.State state, String reason, List<ConnectorStatus.HookStatus> hooks) {
        return new ConnectorStatus(candidate.name(), candidate.origin(), candidate.location(), state, reason, candidate.manifest(), hooks);
    }

    private static String key(PluginCandidate candidate) {
        return candidate.origin() + "\u0000" + candidate.location() + "\u0000" + candidate.fingerprint();
    }

    private static String origin(PluginCandidate candidate) {
        return candidate.origin().name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public Optional<ConnectorType> find(String name) {
        return Optional.ofNullable(snapshot.types().get(name));
    }

    @Override
    public List<ConnectorType> all() {
        return List.copyOf(snapshot.types().values());
    }

    /** Every builtin and plugin with its state, builtins first. */
    public List<ConnectorStatus> statuses() {
        return snapshot.statuses();
    }

    /** The names of the builtin connectors. */
    public List<String> builtinNames() {
        return builtins.stream().map(ConnectorType::name).toList();
    }

    /** The policy in force. */
    public VerificationPolicy policy() {
        return policy;
    }

    /** This gateway's version. */
    public SemanticVersion serverVersion() {
        return serverVersion;
    }

    /** The {@code plugins:} pins of the sources file, as read at start. */
    public List<PluginPin> pins() {
        return pins;
    }
}
