/**
 * Checks of tool answers against the output schemas that {@code tools/list} publishes: members an
 * answer carries that its schema never mentions, which a validator lets through.
 */
package dev.omcp.testkit.schema;
