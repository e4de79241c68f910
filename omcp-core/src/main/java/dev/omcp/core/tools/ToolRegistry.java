package dev.omcp.core.tools;

import dev.omcp.ports.tools.Tool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The tools the gateway serves, in registration order.
 *
 * <p>Reads are lock-free against an immutable snapshot; registration replaces the snapshot and
 * tells listeners, so transports can send {@code notifications/tools/list_changed}.
 */
public final class ToolRegistry {
    private volatile Snapshot snapshot = new Snapshot(List.of(), Map.of(), 0);
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    /**
     * An immutable view of the registered tools. It keeps its own copies: an embedder that builds one
     * and changes its lists afterwards changes nothing a reader of the snapshot sees.
     *
     * @param tools the tools in registration order, none null
     * @param byName the same tools by name, none null
     * @param version increases with every change, so caches can tell snapshots apart
     */
    public record Snapshot(List<Tool> tools, Map<String, Tool> byName, long version) {
        public Snapshot {
            Objects.requireNonNull(tools, "tools must not be null: pass List.of() for no tools");
            Objects.requireNonNull(byName, "byName must not be null: pass Map.of() for no tools");
            for (int i = 0; i < tools.size(); i++) {
                if (tools.get(i) == null) {
                    throw new NullPointerException("tools[" + i + "] is null: a snapshot lists registered tools only");
                }
            }
            byName.forEach((name, tool) -> {
                if (name == null || tool == null) {
                    throw new NullPointerException("byName maps '" + name + "' to " + tool + ": a snapshot names registered tools only");
                }
            });
            tools = List.copyOf(tools);
            byName = Map.copyOf(byName);
        }

        public Optional<Tool> find(String name) {
            return Optional.ofNullable(byName.get(name));
        }
    }

    /** Registers a tool, replacing any tool of the same name. */
    public synchronized void register(Tool tool) {
        String name = tool.definition().name();
        Map<String, Tool> byName = new LinkedHashMap<>(snapshot.byName());
        byName.put(name, tool);
        publish(byName);
    }

    /** Registers several tools at once; listeners hear of one change. */
    public synchronized void registerAll(List<? extends Tool> tools) {
        Map<String, Tool> byName = new LinkedHashMap<>(snapshot.byName());
        for (Tool tool : tools) {
            byName.put(tool.definition().name(), tool);
        }
        publish(byName);
    }

    /** Removes a tool; returns whether it was registered. */
    public synchronized boolean unregister(String name) {
        if (!snapshot.byName().containsKey(name)) {
            return false;
        }
        Map<String, Tool> byName = new LinkedHashMap<>(snapshot.byName());
        byName.remove(name);
        publish(byName);
        return true;
    }

    /** The current tools. */
    public Snapshot snapshot() {
        return snapshot;
    }

    /** Looks a tool up by name. */
    public Optional<Tool> find(String name) {
        return snapshot.find(name);
    }

    /** Runs {@code listener} after every change. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void publish(Map<String, Tool> byName) {
        snapshot = new Snapshot(List.copyOf(new ArrayList<>(byName.values())), Map.copyOf(byName), snapshot.version() + 1);
        listeners.forEach(Runnable::run);
    }
}
