package dev.omcp.core.hooks;

import dev.omcp.sdk.hook.HookKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hooks in force, changeable at runtime (an install registers hooks without a restart).
 *
 * <p>Registration rules (spec 6.1 rule 5): registering the same (plugin, kind) again replaces the
 * earlier hook; {@link #replacePlugin} first drops every registration of the plugin. Readers get an
 * immutable snapshot per kind, sorted by ascending priority and then plugin name; writers are serialized. Thread-safe.
 */
public final class HookRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(HookRegistry.class);
    /**
     * Ascending priority, then plugin name: spec 6.1 rule 4 leaves equal priorities in any order, but
     * an order that followed registration would change with every install and every re-scan.
     */
    private static final Comparator<HookRegistration> ORDER =
            Comparator.comparingInt(HookRegistration::priority).thenComparing(HookRegistration::plugin);

    private record Key(String plugin, HookKind kind) {}

    private final ReentrantLock writes = new ReentrantLock();
    private final Map<Key, HookRegistration> registrations = new LinkedHashMap<>();
    private volatile Map<HookKind, List<HookRegistration>> byKind = emptyIndex();

    /** Registers one hook, replacing an earlier one of the same plugin and kind. */
    public void register(HookRegistration registration) {
        Objects.requireNonNull(registration, "registration");
        writes.lock();
        try {
            put(registration);
            reindex();
        } finally {
            writes.unlock();
        }
    }

    /**
     * Drops every registration of {@code plugin}, then registers {@code hooks}; a later entry of
     * the same kind replaces an earlier one.
     */
    public void replacePlugin(String plugin, List<HookRegistration> hooks) {
        Objects.requireNonNull(plugin, "plugin");
        for (HookRegistration hook : hooks) {
            if (!hook.plugin().equals(plugin)) {
                throw new IllegalArgumentException("hook " + hook.label() + " does not belong to plugin " + plugin);
            }
        }
        writes.lock();
        try {
            registrations.keySet().removeIf(key -> key.plugin().equals(plugin));
            hooks.forEach(this::put);
            reindex();
        } finally {
            writes.unlock();
        }
    }

    /** Drops every registration of {@code plugin}. */
    public void removePlugin(String plugin) {
        replacePlugin(plugin, List.of());
    }

    /** The hooks of {@code kind}, lowest priority first; equal priorities in plugin name order. */
    public List<HookRegistration> hooks(HookKind kind) {
        return byKind.get(kind);
    }

    /** Every plugin with at least one registered hook. */
    public List<String> plugins() {
        Map<HookKind, List<HookRegistration>> index = byKind;
        return index.values().stream().flatMap(List::stream).map(HookRegistration::plugin).distinct().sorted().toList();
    }

    private void put(HookRegistration registration) {
        HookRegistration previous = registrations.remove(new Key(registration.plugin(), registration.kind()));
        if (previous != null) {
            LOG.info("event=hook-replaced hook={} priority={}", registration.label(), registration.priority());
        }
        registrations.put(new Key(registration.plugin(), registration.kind()), registration);
    }

    private void reindex() {
        Map<HookKind, List<HookRegistration>> index = new EnumMap<>(HookKind.class);
        for (HookKind kind : HookKind.values()) {
            List<HookRegistration> list = new ArrayList<>();
            for (HookRegistration registration : registrations.values()) {
                if (registration.kind() == kind) {
                    list.add(registration);
                }
            }
            list.sort(ORDER);
            index.put(kind, List.copyOf(list));
        }
        byKind = index;
    }

    private static Map<HookKind, List<HookRegistration>> emptyIndex() {
        Map<HookKind, List<HookRegistration>> index = new EnumMap<>(HookKind.class);
        for (HookKind kind : HookKind.values()) {
            index.put(kind, List.of());
        }
        return index;
    }
}
