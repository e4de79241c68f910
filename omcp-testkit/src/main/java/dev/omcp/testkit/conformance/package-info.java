/** The fixture the official MCP conformance suite expects on a server under test. */
package dev.omcp.testkit.conformance;
