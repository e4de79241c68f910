/** An audit trail that keeps events in memory, for tests of what gets audited. */
package dev.omcp.testkit.audit;
