/**
 * Inspect (spec 2.14, 3.1): the mode, the observation records of every tool call and where they are
 * kept.
 */
package dev.omcp.ports.inspect;
