package dev.omcp.ports.plugins;

/**
 * Whether an install may replace a plugin with an older version of itself. Refused by default: an
 * old bundle keeps its valid signature forever, so installing one can bring back a flaw fixed
 * since (a rollback attack); going back on purpose is an explicit, audited choice.
 */
public enum DowngradePolicy {
    /** A version lower than the one installed is refused ({@link InstallOutcome.Kind#DOWNGRADE}). */
    REFUSE,
    /** A version lower than the one installed replaces it; the outcome says which version it replaced. */
    ALLOW
}
