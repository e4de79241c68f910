/** Authentication rules: API keys of the agent transport. */
package dev.omcp.core.auth;
