/**
 * Inspect (spec 2.14, 3.1, 3.2): observing every tool call as a signature (who, which tool, which
 * resources, the shape of the arguments, outcome, latency), deriving a profile of rules from those
 * observations for review, and evaluating calls against the accepted rules: logged in dry run,
 * blocked in enforcement. The deviations report and the flows graph read the same observations.
 */
package dev.omcp.core.inspect;
