package dev.omcp.core.plugins;

import dev.omcp.ports.plugins.ConnectorUsers;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Sources by name and connector type; records which types were reconnected or had their unconnected sources connected. */
final class FakeConnectorUsers implements ConnectorUsers {
    final Map<String, String> typeBySource = new TreeMap<>();
    final List<String> reconnected = new CopyOnWriteArrayList<>();
    final List<String> connected = new CopyOnWriteArrayList<>();

    FakeConnectorUsers source(String name, String type) {
        typeBySource.put(name, type);
        return this;
    }

    @Override
    public List<String> sourcesOfType(String connectorType) {
        return typeBySource.entrySet().stream().filter(e -> e.getValue().equals(connectorType)).map(Map.Entry::getKey).toList();
    }

    @Override
    public void reconnect(String connectorType) {
        reconnected.add(connectorType);
    }

    @Override
    public void connectUnconnected(String connectorType) {
        connected.add(connectorType);
    }
}
