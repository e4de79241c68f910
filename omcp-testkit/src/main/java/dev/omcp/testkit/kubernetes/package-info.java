/**
 * A recorded fake of the Kubernetes API server: list and watch of core and apps resources with
 * real object, list, watch-event and Status shapes, resource versions, 410 Gone after compaction,
 * broken watch streams, 401/403 answers and {@code /version}.
 */
package dev.omcp.testkit.kubernetes;
