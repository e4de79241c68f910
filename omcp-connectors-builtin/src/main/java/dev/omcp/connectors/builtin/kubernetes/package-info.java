/**
 * The builtin Kubernetes connector: cluster topology (pods, nodes, namespaces, workloads, services,
 * containers) kept current with list + watch, resynced after a broken watch or 410 Gone.
 */
package dev.omcp.connectors.builtin.kubernetes;
