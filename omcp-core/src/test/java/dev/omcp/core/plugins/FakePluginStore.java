package dev.omcp.core.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.LoadedHook;
import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.ports.plugins.PluginLoadException;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.plugins.PluginScan;
import dev.omcp.ports.plugins.PluginStore;
import dev.omcp.ports.plugins.StagedBundle;
import dev.omcp.ports.plugins.TrustRoot;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.hook.Hook;
import dev.omcp.sdk.hook.HookResult;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.manifest.HookEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/** An in-memory plugins directory: candidates as a scan would report them, bundles by their bytes. */
final class FakePluginStore implements PluginStore {
    private final TrustRoot trustRoot;
    final List<PluginCandidate> directory = new CopyOnWriteArrayList<>();
    final Map<String, String> loadFailures = new HashMap<>();
    final Map<String, List<String>> skippedHookModules = new HashMap<>();
    final Map<String, Hook> hookInstances = new HashMap<>();
    final List<String> loads = new CopyOnWriteArrayList<>();
    private final List<Map.Entry<byte[], Object>> bundles = new ArrayList<>();
    final List<String> staged = new CopyOnWriteArrayList<>();
    final List<String> discarded = new CopyOnWriteArrayList<>();
    final List<String> removed = new CopyOnWriteArrayList<>();
    /** When set, {@link #remove} fails as a file system refusing the rename would. */
    String removeFailure;
    /** What {@link #remove} answers: whether everything was deleted. */
    boolean removeDeletesAll = true;
    /** When set, another process holds the plugins directory: {@link #lockForChange} refuses with this. */
    String heldElsewhere;
    /** When set, the lock file cannot be created (a read-only directory): {@link #lockForChange} fails with this. */
    PluginDirectoryWriteException lockFailure;
    /** When set, the commit's rename fails with this, and the earlier install stays in place. */
    PluginDirectoryWriteException commitFailure;
    /** When set, taking a committed bundle back fails with it, as a full or read-only disk would. */
    String rollBackFailure;
    private volatile boolean locked;
    /** Every change of the directory (stage, commit, roll-back, close, remove) made without the change lock held. */
    final List<String> unlockedChanges = new CopyOnWriteArrayList<>();

    @Override
    public ChangeLock lockForChange() throws dev.omcp.ports.plugins.PluginDirectoryBusyException, PluginDirectoryWriteException {
        if (heldElsewhere != null) {
            throw new dev.omcp.ports.plugins.PluginDirectoryBusyException(heldElsewhere);
        }
        if (lockFailure != null) {
            throw lockFailure;
        }
        if (locked) {
            throw new IllegalStateException("the change lock is not re-entrant");
        }
        locked = true;
        return () -> locked = false;
    }

    private void change(String what) {
        if (!locked) {
            unlockedChanges.add(what);
        }
    }

    FakePluginStore(TrustRoot trustRoot, PluginCandidate... candidates) {
        this.trustRoot = trustRoot;
        directory.addAll(List.of(candidates));
    }

    /** A bundle whose unpacked check yields {@code candidate}. */
    /** {@code bytes} cannot be unpacked: the plugins directory refuses the writes, as a full disk would. */
    void unwritable(byte[] bytes, PluginDirectoryWriteException failure) {
        bundles.add(Map.entry(bytes, failure));
    }

    void bundle(byte[] bytes, PluginCandidate candidate) {
        bundles.add(Map.entry(bytes, candidate));
    }

    /** A bundle the archive checks refuse. */
    void badBundle(byte[] bytes, String reason) {
        bundles.add(Map.entry(bytes, reason));
    }

    @Override
    public TrustRoot trustRoot() {
        return trustRoot;
    }

    @Override
    public PluginScan scan(List<PluginPin> pins) {
        return new PluginScan(trustRoot, List.copyOf(directory), true);
    }

