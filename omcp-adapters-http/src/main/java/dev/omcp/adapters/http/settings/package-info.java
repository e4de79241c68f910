/** {@code /api/settings}: what the gateway runs with, and the settings that change at run time. */
package dev.omcp.adapters.http.settings;
