/**
 * What the gateway tells agents about using it: the usage-guide resource, the incident prompts
 * ({@code triage-incident}, {@code write-postmortem}) and the short {@code initialize} instructions
 * that point to both.
 */
package dev.omcp.core.guidance;
