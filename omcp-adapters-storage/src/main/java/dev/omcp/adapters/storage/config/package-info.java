/**
 * The sources file (spec 1.8, 2.17): YAML read with SnakeYAML's safe constructor, {@code ${VAR}}
 * and {@code ${VAR:-default}} substitution from the environment map the launcher hands over, the
 * {@code PROMETHEUS_URL} / {@code LOKI_URL} fallback when no file exists, and atomic write-back
 * that never writes a substituted secret.
 */
package dev.omcp.adapters.storage.config;
