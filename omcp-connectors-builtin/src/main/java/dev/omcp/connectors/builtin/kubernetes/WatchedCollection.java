package dev.omcp.connectors.builtin.kubernetes;

/**
 * What one {@link KindWatcher} lists and watches: the objects of one kind, cluster-wide or in one
 * namespace.
 *
 * @param kind lower-case singular kind, for example {@code pod}
 * @param path the list path, {@code /api/v1/pods} or {@code /api/v1/namespaces/shop/pods}
 * @param namespace the namespace the path is confined to; empty for a cluster-wide path
 * @param mayBeForbidden true for a cluster-scoped kind of a source watching namespaces only: its
 *     identity has namespace-scoped RBAC, which cannot grant it, so a 403 means the kind is not
 *     available rather than that the source is broken
 */
record WatchedCollection(String kind, String path, String namespace, boolean mayBeForbidden) {
    static WatchedCollection clusterWide(String kind, String path) {
        return new WatchedCollection(kind, path, "", false);
    }

    /** A kind of a namespace-scoped source that lives outside namespaces: tried, and not required. */
    static WatchedCollection clusterScopedOptional(String kind, String path) {
        return new WatchedCollection(kind, path, "", true);
    }

    /** {@code /apis/apps/v1/deployments} in {@code shop}: {@code /apis/apps/v1/namespaces/shop/deployments}. */
    static WatchedCollection inNamespace(String kind, String clusterPath, String namespace) {
        int resource = clusterPath.lastIndexOf('/');
        String path = clusterPath.substring(0, resource) + "/namespaces/" + namespace + clusterPath.substring(resource);
        return new WatchedCollection(kind, path, namespace, false);
    }

    /** How health and topology gaps name it: {@code pod}, or {@code pod in shop}. */
    String label() {
        return namespace.isEmpty() ? kind : kind + " in " + namespace;
    }

    /** Its part of a thread's name: {@code pod}, or {@code pod-shop}. */
    String threadName() {
        return namespace.isEmpty() ? kind : kind + "-" + namespace;
    }

    /** The {@code kind} field of a log line, with the namespace as a field of its own: {@code pod namespace=shop}. */
    String logFields() {
        return namespace.isEmpty() ? kind : kind + " namespace=" + namespace;
    }
}
