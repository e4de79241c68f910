/** The one builder that assembles the gateway core. */
package dev.omcp.core.gateway;
