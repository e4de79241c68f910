package dev.omcp.testkit.demo.system;

/**
 * One pod of the simulated cluster.
 *
 * @param name pod name
 * @param namespace its namespace
 * @param service the service it runs (the {@code app} label)
 * @param owner name of the owning replica set, stateful set or daemon set
 * @param ownerKind {@code ReplicaSet}, {@code StatefulSet} or {@code DaemonSet}
 * @param node the node it runs on
 * @param ip its pod IP
 * @param index its position among the service's pods
 */
public record DemoPod(String name, String namespace, String service, String owner, String ownerKind, String node, String ip, int index) {
    /** The scrape address, {@code ip:8080}. */
    public String instance() {
        return ip + ":8080";
    }
}
