/**
 * A connector author's project as docs/writing-a-connector.md describes it: a small Jaeger plugin
 * ({@link com.acme.jaeger.JaegerConnectorFactory}, its connector and {@link com.acme.jaeger.AuditHook}),
 * the program that packs and signs it ({@link com.acme.jaeger.PackPlugin}) and the test that loads
 * it with the connector test kit ({@code JaegerPluginIT}). Every Java block of the page is a run of
 * lines of these classes ({@code ConnectorGuideDocsTest}); {@code ConnectorGuideIT} lays out a
 * project directory as the page does and runs the packing program and the IT in it.
 *
 * <p>The package is the page's, not OMCP's, so the names the page gives ({@code com.acme.jaeger.PackPlugin},
 * {@code com/acme/jaeger/AuditHook.class}) are the real ones. These classes use only what an author
 * who depends on the SDK and the test kit has ({@code ConnectorGuideArchitectureTest}).
 */
package com.acme.jaeger;