    @Override
    public LoadedPlugin load(PluginCandidate candidate) throws PluginLoadException {
        loads.add(candidate.location());
        // "tempo@1.1.0" fails one version only; "tempo" every version at that location
        String failure = loadFailures.getOrDefault(candidate.location() + "@" + candidate.manifest().map(m -> m.version()).orElse(""),
                loadFailures.get(candidate.location()));
        if (failure != null) {
            throw new PluginLoadException(failure);
        }
        ConnectorManifest manifest = candidate.manifest().orElseThrow();
        List<LoadedHook> hooks = new ArrayList<>();
        List<LoadedPlugin.SkippedHook> skipped = new ArrayList<>();
        for (HookEntry entry : manifest.hooks()) {
            if (skippedHookModules.getOrDefault(candidate.location(), List.of()).contains(entry.module())) {
                skipped.add(new LoadedPlugin.SkippedHook(entry, "module '" + entry.module() + "' escapes the plugin root"));
            } else {
                hooks.add(new LoadedHook(entry, hookInstances.getOrDefault(entry.module(), (ctx, payload) -> HookResult.proceed())));
            }
        }
        return LoadedPlugin.of(candidate, new NamedFactory(manifest, candidate.location()), hooks, skipped);
    }

    @Override
    public StagedBundle stage(byte[] tarball) throws BundleRejectedException, PluginDirectoryWriteException {
        for (Map.Entry<byte[], Object> bundle : bundles) {
            if (Arrays.equals(bundle.getKey(), tarball)) {
                if (bundle.getValue() instanceof String reason) {
                    throw new BundleRejectedException(reason);
                }
                if (bundle.getValue() instanceof PluginDirectoryWriteException failure) {
                    throw failure;
                }
                PluginCandidate candidate = (PluginCandidate) bundle.getValue();
                change("stage");
                staged.add(candidate.name());
                return new StagedBundle() {
                    private boolean committed;
                    private PluginCandidate replaced;

                    @Override
                    public PluginCandidate candidate() {
                        return candidate;
                    }

                    @Override
                    public void commit() throws PluginDirectoryWriteException {
                        change("commit");
                        if (commitFailure != null) {
                            throw commitFailure;
                        }
                        replaced = directory.stream().filter(c -> c.origin() == ConnectorType.Origin.FILESYSTEM
                                && c.location().equals(candidate.name())).findFirst().orElse(null);
                        directory.removeIf(c -> c.origin() == ConnectorType.Origin.FILESYSTEM && c.location().equals(candidate.name()));
                        directory.add(new PluginCandidate(candidate.name(), ConnectorType.Origin.FILESYSTEM, candidate.name(), candidate.manifest(),
                                candidate.manifestCheck(), candidate.integrity(), candidate.signature(), candidate.fingerprint()));
                        committed = true;
                    }

                    @Override
                    public boolean rollBack() {
                        change("rollBack");
                        if (rollBackFailure != null) {
                            throw new java.io.UncheckedIOException(rollBackFailure, new java.io.IOException(rollBackFailure));
                        }
                        if (!committed) {
                            return false;
                        }
                        directory.removeIf(c -> c.origin() == ConnectorType.Origin.FILESYSTEM && c.location().equals(candidate.name()));
                        committed = false;
                        if (replaced == null) {
                            return false;
                        }
                        directory.add(replaced);
                        return true;
                    }

                    @Override
                    public void close() {
                        change("close");
                        if (!committed) {
                            discarded.add(candidate.name());
                        }
                    }
                };
            }
        }
        throw new BundleRejectedException("not a gzip archive");
    }

    @Override
    public boolean remove(String name) {
        change("remove");
        if (removeFailure != null) {
            throw new java.io.UncheckedIOException(removeFailure, new java.io.IOException(removeFailure));
        }
        if (!directory.removeIf(c -> c.origin() == ConnectorType.Origin.FILESYSTEM && c.location().equals(name))) {
            throw new IllegalStateException("remove() of '" + name + "', which is not installed");
        }
        removed.add(name);
        return removeDeletesAll;
    }

    @Override
    public java.util.Optional<PluginCandidate> installed(String name) {
        return directory.stream().filter(c -> c.origin() == ConnectorType.Origin.FILESYSTEM && c.location().equals(name)).findFirst();
    }

    /** A factory that remembers where it was loaded from. */
    record NamedFactory(ConnectorManifest manifest, String location) implements ConnectorFactory {
        @Override
        public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
            return CompletableFuture.failedFuture(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "fake factory"));
        }
    }

    static ConnectorFactory builtin(String name) {
        return new NamedFactory(Candidates.manifest(name), "builtin");
    }
}
