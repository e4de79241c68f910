/**
 * The reference Zipkin connector: a complete filesystem plugin that depends on the OMCP SDK alone.
 * Read it as an example of a connector: one factory registered in {@code META-INF/services}, a
 * connector implementing the capabilities its manifest declares, every backend call through the
 * context's HTTP client with the request timeout, backend failures turned into typed
 * {@link dev.omcp.sdk.connector.ConnectorException}s carrying the backend's own message.
 */
package dev.omcp.plugins.zipkin;
