/** Settings an operator reads and changes while the gateway runs (the management API's settings page). */
package dev.omcp.ports.settings;
