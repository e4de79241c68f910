/**
 * The connector contract: the connector interface, its capability interfaces, the factory a plugin
 * registers and the context the gateway gives it.
 */
package dev.omcp.sdk.connector;
