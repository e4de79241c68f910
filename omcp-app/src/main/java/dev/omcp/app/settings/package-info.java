/** The launcher's settings: every environment variable, read once and validated together. */
package dev.omcp.app.settings;
