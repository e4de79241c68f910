/** {@code /api/inspect/mode} and {@code /api/inspect/events} (spec 4.3). */
package dev.omcp.adapters.http.inspect;
