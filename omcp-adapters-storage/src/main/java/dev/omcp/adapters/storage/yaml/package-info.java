/** What every YAML file the gateway reads must satisfy beyond SnakeYAML's own limits. */
package dev.omcp.adapters.storage.yaml;
