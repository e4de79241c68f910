/**
 * The Web UI of the management plane (spec 1.3, 1.11, 5.1): its static files under {@code /ui/}, read from the classpath
 * ({@code ui/} in this module's resources) and served through the same guard, security headers and Host/Origin rules as
 * every other route. The pages themselves speak only to {@code /api/*}.
 */
package dev.omcp.adapters.http.ui;
