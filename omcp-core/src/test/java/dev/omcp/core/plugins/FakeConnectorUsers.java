package dev.omcp.core.plugins;

import dev.omcp.ports.plugins.ConnectorUsers;
import dev.omcp.ports.plugins.SourceReconnection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Sources by name and connector type; records which types were reconnected or had their unconnected sources connected. */
final class FakeConnectorUsers implements ConnectorUsers {
    final Map<String, String> typeBySource = new TreeMap<>();
    final List<String> reconnected = new CopyOnWriteArrayList<>();
    final List<String> connected = new CopyOnWriteArrayList<>();
    /** Sources whose connector does not start, with the reason. */
    final Map<String, String> failing = new TreeMap<>();

    FakeConnectorUsers source(String name, String type) {
        typeBySource.put(name, type);
        return this;
    }

    @Override
    public List<String> sourcesOfType(String connectorType) {
        return typeBySource.entrySet().stream().filter(e -> e.getValue().equals(connectorType)).map(Map.Entry::getKey).toList();
    }

    @Override
    public List<SourceReconnection> reconnect(String connectorType) {
        reconnected.add(connectorType);
        return outcomes(connectorType);
    }

    @Override
    public List<SourceReconnection> connectUnconnected(String connectorType) {
        connected.add(connectorType);
        return outcomes(connectorType);
    }

    private List<SourceReconnection> outcomes(String connectorType) {
        return sourcesOfType(connectorType).stream().map(source -> failing.containsKey(source)
                ? new SourceReconnection(source, "failed", failing.get(source))
                : new SourceReconnection(source, "connected", "")).toList();
    }
}
