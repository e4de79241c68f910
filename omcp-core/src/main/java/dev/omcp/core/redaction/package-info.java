/**
 * Redaction of PII and secrets in tool output (spec 5.7). Entry point:
 * {@link dev.omcp.core.redaction.Redactor}.
 */
package dev.omcp.core.redaction;
