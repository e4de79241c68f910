/**
 * {@code generate_postmortem} (spec 4.4): the report model with caps and situation rules
 * ({@link dev.omcp.core.analysis.postmortem.PostmortemBuilder}), the built-in markdown layout
 * ({@link dev.omcp.core.analysis.postmortem.PostmortemMarkdown}), the JSON form and the custom
 * template ({@link dev.omcp.core.analysis.postmortem.PostmortemTemplate}).
 */
package dev.omcp.core.analysis.postmortem;
