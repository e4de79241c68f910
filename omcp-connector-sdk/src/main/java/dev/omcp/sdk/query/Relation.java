package dev.omcp.sdk.query;

/** How two topology resources relate. */
public enum Relation {
    /** A pod or container runs on a node or host. */
    RUNS_ON,
    /** A resource is owned by another (pod by replica set, replica set by deployment). */
    OWNED_BY,
    /** A namespaced resource lives in a namespace. */
    IN_NAMESPACE,
    /** A service calls another service (from traces or a mesh). */
    CALLS,
    /** A service depends on another (a database, a queue), or a Kubernetes service selects pods. */
    DEPENDS_ON,
    /** A resource contains another (a pod contains containers). */
    CONTAINS
}
